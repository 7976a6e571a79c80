/*
 * A CPU's RCU callbacks: one singly linked list cut into four segments,
 * oldest first:
 *
 *	DONE        their grace period has ended: ready to invoke
 *	WAIT        waiting for the grace period gp_seq[WAIT]
 *	NEXT_READY  waiting for the later grace period gp_seq[NEXT_READY]
 *	NEXT        queued since the last look, not yet given a grace period
 *
 * tails[i] points at the `next` field of segment i's last callback (or at
 * the end of the previous segment when segment i is empty), so moving a
 * whole segment along is a pointer assignment, and one grace period
 * serves every callback queued before it began. Only the owning CPU
 * touches its list, with interrupts off (an SRCU domain's list: whoever
 * holds the domain's cb_lock).
 */
#ifndef KERNEL_RCU_CBLIST_H
#define KERNEL_RCU_CBLIST_H

#include "rcupdate.h"

enum rcu_segment { SEG_DONE, SEG_WAIT, SEG_NEXT_READY, SEG_NEXT, SEG_COUNT };

struct rcu_cblist {
	struct rcu_head *head;
	struct rcu_head **tails[SEG_COUNT];
	unsigned long gp_seq[SEG_COUNT];	/* for WAIT and NEXT_READY */
	unsigned long len;			/* callbacks in all segments */
	unsigned long len_done;
};

/* An empty list, for static definitions (rcu_cblist_init() at run time). */
#define RCU_CBLIST_INIT(name) {						\
	.head = NULL,							\
	.tails = { &(name).head, &(name).head, &(name).head, &(name).head } }

void rcu_cblist_init(struct rcu_cblist *l);
void rcu_cblist_enqueue(struct rcu_cblist *l, struct rcu_head *h);
bool rcu_cblist_segment_empty(const struct rcu_cblist *l, enum rcu_segment s);
/* Give NEXT the grace period `snap`; true if snap is newly needed. */
bool rcu_cblist_accelerate(struct rcu_cblist *l, unsigned long snap);
/* Move segments whose grace period is <= completed into DONE. */
void rcu_cblist_advance(struct rcu_cblist *l, unsigned long completed);
/* Detach up to `limit` DONE callbacks, in order; returns how many. */
unsigned long rcu_cblist_take_done(struct rcu_cblist *l, unsigned long limit,
				   struct rcu_head **out);
/* The grace period the oldest waiting segment needs, if any. */
bool rcu_cblist_oldest_wait(const struct rcu_cblist *l, unsigned long *gp);
/* Move every callback of src (an offline CPU's list) into dst, each
 * segment keeping its grace period or waiting for a later one, never an
 * earlier; src is left empty. */
void rcu_cblist_merge(struct rcu_cblist *dst, struct rcu_cblist *src);

/* Grace-period sequence numbers: the low bit is set while a grace period
 * is in progress, so gp n runs from 2n-1 to 2n. Wrap-safe comparison. */
static inline bool rcu_seq_done(unsigned long now, unsigned long target)
{
	return (long)(now - target) >= 0;
}

/* The number of the grace period running at `seq`, or of the last one
 * ended: grace period n runs from 2n-1 to 2n. For messages and traces. */
static inline unsigned long rcu_gp_number(unsigned long seq)
{
	return (seq + 1) >> 1;
}

/* The value of gp_seq at which a full grace period begun after `now`
 * will have ended: the next one if none is running, else the one after
 * the current. */
static inline unsigned long rcu_seq_snap(unsigned long now)
{
	return (now + 3) & ~1ul;
}

#endif
