/*
 * rcutorture, after Linux's kernel/rcu/rcutorture.c. It tortures RCU, or
 * with torture.type=srcu an SRCU domain, whose thread readers then also
 * sleep inside their sections (ops.c: what each flavour calls).
 *
 * A writer keeps replacing the global pointer torture.current with a
 * fresh element from a pool and retires the old one, through a
 * grace-period flavour picked at random among those enabled: sync
 * (synchronize_kernel), exp (synchronize_rcu_expedited), poll (a cookie,
 * then cond_synchronize_rcu) and barrier (rcu_barrier) wait in the writer;
 * async retires with call_rcu(). Each retired element counts the grace
 * periods that have ended since (its pipe count, 0 when retired); after
 * TORTURE_PIPE_LEN it is poisoned and goes back to the pool.
 *
 * Readers take read-side sections of random length, nested or not,
 * sometimes with interrupts off, in threads on every CPU and in interrupt
 * handlers (timer callbacks and IPIs, idle CPUs included). At the end of
 * each section a reader records the pipe count of the element it holds
 * and the grace periods that ended during the section (batch). A reader
 * got its element while it was current, so no grace period begun after
 * the element's retirement may end under it: a pipe count of 1 or more
 * fails the test (Linux's writer bumps the count once at retirement, so
 * there 2 is the first failing count). A batch of 2 or more means a whole
 * grace period ran inside the section, a poisoned element that one was
 * freed under it, and a polled cookie taken inside the section that reads
 * as complete before its end that the polled API lied: each fails too.
 *
 * The exact oracle (oracle.c) checks more: every callback, every return
 * of a synchronous wait and every polled cookie that reads as complete,
 * of the writer and of the fake writers, against every read-side section
 * then running on any CPU.
 *
 * Fake writers wait for grace periods of every flavour at once on several
 * CPUs; CPU hogs keep CPUs busy. Every few seconds the run pauses: either
 * every thread but the hogs stops, so that the hogs of CPUs 1 and up run
 * alone while CPU 0's hog asks for grace periods, which then end only
 * through RCU's nudges, or everything but the writer and the interrupt
 * readers stops so that CPUs go idle and come back while the writer asks
 * for normal and expedited grace periods. Status lines follow Linux's shape;
 * a writer whose version does not advance between two of them is a
 * stall, and fails the run.
 */
#include "rcutorture.h"
#include "internal.h"
#include "kernel/cmdline.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/race.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/stats.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/format.h"
#include "lib/string.h"

struct torture_config torture_cmdline = {
	.type = "rcu", .secs = 20, .fakewriters = 4, .stat_interval = 5,
	.seed = 1,
	.gp = "sync,exp,poll,async,barrier", .forward_progress = true,
	/* Only the preemptible flavour's readers can be preempted: on by
	 * default there, as Linux runs its boost test wherever boosting is
	 * built in. */
	.preempt_one_in = CONFIG_PREEMPT_RCU ? 32 : 0,
	.test_boost = CONFIG_PREEMPT_RCU,
};
CMDLINE_STRING("torture.type", torture_cmdline.type,
	       "rcutorture: the flavour to torture, rcu or srcu");
CMDLINE_UINT("torture.secs", torture_cmdline.secs, 1, 86400,
	     "rcutorture: how long to run, in seconds");
CMDLINE_UINT("torture.readers", torture_cmdline.readers, 0, 256,
	     "rcutorture: reader threads, 0 = one per CPU");
CMDLINE_UINT("torture.fakewriters", torture_cmdline.fakewriters, 0, 64,
	     "rcutorture: threads that only wait for grace periods");
CMDLINE_UINT("torture.stat_interval", torture_cmdline.stat_interval, 1, 3600,
	     "rcutorture: seconds between status lines");
CMDLINE_UINT("torture.seed", torture_cmdline.seed, 0, ~0ull,
	     "rcutorture: random seed");
CMDLINE_STRING("torture.gp", torture_cmdline.gp,
	       "rcutorture: grace-period flavours, from sync,exp,poll,async,barrier");
CMDLINE_BOOL("torture.fwd", torture_cmdline.forward_progress,
	     "rcutorture: end with a call_rcu() flood (forward progress)");
CMDLINE_UINT("torture.preempt", torture_cmdline.preempt_one_in, 0, 1000000,
	     "rcutorture: preempt 1 in N thread readers inside their "
	     "sections, 0 = never (preemptible RCU)");

struct torture_state torture;

static struct torture_elem *pool_get(void)
{
	unsigned long flags = spin_lock_irqsave(&torture.pool_lock);
	struct torture_elem *e = NULL;

	if (!list_empty(&torture.pool)) {
		e = list_first_entry(&torture.pool, struct torture_elem, link);
		list_del(&e->link);
	}
	spin_unlock_irqrestore(&torture.pool_lock, flags);
	return e;
}

/* Poison, and back to the tail of the pool: the oldest free element is
 * reused first, so a reader holding a stale one sees the poison. */
static void pool_put(struct torture_elem *e)
{
	unsigned long flags;

	WRITE_ONCE(e->mbtest, 0);
	flags = spin_lock_irqsave(&torture.pool_lock);
	list_add_tail(&e->link, &torture.pool);
	spin_unlock_irqrestore(&torture.pool_lock, flags);
}

/* One more grace period has ended for e; free it at the end of the pipe. */
static bool pipe_advance(struct torture_elem *e)
{
	unsigned int n = READ_ONCE(e->pipe_count);

	if (n < TORTURE_PIPE_LEN) {
		WRITE_ONCE(e->pipe_count, n + 1);
		atomic_add_relaxed(&torture.free_circulation[n + 1], 1);
	}
	if (n + 1 < TORTURE_PIPE_LEN)
		return false;
	atomic_add_relaxed(&torture.frees, 1);
	pool_put(e);
	return true;
}

/* The callback of an element retired with call_rcu(): one grace period
 * more, checked by the oracle; on to the next, or back to the pool. */
static void async_retire(struct rcu_head *head)
{
	struct torture_elem *e = container_of(head, struct torture_elem, rcu);

	atomic_add_relaxed(&torture.cbs_invoked, 1);
	oracle_check(e->stamp, torture.ops->gp_names[TGP_ASYNC]);
	if (!pipe_advance(e)) {
		e->stamp = oracle_stamp();
		torture.ops->call(&e->rcu, async_retire);
	}
}

/* For the synchronous flavours: every element the writer holds in its
 * pipe has seen one more grace period. */
static void sync_pipe_advance(void)
{
	struct torture_elem *e, *next;

	list_for_each_entry_safe(e, next, &torture.writer_pipe, link) {
		list_del(&e->link);
		if (!pipe_advance(e))
			list_add_tail(&e->link, &torture.writer_pipe);
	}
}

/* A polled wait: a cookie, then cond_synchronize_rcu(); or a cookie from
 * start_poll_synchronize_rcu(), which asks for its grace period, and
 * polling until poll_state_synchronize_rcu() says it is over. (A cookie
 * of get_state_synchronize_rcu() polled alone could wait for ever: it
 * asks for nothing, and every other writer may be polling too.) */
static void poll_wait(struct prng *rng)
{
	const struct torture_ops *ops = torture.ops;
	unsigned long cookie;

	if (prng_below(rng, 2)) {
		cookie = ops->get_state();
		sleep_ms(prng_below(rng, 2));
		ops->cond_sync(cookie);
		return;
	}
	cookie = ops->start_poll();
	while (!ops->poll_state(cookie))
		sleep_ms(1);
}

void torture_wait_gp(enum torture_gp gp, struct prng *rng)
{
	unsigned long stamp = oracle_stamp();

	switch (gp) {
	case TGP_EXP:
		torture.ops->exp_sync();
		break;
	case TGP_POLL:
		poll_wait(rng);
		break;
	case TGP_BARRIER:
		/* rcu_barrier() and srcu_barrier() queue a callback and wait
		 * for it: a full grace period since the call. */
		torture.ops->cb_barrier();
		break;
	default:
		torture.ops->sync();
		break;
	}
	oracle_check(stamp, torture.ops->gp_names[gp]);
}

static void writer_retire(struct torture_elem *old, enum torture_gp gp,
			  struct prng *rng)
{
	if (gp == TGP_ASYNC) {
		old->stamp = oracle_stamp();
		torture.ops->call(&old->rcu, async_retire);
		return;
	}
	list_add_tail(&old->link, &torture.writer_pipe);
	torture_wait_gp(gp, rng);
	sync_pipe_advance();
}

/* During an idle pause the writer asks only for normal and expedited
 * grace periods, as Linux's stutter does, while the CPUs idle. */
static enum torture_gp writer_pick_gp(struct prng *rng)
{
	if (READ_ONCE(torture.stutter) == STUTTER_IDLE)
		return prng_below(rng, 2) ? TGP_SYNC : TGP_EXP;
	return torture_pick_gp(rng);
}

static void writer_fn(void *unused)
{
	struct prng rng;

	(void)unused;
	prng_seed(&rng, torture.cfg.seed);
	while (!READ_ONCE(torture.stop)) {
		struct torture_elem *new, *old;

		if (READ_ONCE(torture.stutter) == STUTTER_HOGS) {
			torture_sit_out_pause();
			continue;
		}
		new = pool_get();

		if (!new) {
			/* Pool empty: everything is in some pipe. Push the
			 * synchronous pipe along and try again. */
			torture_wait_gp(TGP_SYNC, &rng);
			sync_pipe_advance();
			torture.pool_empty++;
			continue;
		}
		new->pipe_count = 0;
		new->mbtest = 1;
		old = rcu_dereference_protected(torture.current, true);
		rcu_assign_pointer(torture.current, new);
		WRITE_ONCE(torture.version, torture.version + 1);
		atomic_add_relaxed(&torture.free_circulation[0], 1);
		if (old)
			writer_retire(old, writer_pick_gp(&rng), &rng);
		if (prng_below(&rng, 4) == 0)
			sleep_ms(prng_below(&rng, 3));
	}
	/* Wait out everything still in the pipes. */
	torture.ops->sync();
	while (!list_empty(&torture.writer_pipe))
		sync_pipe_advance();
	torture.ops->cb_barrier();
}

/* Once the writer has waited out its pipes, every element it retired but
 * the current one gets freed: a callback that never ran (dropped, say, as
 * a CPU went offline) leaves one behind. An element retired with
 * call_rcu() requeues itself from its callback until its pipe is full,
 * which one rcu_barrier() does not wait for; TORTURE_PIPE_LEN of them
 * do. */
static bool none_lost(void)
{
	unsigned long retired = READ_ONCE(torture.version) -
				(rcu_access_pointer(torture.current) != NULL);
	unsigned long freed;
	unsigned int i;

	for (i = 0; i <= TORTURE_PIPE_LEN; i++) {
		freed = READ_ONCE(torture.frees);
		if (freed == retired)
			return true;
		torture.ops->cb_barrier();
	}
	freed = READ_ONCE(torture.frees);
	if (freed == retired)
		return true;
	pr_err("rcu-torture: ??? %lu of %lu retired elements were never freed: "
	       "their callbacks did not run\n", retired - freed, retired);
	return false;
}

static bool no_new_stalls(const struct rcu_stats *before)
{
	u64 starved, counted = torture_counted_stalls(before, &starved);

	if (starved)
		pr_info("rcu-torture: %llu stall warnings named only vCPUs the "
			"host starved: not counted against the test\n",
			starved);
	if (!counted)
		return true;
	pr_err("rcu-torture: ??? %llu RCU stall warnings during the test\n",
	       counted);
	return false;
}

/* With race.windows=, how often each RCU window was held open since
 * boot: evidence that the run exercised them. */
static void print_race_windows(void)
{
	if (!race_windows_open)
		return;
	pr_info("rcu-torture: race windows held open since boot: %s %lu, "
		"%s %lu, %s %lu\n", race_window_name(RACE_QS_REPORT),
		race_window_count(RACE_QS_REPORT),
		race_window_name(RACE_CB_ADVANCE),
		race_window_count(RACE_CB_ADVANCE),
		race_window_name(RACE_EXP_SCAN),
		race_window_count(RACE_EXP_SCAN));
}

/* What the run cost, for the README's totals of a long run; the
 * read-side sections are the status line's nt:. Grace periods of the
 * flavour tortured; callbacks: the torture's own. */
static void print_totals(unsigned long gp_seq_start, u64 exp_start)
{
	const struct torture_ops *ops = torture.ops;
	struct oracle_counts oc;
	struct rcu_stats stats;

	oracle_get_counts(&oc);
	pr_info("rcu-torture: totals: %lu grace periods, %llu expedited, "
		"%lu callbacks invoked; %lu read-side sections in interrupt "
		"handlers, %lu preempted on purpose; oracle: %lu waits "
		"checked, %lu violations\n",
		(ops->gp_seq() - (gp_seq_start & ~1ul)) / 2,
		ops->exp_completed() - exp_start,
		READ_ONCE(torture.cbs_invoked),
		READ_ONCE(torture.irq_sections),
		READ_ONCE(torture.preempted_sections), oc.checks,
		oc.violations);
	rcu_get_stats(&stats);
	pr_info("rcu-torture: %s RCU on the %s engine: %llu readers "
		"preempted inside their sections since boot, %llu boosted\n",
		stats.flavour, stats.engine, stats.readers_blocked,
		stats.readers_boosted);
	print_race_windows();
}

/* The last status line: SUCCESS, or FAILURE and the checks that failed
 * (the counters', callbacks never invoked, RCU stall warnings, the
 * forward-progress flood). */
static bool print_verdict(bool lost, bool stalled, bool no_progress)
{
	char failed[160] = "";
	char tail[192];

	torture_name_failures(failed, sizeof(failed));
	if (lost)
		torture_name_failure(failed, sizeof(failed), "callbacks lost");
	if (stalled)
		torture_name_failure(failed, sizeof(failed),
				     "RCU stall warnings");
	if (no_progress)
		torture_name_failure(failed, sizeof(failed),
				     "forward progress");
	if (!failed[0]) {
		torture_print_stats("End of test: SUCCESS");
		return true;
	}
	ksnprintf(tail, sizeof(tail), "End of test: FAILURE (failed: %s)",
		  failed);
	torture_print_stats(tail);
	return false;
}

bool rcu_torture_run(const struct torture_config *cfg, const bool *stop)
{
	unsigned long gp_seq_start;
	struct rcu_stats start;
	u64 exp_start;
	bool ok, lost, stalled, no_progress = false;
	u64 starved;

	if (torture_setup(cfg) < 0)
		return false;
	torture_preempt_setup();
	rcu_get_stats(&start);
	gp_seq_start = torture.ops->gp_seq();
	exp_start = torture.ops->exp_completed();
	oracle_reset();
	torture_start_threads(writer_fn);
	torture_irq_readers_start();
	torture_onoff_start();
	torture_boost_start();
	torture_monitor(stop);
	torture_boost_stop();
	stalled = torture_counted_stalls(&start, &starved) != 0;
	if (stalled || torture.writer_stalls) {
		no_new_stalls(&start);	/* says how many */
		/* Grace periods have stopped: the writer, the hotplug thread
		 * and rcu_barrier() would never return, so neither would a
		 * join. End now, leaving them as they are. */
		pr_err("rcu-torture: ??? grace periods stalled: the test's "
		       "threads are left running\n");
		print_totals(gp_seq_start, exp_start);
		print_verdict(false, stalled, false);
		return false;
	}
	torture_teardown_watch_start();
	torture_onoff_stop();
	/* Stopped early (the shell's Ctrl-C): stop now, not after a flood. */
	if (torture_errors() == 0 && cfg->forward_progress &&
	    !(stop && READ_ONCE(*stop)))
		no_progress = !rcu_torture_forward_progress();
	torture_irq_readers_stop();
	torture_stop_threads();
	lost = !none_lost();
	torture_teardown_watch_stop();
	stalled = !no_new_stalls(&start);
	print_totals(gp_seq_start, exp_start);
	ok = print_verdict(lost, stalled, no_progress);
	torture_teardown();
	return ok;
}
