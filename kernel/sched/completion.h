/* Completions: one thread waits until another says "done". */
#ifndef KERNEL_COMPLETION_H
#define KERNEL_COMPLETION_H

#include "waitqueue.h"

struct completion {
	unsigned int done;	/* completions not yet consumed */
	struct wait_queue wq;
};

static inline void init_completion(struct completion *c)
{
	c->done = 0;
	wait_queue_init(&c->wq);
}

/* Count one completion and wake a waiter. */
static inline void complete(struct completion *c)
{
	unsigned long flags = spin_lock_irqsave(&c->wq.lock);

	c->done++;
	wake_up_locked(&c->wq);
	spin_unlock_irqrestore(&c->wq.lock, flags);
}

/* Wake every waiter now and from now on. */
static inline void complete_all(struct completion *c)
{
	unsigned long flags = spin_lock_irqsave(&c->wq.lock);

	c->done = ~0u / 2;
	wake_up_locked(&c->wq);
	spin_unlock_irqrestore(&c->wq.lock, flags);
}

/* Take one completion, sleeping until there is one. */
static inline bool try_consume(struct completion *c)
{
	unsigned long flags = spin_lock_irqsave(&c->wq.lock);
	bool got = c->done > 0;

	if (got)
		c->done--;
	spin_unlock_irqrestore(&c->wq.lock, flags);
	return got;
}

static inline void wait_for_completion(struct completion *c)
{
	wchan_begin(&current_thread()->wchan, WCHAN_COMPLETION, c, _THIS_IP_,
		    0);
	wait_event(&c->wq, try_consume(c));
}

#endif
