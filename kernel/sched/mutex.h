/*
 * Sleeping mutexes: a waiter sleeps instead of spinning, so a mutex may
 * be held across sleeps (unlike a spinlock, and unlike rcu_read_lock).
 * Ownership is handed directly to the first waiter on unlock, which keeps
 * the mutex fair: no newcomer can barge ahead of a woken waiter.
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include "waitqueue.h"

struct mutex {
	struct thread *owner;	/* under wq.lock */
	struct wait_queue wq;
};

#define MUTEX_INIT(name) { NULL, WAIT_QUEUE_INIT((name).wq) }
#define DEFINE_MUTEX(name) struct mutex name = MUTEX_INIT(name)

void mutex_init(struct mutex *m);
void mutex_lock(struct mutex *m);
bool mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);
bool mutex_is_locked(struct mutex *m);

#endif
