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
#include "rculist_window.h"

/* List links are plain pointers, not __rcu ones, so they are published
 * with a release store of their own rather than rcu_assign_pointer().
 * The race window after it holds the helper between its publishing
 * store and the rest (lib/rculist_window.h). */
#define list_publish(p, v)						\
	do {								\
		smp_store_release(&(p), (v));				\
		rcu_list_window();					\
	} while (0)

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
	rcu_list_window();
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

/*
 * Splice `list` into another list after prev, for readers walking either:
 * a reader may be inside `list` as it is emptied. So `list` is made empty
 * first, sync() (synchronize_rcu(), say) waits until no reader can still
 * be walking its entries from its old head, and only then do those
 * entries join the other list, published by one release store of
 * prev->next.
 */
static inline void __list_splice_init_rcu(struct list_head *list,
					  struct list_head *prev,
					  struct list_head *next,
					  void (*sync)(void))
{
	struct list_head *first = list->next, *last = list->prev;

	WRITE_ONCE(list->next, list);
	list->prev = list;
	sync();
	last->next = next;
	list_publish(prev->next, first);
	first->prev = prev;
	next->prev = last;
}

/* Splice list's entries at the front of head; list is left empty. */
static inline void list_splice_init_rcu(struct list_head *list,
					struct list_head *head,
					void (*sync)(void))
{
	if (!list_empty(list))
		__list_splice_init_rcu(list, head, head->next, sync);
}

/* The same, at the tail of head. */
static inline void list_splice_tail_init_rcu(struct list_head *list,
					     struct list_head *head,
					     void (*sync)(void))
{
	if (!list_empty(list))
		__list_splice_init_rcu(list, head->prev, head, sync);
}

/*
 * Linux's iterators take an optional condition after the member: what
 * protects the walk when it is not inside a read-side section (usually
 * "I hold the update lock"). The kernel's debug build warns when neither
 * protects it; lib/ leaves the check to its user, rcu_list_check(), which
 * the kernel and the host tests each define.
 */
void rcu_list_check(bool cond, const char *file, int line);
/* The condition if one was given, else 0: rcu_list_cond_pick()'s third
 * argument is `(cond)` when there is a condition, the 0 when not. */
#define rcu_list_cond(...)						\
	rcu_list_cond_pick(_, ##__VA_ARGS__, (__VA_ARGS__), 0)
#define rcu_list_cond_pick(_, a, b, ...)	(b)

#define list_entry_rcu(ptr, type, member)				\
	container_of(READ_ONCE(ptr), type, member)

#define list_for_each_entry_rcu(pos, head, member, ...)			\
	for (rcu_list_check(rcu_list_cond(__VA_ARGS__), __FILE__, __LINE__), \
	     pos = list_entry_rcu((head)->next, __typeof__(*pos), member); \
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

/* Insert n before next, which is on a list. n is fully linked before
 * the release store that makes it reachable. */
static inline void hlist_add_before_rcu(struct hlist_node *n,
					struct hlist_node *next)
{
	n->pprev = next->pprev;
	n->next = next;
	list_publish(*n->pprev, n);
	next->pprev = &n->next;
}

/* Insert n after prev, which is on a list. */
static inline void hlist_add_behind_rcu(struct hlist_node *n,
					struct hlist_node *prev)
{
	n->next = prev->next;
	n->pprev = &prev->next;
	list_publish(prev->next, n);
	if (n->next)
		n->next->pprev = &n->next;
}

/* Readers see old or new, never neither; old keeps its next pointer for
 * a reader standing on it. */
static inline void hlist_replace_rcu(struct hlist_node *old,
				     struct hlist_node *new)
{
	struct hlist_node *next = old->next;

	new->next = next;
	new->pprev = old->pprev;
	list_publish(*new->pprev, new);
	if (next)
		next->pprev = &new->next;
	old->pprev = LIST_POISON2;
}

static inline void hlist_del_rcu(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	rcu_list_window();
	if (next)
		next->pprev = pprev;
	n->pprev = LIST_POISON2;
}

#define hlist_entry_safe_rcu(ptr, type, member)				\
	({								\
		__typeof__(ptr) ____p = READ_ONCE(ptr);			\
		____p ? hlist_entry(____p, type, member) : NULL;	\
	})

#define hlist_for_each_entry_rcu(pos, head, member, ...)		\
	for (rcu_list_check(rcu_list_cond(__VA_ARGS__), __FILE__, __LINE__), \
	     pos = hlist_entry_safe_rcu((head)->first, __typeof__(*(pos)), member); \
	     pos;							\
	     pos = hlist_entry_safe_rcu((pos)->member.next, __typeof__(*(pos)), member))

/* Go on from the entry after pos. */
#define hlist_for_each_entry_continue_rcu(pos, member)			\
	for (pos = hlist_entry_safe_rcu((pos)->member.next, __typeof__(*(pos)), member); \
	     pos;							\
	     pos = hlist_entry_safe_rcu((pos)->member.next, __typeof__(*(pos)), member))

/* Go on from pos itself. */
#define hlist_for_each_entry_from_rcu(pos, member)			\
	for (; pos;							\
	     pos = hlist_entry_safe_rcu((pos)->member.next, __typeof__(*(pos)), member))

#endif
