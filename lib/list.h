/*
 * Intrusive doubly linked lists, as in Linux's <linux/list.h>: a list_head
 * embedded in each element, linked into a circle through a head that has
 * no element around it. hlist is the one-pointer-head variant for hash
 * tables. Callers do their own locking. The stores that publish a node
 * (the ->next pointers readers follow) use WRITE_ONCE so that the RCU
 * variants added later can share these lists with lockless readers.
 */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include "compiler.h"

/* Written into a deleted entry so that using it afterwards faults. */
#define LIST_POISON1	((void *)0x100)
#define LIST_POISON2	((void *)0x122)

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)	struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	list->prev = list;
}

static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	WRITE_ONCE(prev->next, new);
}

/* Insert new right after head: a stack. */
static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

/* Insert new right before head, at the end of the list: a queue. */
static inline void list_add_tail(struct list_head *new,
				 struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

static inline void __list_del_entry(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
}

static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

/* Unlink entry and leave it an empty list, so it may be deleted again. */
static inline void list_del_init(struct list_head *entry)
{
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

static inline void list_move(struct list_head *entry, struct list_head *head)
{
	__list_del_entry(entry);
	list_add(entry, head);
}

static inline void list_move_tail(struct list_head *entry,
				  struct list_head *head)
{
	__list_del_entry(entry);
	list_add_tail(entry, head);
}

static inline bool list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

static inline bool list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

/* Move every entry of list to the front of head, leaving list empty. */
static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	struct list_head *first, *last, *at;

	if (list_empty(list))
		return;
	first = list->next;
	last = list->prev;
	at = head->next;
	first->prev = head;
	last->next = at;
	at->prev = last;
	WRITE_ONCE(head->next, first);
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)

/* The list must not be empty. */
#define list_first_entry(head, type, member)				\
	list_entry((head)->next, type, member)

#define list_next_entry(pos, member)					\
	list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_for_each(pos, head)					\
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#define list_for_each_entry(pos, head, member)				\
	for ((pos) = list_first_entry(head, __typeof__(*(pos)), member); \
	     &(pos)->member != (head);					\
	     (pos) = list_next_entry(pos, member))

/* As list_for_each_entry, but pos may be deleted inside the loop. */
#define list_for_each_entry_safe(pos, n, head, member)			\
	for ((pos) = list_first_entry(head, __typeof__(*(pos)), member), \
	     (n) = list_next_entry(pos, member);			\
	     &(pos)->member != (head);					\
	     (pos) = (n), (n) = list_next_entry(n, member))

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next;
	struct hlist_node **pprev;	/* the pointer that points at us */
};

#define HLIST_HEAD_INIT		{ .first = NULL }
#define HLIST_HEAD(name)	struct hlist_head name = HLIST_HEAD_INIT

static inline void INIT_HLIST_HEAD(struct hlist_head *h)
{
	h->first = NULL;
}

static inline void INIT_HLIST_NODE(struct hlist_node *n)
{
	n->next = NULL;
	n->pprev = NULL;
}

/* True for a node that is on no list (initialised or hlist_del_init'ed). */
static inline bool hlist_unhashed(const struct hlist_node *n)
{
	return !n->pprev;
}

static inline bool hlist_empty(const struct hlist_head *h)
{
	return !READ_ONCE(h->first);
}

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	WRITE_ONCE(n->next, first);
	if (first)
		first->pprev = &n->next;
	n->pprev = &h->first;
	WRITE_ONCE(h->first, n);
}

static inline void __hlist_del(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (next)
		next->pprev = pprev;
}

static inline void hlist_del(struct hlist_node *n)
{
	__hlist_del(n);
	n->next = LIST_POISON1;
	n->pprev = LIST_POISON2;
}

/* Unlink n if it is on a list, and mark it unhashed either way. */
static inline void hlist_del_init(struct hlist_node *n)
{
	if (hlist_unhashed(n))
		return;
	__hlist_del(n);
	INIT_HLIST_NODE(n);
}

#define hlist_entry(ptr, type, member)	container_of(ptr, type, member)

/* NULL-safe hlist_entry, for the loops below. */
#define hlist_entry_safe(ptr, type, member)				\
	({								\
		__typeof__(ptr) __he_ptr = (ptr);			\
		__he_ptr ? hlist_entry(__he_ptr, type, member) : NULL;	\
	})

#define hlist_for_each_entry(pos, head, member)				\
	for ((pos) = hlist_entry_safe((head)->first,			\
				      __typeof__(*(pos)), member);	\
	     (pos);							\
	     (pos) = hlist_entry_safe((pos)->member.next,		\
				      __typeof__(*(pos)), member))

/* As hlist_for_each_entry, but pos may be deleted inside the loop; n is a
 * struct hlist_node * holding the next node. */
#define hlist_for_each_entry_safe(pos, n, head, member)			\
	for ((pos) = hlist_entry_safe((head)->first,			\
				      __typeof__(*(pos)), member);	\
	     (pos) && ((n) = (pos)->member.next, 1);			\
	     (pos) = hlist_entry_safe(n, __typeof__(*(pos)), member))

#endif
