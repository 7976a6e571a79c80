/*
 * RCU variants of lib/list.h. Writers (serialized by their own lock) use
 * the _rcu add/del/replace; readers walk with the _rcu iterators inside a
 * read-side section and may run concurrently with writers. An entry
 * removed with list_del_rcu()/hlist_del_rcu() keeps its forward pointer,
 * so a reader standing on it can walk on; it may be freed only after a
 * grace period (call_rcu, synchronize_rcu).
 */
#ifndef LIB_RCULIST_H
#define LIB_RCULIST_H

#include "list.h"
#include "compiler.h"
#include "atomic.h"

/* List links are plain pointers, not __rcu ones, so they are published
 * with a release store of their own rather than rcu_assign_pointer(). */
#define list_publish(p, v)	smp_store_release(&(p), (v))

/* The new entry is fully linked before the release store that makes it
 * reachable; pairs with the READ_ONCE() loads in the iterators. */
static inline void __list_add_rcu(struct list_head *new,
				  struct list_head *prev,
				  struct list_head *next)
{
	new->next = next;
	new->prev = prev;
	list_publish(prev->next, new);
	next->prev = new;
}

static inline void list_add_rcu(struct list_head *new, struct list_head *head)
{
	__list_add_rcu(new, head, head->next);
}

static inline void list_add_tail_rcu(struct list_head *new,
				     struct list_head *head)
{
	__list_add_rcu(new, head->prev, head);
}

/* Unlink, but leave entry->next intact for readers standing on it; only
 * prev is poisoned, which readers never follow. */
static inline void list_del_rcu(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;

	next->prev = prev;
	WRITE_ONCE(prev->next, next);
	entry->prev = LIST_POISON2;
}

/* Readers see either old or new, never neither. */
static inline void list_replace_rcu(struct list_head *old,
				    struct list_head *new)
{
	new->next = old->next;
	new->prev = old->prev;
	list_publish(new->prev->next, new);
	new->next->prev = new;
	old->prev = LIST_POISON2;
}

#define list_entry_rcu(ptr, type, member)				\
	container_of(READ_ONCE(ptr), type, member)

#define list_for_each_entry_rcu(pos, head, member)			\
	for (pos = list_entry_rcu((head)->next, __typeof__(*pos), member); \
	     &pos->member != (head);					\
	     pos = list_entry_rcu(pos->member.next, __typeof__(*pos), member))

static inline void hlist_add_head_rcu(struct hlist_node *n,
				      struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	n->pprev = &h->first;
	list_publish(h->first, n);
	if (first)
		first->pprev = &n->next;
}

static inline void hlist_del_rcu(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (next)
		next->pprev = pprev;
	n->pprev = LIST_POISON2;
}

#define hlist_entry_safe_rcu(ptr, type, member)				\
	({								\
		__typeof__(ptr) ____p = READ_ONCE(ptr);			\
		____p ? hlist_entry(____p, type, member) : NULL;	\
	})

#define hlist_for_each_entry_rcu(pos, head, member)			\
	for (pos = hlist_entry_safe_rcu((head)->first, __typeof__(*(pos)), member); \
	     pos;							\
	     pos = hlist_entry_safe_rcu((pos)->member.next, __typeof__(*(pos)), member))

#endif
