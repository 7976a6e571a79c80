/*
 * Wait queues: threads sleeping until a condition becomes true.
 *
 *	wait_event(&wq, READ_ONCE(done));	// sleeper
 *	WRITE_ONCE(done, true); wake_up_all(&wq);	// waker
 *
 * The sleeper registers and marks itself asleep under wq->lock before it
 * tests the condition; the waker sets the condition before it takes
 * wq->lock to wake. Whichever takes the lock second sees the other's
 * work, so the wake-up is never lost.
 */
#ifndef KERNEL_WAITQUEUE_H
#define KERNEL_WAITQUEUE_H

#include "sched.h"

struct wait_queue {
	spinlock_t lock;
	struct list_head waiters;
};

struct wait_entry {
	struct thread *thread;
	struct list_head link;
};

#define WAIT_QUEUE_INIT(name) { SPINLOCK_INIT, LIST_HEAD_INIT((name).waiters) }
#define DEFINE_WAIT_QUEUE(name) struct wait_queue name = WAIT_QUEUE_INIT(name)

void wait_queue_init(struct wait_queue *wq);
void prepare_to_wait(struct wait_queue *wq, struct wait_entry *w);
void finish_wait(struct wait_queue *wq, struct wait_entry *w);
void wake_up_all(struct wait_queue *wq);
void wake_up_one(struct wait_queue *wq);
/* With wq->lock already held. */
void wake_up_locked(struct wait_queue *wq);

#define wait_event(wq, cond)						\
	do {								\
		struct wait_entry __we = { .thread = NULL };		\
		might_sleep();						\
		for (;;) {						\
			prepare_to_wait(wq, &__we);			\
			if (cond)					\
				break;					\
			schedule();					\
		}							\
		finish_wait(wq, &__we);					\
	} while (0)

#endif
