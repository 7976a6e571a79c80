/*
 * The rculist suite's hash lists: every hlist and hlist_nulls helper
 * used by a writer while readers walk with each _rcu iterator
 * (test_rculist.h says what they check). The hlist_nulls writer also
 * moves elements between two chains with no grace period between, as
 * Linux's SLAB_TYPESAFE_BY_RCU users do: a reader carried to the other
 * chain ends on that chain's marker and walks again.
 */
#include "test_rculist.h"
#include "lib/atomic.h"

#define HLIST_OPS		3000u
#define HLIST_MIN_OVERLAP	300u
/* A nulls walk carried off its chain tries again, this many times. */
#define NULLS_TRIES		4u

static HLIST_HEAD(rl_hhead);
static struct hlist_nulls_head rl_nh[2] = {
	{ .first = (struct hlist_nulls_node *)NULLS_MARKER(0) },
	{ .first = (struct hlist_nulls_node *)NULLS_MARKER(1) },
};

/* Each walk uses one of the three iterators in turn: the whole chain;
 * its first few entries, then the rest with _continue; the whole chain
 * again with _from, starting at the first entry. */
static void hlist_walk(struct rl_reader *r)
{
	unsigned int skip = prng_below(&r->rng, 4);
	struct rl_item *it;

	switch (r->walk_nr % 3) {
	case 0:
		hlist_for_each_entry_rcu(it, &rl_hhead, hnode)
			if (!rl_reached(r, it))
				return;
		return;
	case 1:
		hlist_for_each_entry_rcu(it, &rl_hhead, hnode) {
			if (!rl_reached(r, it))
				return;
			if (skip-- == 0)
				break;
		}
		if (!it)
			return;
		hlist_for_each_entry_continue_rcu(it, hnode)
			if (!rl_reached(r, it))
				return;
		return;
	default:
		it = hlist_entry_safe_rcu(rl_hhead.first, struct rl_item, hnode);
		hlist_for_each_entry_from_rcu(it, hnode)
			if (!rl_reached(r, it))
				return;
	}
}

KTEST_TIMEOUT(rculist, hlist_helpers_under_readers, 120000)
{
	struct rl_run run = { .walk = hlist_walk };
	struct rl_item *on[RL_MAX], *it;
	unsigned int n = 0, k, op;
	struct prng rng;

	prng_seed(&rng, 6);
	rl_start(t, &run);
	do {
		op = prng_below(&rng, 5);
		if (n < 2)
			op = prng_below(&rng, 3);	/* an addition */
		else if (n == RL_MAX)
			op = 4;				/* a deletion */
		k = n ? prng_below(&rng, n) : 0;
		if (op == 4) {
			hlist_del_rcu(&on[k]->hnode);
			rl_item_retire(on[k]);
			on[k] = on[--n];
			continue;
		}
		it = rl_item_new();
		if (!it) {
			KTEST_FAIL("out of memory");
			break;
		}
		if (op == 3) {
			hlist_replace_rcu(&on[k]->hnode, &it->hnode);
			rl_item_retire(on[k]);
			on[k] = it;
			continue;
		}
		if (op == 0 || !n)
			hlist_add_head_rcu(&it->hnode, &rl_hhead);
		else if (op == 1)
			hlist_add_before_rcu(&it->hnode, &on[k]->hnode);
		else
			hlist_add_behind_rcu(&it->hnode, &on[k]->hnode);
		on[n++] = it;
	} while (rl_writer_goes_on(&run, HLIST_OPS, HLIST_MIN_OVERLAP));
	rl_stop(t, &run, "hlist");
	while (n) {
		hlist_del_rcu(&on[--n]->hnode);
		rl_item_retire(on[n]);
	}
	KEXPECT_TRUE(hlist_empty(&rl_hhead));
	rcu_barrier();
}

/* Walk chain walk_nr & 1; a walk that ends on the other chain's marker
 * was carried off by a move, and starts again. */
static void nulls_walk(struct rl_reader *r)
{
	unsigned long c = r->walk_nr & 1;
	struct hlist_nulls_node *pos;
	struct rl_item *it;
	unsigned int tries;

	for (tries = 0; tries < NULLS_TRIES; tries++) {
		if (hlist_nulls_empty(&rl_nh[c]))
			return;
		hlist_nulls_for_each_entry_rcu(it, pos, &rl_nh[c], nnode)
			if (!rl_reached(r, it))
				return;
		if (get_nulls_value(pos) == c)
			return;
		atomic_add_relaxed(&r->run->restarts, 1);
	}
}

KTEST_TIMEOUT(rculist, hlist_nulls_helpers_under_readers, 120000)
{
	struct rl_run run = { .walk = nulls_walk };
	struct rl_item *on[RL_MAX], *it;
	unsigned int n = 0, k, op;
	struct prng rng;

	prng_seed(&rng, 7);
	rl_start(t, &run);
	do {
		op = prng_below(&rng, 3);
		if (n < 2)
			op = 0;				/* an addition */
		else if (n == RL_MAX)
			op = 1;				/* a deletion */
		k = n ? prng_below(&rng, n) : 0;
		if (op == 1) {
			hlist_nulls_del_rcu(&on[k]->nnode);
			rl_item_retire(on[k]);
			on[k] = on[--n];
		} else if (op == 2) {
			/* Moved at once, no grace period: readers on it
			 * follow it to the other chain. */
			hlist_nulls_del_init_rcu(&on[k]->nnode);
			on[k]->chain ^= 1;
			hlist_nulls_add_head_rcu(&on[k]->nnode,
						 &rl_nh[on[k]->chain]);
		} else {
			it = rl_item_new();
			if (!it) {
				KTEST_FAIL("out of memory");
				break;
			}
			it->chain = prng_below(&rng, 2);
			hlist_nulls_add_head_rcu(&it->nnode, &rl_nh[it->chain]);
			on[n++] = it;
		}
	} while (rl_writer_goes_on(&run, HLIST_OPS, HLIST_MIN_OVERLAP));
	rl_stop(t, &run, "hlist_nulls");
	while (n) {
		hlist_nulls_del_rcu(&on[--n]->nnode);
		rl_item_retire(on[n]);
	}
	KEXPECT_TRUE(hlist_nulls_empty(&rl_nh[0]) && hlist_nulls_empty(&rl_nh[1]));
	rcu_barrier();
}
