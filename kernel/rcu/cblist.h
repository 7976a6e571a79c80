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
#include "seq.h"

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

#endif
