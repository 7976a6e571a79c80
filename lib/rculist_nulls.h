/*
 * hlist_nulls: hash chains that end not in NULL but in a "nulls" marker,
 * an odd value carrying the chain's number, with Linux's names and RCU
 * operations. A lock-free reader whose entry moved to another chain
 * under it (objects reused without a grace period, as with Linux's
 * SLAB_TYPESAFE_BY_RCU) reaches the other chain's end marker, sees a
 * number that is not its own, and starts the walk again.
 */
#ifndef LIB_RCULIST_NULLS_H
#define LIB_RCULIST_NULLS_H

#include "atomic.h"
#include "compiler.h"
#include "list.h"
#include "rculist_window.h"
#include "types.h"

struct hlist_nulls_node {
	struct hlist_nulls_node *next, **pprev;
};

struct hlist_nulls_head {
	struct hlist_nulls_node *first;
};

/* The end marker of chain `value`: odd, so no node address. */
#define NULLS_MARKER(value)	(1ul | (((unsigned long)(value)) << 1))
#define INIT_HLIST_NULLS_HEAD(ptr, nulls)				\
	((ptr)->first = (struct hlist_nulls_node *)NULLS_MARKER(nulls))

static inline bool is_a_nulls(const struct hlist_nulls_node *ptr)
{
	return (unsigned long)ptr & 1;
}

static inline unsigned long get_nulls_value(const struct hlist_nulls_node *ptr)
{
	return (unsigned long)ptr >> 1;
}

static inline bool hlist_nulls_unhashed(const struct hlist_nulls_node *n)
{
	return !n->pprev;
}

static inline bool hlist_nulls_empty(const struct hlist_nulls_head *h)
{
	return is_a_nulls(READ_ONCE(h->first));
}

#define hlist_nulls_entry(ptr, type, member)	container_of(ptr, type, member)

/* The new node is fully linked before the release store that makes it
 * reachable; pairs with READ_ONCE() in the iterator. */
static inline void hlist_nulls_add_head_rcu(struct hlist_nulls_node *n,
					    struct hlist_nulls_head *h)
{
	struct hlist_nulls_node *first = h->first;

	n->next = first;
	n->pprev = &h->first;
	smp_store_release(&h->first, n);
	/* Between publishing n and the rest: lib/rculist_window.h. */
	rcu_list_window();
	if (!is_a_nulls(first))
		first->pprev = &n->next;
}

/* Unlink, keeping n->next for a reader standing on n. */
static inline void hlist_nulls_del_rcu(struct hlist_nulls_node *n)
{
	struct hlist_nulls_node *next = n->next;

	WRITE_ONCE(*n->pprev, next);
	rcu_list_window();
	if (!is_a_nulls(next))
		next->pprev = n->pprev;
	n->pprev = LIST_POISON2;
}

/* The same, leaving n unhashed (so it may be added again at once). */
static inline void hlist_nulls_del_init_rcu(struct hlist_nulls_node *n)
{
	if (hlist_nulls_unhashed(n))
		return;
	hlist_nulls_del_rcu(n);
	n->pprev = NULL;
}

/*
 * Walk a chain inside a read-side section. tpos is the entry, pos the
 * node; when the loop ends, pos is the marker that ended it: compare
 * get_nulls_value(pos) with the chain's number to know the walk stayed
 * on its chain.
 */
#define hlist_nulls_for_each_entry_rcu(tpos, pos, head, member)		\
	for (pos = READ_ONCE((head)->first);				\
	     !is_a_nulls(pos) &&					\
	     ((tpos) = hlist_nulls_entry(pos, __typeof__(*(tpos)), member), 1); \
	     pos = READ_ONCE(pos->next))

#endif
