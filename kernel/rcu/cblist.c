#include "cblist.h"

void rcu_cblist_init(struct rcu_cblist *l)
{
	int i;

	l->head = NULL;
	for (i = 0; i < SEG_COUNT; i++) {
		l->tails[i] = &l->head;
		l->gp_seq[i] = 0;
	}
	l->len = 0;
	l->len_done = 0;
}

bool rcu_cblist_segment_empty(const struct rcu_cblist *l, enum rcu_segment s)
{
	struct rcu_head *const *start = s == SEG_DONE ? &l->head
						       : l->tails[s - 1];

	return l->tails[s] == start;
}

void rcu_cblist_enqueue(struct rcu_cblist *l, struct rcu_head *h)
{
	h->next = NULL;
	*l->tails[SEG_NEXT] = h;
	l->tails[SEG_NEXT] = &h->next;
	l->len++;
}

/* Count callbacks between two tail pointers (for len_done). */
static unsigned long count_between(struct rcu_head **from,
				   struct rcu_head **to)
{
	unsigned long n = 0;

	while (from != to) {
		n++;
		from = &(*from)->next;
	}
	return n;
}

bool rcu_cblist_accelerate(struct rcu_cblist *l, unsigned long snap)
{
	if (rcu_cblist_segment_empty(l, SEG_NEXT))
		return false;
	if (!rcu_cblist_segment_empty(l, SEG_NEXT_READY)) {
		/* Two grace periods are already booked; a third would need
		 * a third segment. Waiting for the later one is safe. */
		l->tails[SEG_NEXT_READY] = l->tails[SEG_NEXT];
		if (rcu_seq_done(l->gp_seq[SEG_NEXT_READY], snap))
			return false;
		l->gp_seq[SEG_NEXT_READY] = snap;
		return true;
	}
	if (!rcu_cblist_segment_empty(l, SEG_WAIT)) {
		if (l->gp_seq[SEG_WAIT] == snap) {
			l->tails[SEG_WAIT] = l->tails[SEG_NEXT];
			l->tails[SEG_NEXT_READY] = l->tails[SEG_NEXT];
			return false;
		}
		l->tails[SEG_NEXT_READY] = l->tails[SEG_NEXT];
		l->gp_seq[SEG_NEXT_READY] = snap;
		return true;
	}
	l->tails[SEG_WAIT] = l->tails[SEG_NEXT];
	l->tails[SEG_NEXT_READY] = l->tails[SEG_NEXT];
	l->gp_seq[SEG_WAIT] = snap;
	return true;
}

void rcu_cblist_advance(struct rcu_cblist *l, unsigned long completed)
{
	struct rcu_head **old_done = l->tails[SEG_DONE];

	for (;;) {
		if (rcu_cblist_segment_empty(l, SEG_WAIT) &&
		    !rcu_cblist_segment_empty(l, SEG_NEXT_READY)) {
			/* Slide NEXT_READY into the empty WAIT. */
			l->tails[SEG_WAIT] = l->tails[SEG_NEXT_READY];
			l->gp_seq[SEG_WAIT] = l->gp_seq[SEG_NEXT_READY];
		}
		if (rcu_cblist_segment_empty(l, SEG_WAIT) ||
		    !rcu_seq_done(completed, l->gp_seq[SEG_WAIT]))
			break;
		/* WAIT's grace period is over: it joins DONE, and the
		 * (now empty) WAIT ends where DONE ends. */
		l->tails[SEG_DONE] = l->tails[SEG_WAIT];
		if (l->tails[SEG_NEXT_READY] == l->tails[SEG_WAIT])
			continue;
		l->tails[SEG_WAIT] = l->tails[SEG_DONE];
	}
	l->len_done += count_between(old_done, l->tails[SEG_DONE]);
}

unsigned long rcu_cblist_take_done(struct rcu_cblist *l, unsigned long limit,
				   struct rcu_head **out)
{
	struct rcu_head *first = l->head, *h = first;
	struct rcu_head **end = &l->head;
	unsigned long n = 0;
	int i;

	while (n < limit && end != l->tails[SEG_DONE]) {
		h = *end;
		end = &h->next;
		n++;
	}
	if (!n) {
		*out = NULL;
		return 0;
	}
	/* Detach first..h; every tail that pointed at h->next now points
	 * at the head. */
	l->head = h->next;
	h->next = NULL;
	for (i = 0; i < SEG_COUNT; i++)
		if (l->tails[i] == end)
			l->tails[i] = &l->head;
	l->len -= n;
	l->len_done -= n;
	*out = first;
	return n;
}

bool rcu_cblist_oldest_wait(const struct rcu_cblist *l, unsigned long *gp)
{
	if (!rcu_cblist_segment_empty(l, SEG_WAIT)) {
		*gp = l->gp_seq[SEG_WAIT];
		return true;
	}
	if (!rcu_cblist_segment_empty(l, SEG_NEXT_READY)) {
		*gp = l->gp_seq[SEG_NEXT_READY];
		return true;
	}
	return false;
}

/* Put the chain first..*last_next (n callbacks) at the end of segment
 * seg: it then ends at last_next, and so does every later segment that
 * was empty (ended where seg did). */
static void insert_at_end_of(struct rcu_cblist *l, enum rcu_segment seg,
			     struct rcu_head *first, struct rcu_head **last_next,
			     unsigned long n)
{
	struct rcu_head **old = l->tails[seg];
	int s;

	*last_next = *old;
	*old = first;
	for (s = seg; s < SEG_COUNT; s++)
		if (l->tails[s] == old)
			l->tails[s] = last_next;
	l->len += n;
}

/* The segment of dst whose grace period serves callbacks that need gp:
 * the first tagged one that waits for gp or later, or, if none does, a
 * free tagged one after the last in use (taking gp), or else NEXT_READY,
 * raised to gp (its callbacks then wait longer, never less). */
static enum rcu_segment segment_for(struct rcu_cblist *l, unsigned long gp)
{
	enum rcu_segment s;

	for (s = SEG_WAIT; s <= SEG_NEXT_READY; s++) {
		if (rcu_cblist_segment_empty(l, s)) {
			if (s == SEG_NEXT_READY ||
			    rcu_cblist_segment_empty(l, SEG_NEXT_READY)) {
				l->gp_seq[s] = gp;
				return s;
			}
			continue;
		}
		if (rcu_seq_done(l->gp_seq[s], gp))
			return s;
	}
	l->gp_seq[SEG_NEXT_READY] = gp;
	return SEG_NEXT_READY;
}

void rcu_cblist_merge(struct rcu_cblist *dst, struct rcu_cblist *src)
{
	struct rcu_head *first[SEG_COUNT];
	unsigned long n[SEG_COUNT];
	struct rcu_head **start = &src->head;
	enum rcu_segment s, to;

	/* Cut src into its segments first: inserting a chain rewrites its
	 * last `next`, which is where the following segment began. */
	for (s = SEG_DONE; s < SEG_COUNT; s++) {
		n[s] = count_between(start, src->tails[s]);
		first[s] = n[s] ? *start : NULL;
		start = src->tails[s];
	}
	for (s = SEG_DONE; s < SEG_COUNT; s++) {
		if (!n[s])
			continue;
		to = s;
		if (s == SEG_WAIT || s == SEG_NEXT_READY)
			to = segment_for(dst, src->gp_seq[s]);
		insert_at_end_of(dst, to, first[s], src->tails[s], n[s]);
		if (to == SEG_DONE)
			dst->len_done += n[s];
	}
	rcu_cblist_init(src);
}
