#include "waitqueue.h"

void wait_queue_init(struct wait_queue *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->waiters);
}

void prepare_to_wait(struct wait_queue *wq, struct wait_entry *w)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);
	struct thread *t = current_thread();

	if (w->thread != t) {
		w->thread = t;
		list_add_tail(&w->link, &wq->waiters);
		wchan_begin(&t->wchan, WCHAN_WAIT_QUEUE, wq, WCHAN_CALLER, 0);
	}
	WRITE_ONCE(t->state, THREAD_SLEEPING);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(struct wait_queue *wq, struct wait_entry *w)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);

	WRITE_ONCE(w->thread->state, THREAD_RUNNABLE);
	wchan_end(&w->thread->wchan);
	list_del(&w->link);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void wake_up_locked(struct wait_queue *wq)
{
	struct wait_entry *w;

	list_for_each_entry(w, &wq->waiters, link)
		wake_up_thread(w->thread);
}

void wake_up_all(struct wait_queue *wq)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);

	wake_up_locked(wq);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/* Wake the first waiter still asleep. */
void wake_up_one(struct wait_queue *wq)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);
	struct wait_entry *w;

	list_for_each_entry(w, &wq->waiters, link)
		if (wake_up_thread(w->thread))
			break;
	spin_unlock_irqrestore(&wq->lock, flags);
}
