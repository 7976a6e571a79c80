/*
 * The callback list's merge, white-box: when a CPU goes offline its
 * callbacks join another CPU's list (rcu_cblist_merge()), and each must
 * still wait for the grace period it was booked for. The hotplug torture
 * meets a merge whose segments disagree only by chance; here the lists
 * are built by hand, with the adopter's empty segments still tagged with
 * long-past grace periods, as a list that has run its callbacks is.
 *
 * The last test books a third grace period on a list that has two, which
 * the torture meets only when a call_rcu() falls between two grace
 * periods' starts.
 *
 * The lists are the test's own, touched by this thread alone, so the
 * rule that a CPU's list is touched with interrupts off does not apply.
 */
#include "kernel/rcu/cblist.h"
#include "kernel/test/ktest.h"

/* Grace periods as gp_seq values: an old one and two to come. */
#define GP_LONG_AGO	2ul
#define GP_FIRST	10ul
#define GP_SECOND	12ul
#define GP_THIRD	14ul

#define NR_HEADS	8

/* n callbacks from heads, given the grace period gp. */
static void queue_for(struct rcu_cblist *l, struct rcu_head *heads,
		      unsigned int n, unsigned long gp)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rcu_cblist_enqueue(l, &heads[i]);
	rcu_cblist_accelerate(l, gp);
}

/* The outgoing CPU's list: 3 callbacks for the first grace period, 2 for
 * the second, 1 not yet booked. */
static void outgoing_list(struct rcu_cblist *src, struct rcu_head *heads)
{
	rcu_cblist_init(src);
	queue_for(src, &heads[0], 3, GP_FIRST);
	queue_for(src, &heads[3], 2, GP_SECOND);
	rcu_cblist_enqueue(src, &heads[5]);
}

/* An adopter whose segments are empty but still carry the grace period
 * of callbacks it ran long ago. */
static void drained_list(struct rcu_cblist *dst)
{
	rcu_cblist_init(dst);
	dst->gp_seq[SEG_WAIT] = GP_LONG_AGO;
	dst->gp_seq[SEG_NEXT_READY] = GP_LONG_AGO;
}

KTEST(rcu, merge_keeps_each_segments_grace_period)
{
	struct rcu_head heads[NR_HEADS];
	struct rcu_cblist src, dst;

	outgoing_list(&src, heads);
	drained_list(&dst);
	rcu_cblist_merge(&dst, &src);
	KEXPECT_EQ(dst.len, 6ul);
	KEXPECT_EQ(src.len, 0ul);
	rcu_cblist_advance(&dst, GP_LONG_AGO);
	KEXPECT_EQ(dst.len_done, 0ul);
	rcu_cblist_advance(&dst, GP_FIRST);
	KEXPECT_EQ(dst.len_done, 3ul);
	rcu_cblist_advance(&dst, GP_SECOND);
	KEXPECT_EQ(dst.len_done, 5ul);
}

/* The adopter has callbacks of its own for the first grace period: the
 * outgoing CPU's for the second must not join them. */
KTEST(rcu, merge_into_a_busy_list_waits_for_the_later_gp)
{
	struct rcu_head heads[NR_HEADS];
	struct rcu_cblist src, dst;

	outgoing_list(&src, heads);
	drained_list(&dst);
	queue_for(&dst, &heads[6], 2, GP_FIRST);
	rcu_cblist_merge(&dst, &src);
	KEXPECT_EQ(dst.len, 8ul);
	rcu_cblist_advance(&dst, GP_FIRST);
	KEXPECT_EQ(dst.len_done, 5ul);
	rcu_cblist_advance(&dst, GP_SECOND);
	KEXPECT_EQ(dst.len_done, 7ul);
}

/* With two grace periods booked (WAIT and NEXT_READY), callbacks given a
 * third join NEXT_READY, whose booking must rise to the newer grace
 * period: they may not run when the second ends, since the third began
 * after they were queued. */
KTEST(rcu, accelerate_with_two_booked_raises_the_later_booking)
{
	struct rcu_head heads[NR_HEADS];
	struct rcu_cblist l;

	rcu_cblist_init(&l);
	queue_for(&l, &heads[0], 2, GP_FIRST);
	queue_for(&l, &heads[2], 2, GP_SECOND);
	queue_for(&l, &heads[4], 2, GP_THIRD);
	KEXPECT_EQ(l.gp_seq[SEG_NEXT_READY], GP_THIRD);
	rcu_cblist_advance(&l, GP_SECOND);
	KEXPECT_EQ(l.len_done, 2ul);
	rcu_cblist_advance(&l, GP_THIRD);
	KEXPECT_EQ(l.len_done, 6ul);
}
