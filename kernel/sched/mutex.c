#include "mutex.h"
#include "kernel/panic.h"

void mutex_init(struct mutex *m)
{
	m->owner = NULL;
	wait_queue_init(&m->wq);
}

/* Take the mutex if it is free, or if unlock handed it to us. */
static bool try_take(struct mutex *m, struct thread *me)
{
	unsigned long flags = spin_lock_irqsave(&m->wq.lock);
	bool got = m->owner == NULL || m->owner == me;

	if (got)
		m->owner = me;
	spin_unlock_irqrestore(&m->wq.lock, flags);
	return got;
}

void mutex_lock(struct mutex *m)
{
	struct thread *me = current_thread();

	if (READ_ONCE(m->owner) == me)
		panic("BUG: mutex_lock: %s already holds this mutex", me->name);
	wchan_begin(&me->wchan, WCHAN_MUTEX, m, WCHAN_CALLER, 0);
	wait_event(&m->wq, try_take(m, me));
}

bool mutex_trylock(struct mutex *m)
{
	struct thread *me = current_thread();
	unsigned long flags = spin_lock_irqsave(&m->wq.lock);
	bool got = m->owner == NULL;

	if (got)
		m->owner = me;
	spin_unlock_irqrestore(&m->wq.lock, flags);
	return got;
}

/* Hand the mutex to the longest waiter, if any, and wake it. */
void mutex_unlock(struct mutex *m)
{
	unsigned long flags = spin_lock_irqsave(&m->wq.lock);
	struct wait_entry *w;

	if (m->owner != current_thread())
		panic("BUG: mutex_unlock by %s, which does not hold it",
		      current_thread()->name);
	m->owner = NULL;
	list_for_each_entry(w, &m->wq.waiters, link) {
		m->owner = w->thread;
		wake_up_thread(w->thread);
		break;
	}
	spin_unlock_irqrestore(&m->wq.lock, flags);
}

bool mutex_is_locked(struct mutex *m)
{
	return READ_ONCE(m->owner) != NULL;
}
