/*
 * rcutorture's boost test (torture.test_boost=, Linux's test_boost and
 * rcu_torture_boost()): a reader preempted inside its section by
 * real-time work holds up every grace period for as long as that work
 * runs, unless RCU boosts it (kernel/rcu/preempt/boost.c).
 *
 * On each CPU but cpu0 a pair of threads, pinned there: a normal reader
 * and a hog at real-time priority BOOST_HOG_PRIO, below rcu.boost_prio so
 * that a boosted reader outranks it. Every BOOST_INTERVAL_MS the hog arms
 * its reader, which enters a read-side section and spins in it until the
 * hog runs; the hog, waking at once above it, takes the CPU from it
 * inside the section (the switch queues the reader on its leaf), asks
 * for a grace period with start_poll_synchronize_rcu() and spins, never
 * sleeping, until that grace period ends. It can end only once the
 * reader has left its section, and the reader can run only if boosted.
 * The hog stops spinning once BOOST_CAP_DELAYS times rcu.boost_delay_ms
 * (at least BOOST_CAP_MIN_MS) have passed and the grace-period thread
 * has had BOOST_CAP_CHANCES chances to boost (forcing scans of a grace
 * period old enough): reaching that bound with the grace period still
 * pending is a failure (Linux's "Boost inversion persisted", its rtbf:
 * counter). The check is an event, the end of the grace period asked for
 * after the hog took the CPU, and the bound counts what boosting was
 * given as well as time, so a slow host, or a GP thread the host starves,
 * makes a pass take longer, not fail.
 *
 * cpu0 has no pair: the rcu_gp thread, which boosts readers, lives there
 * at real-time priority 1 (rcu.kthread_prio's floor while boosting), and
 * a hog there at the same priority would never yield to it, boosted
 * readers or not. Linux skips its boost test for the same reason unless
 * rcutree.kthread_prio puts its RCU threads above the hogs.
 *
 * Each ended wait is checked by the oracle like the writers' (the
 * reader's section has a slot of its own). The pairs sit out the run's
 * pauses, and are stopped when its timed part ends, before the
 * forward-progress flood.
 */
#include "internal.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "kernel/rcu/flavour.h"
#include "kernel/rcu/stats.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/string.h"

CMDLINE_BOOL("torture.test_boost", torture_cmdline.test_boost,
	     "rcutorture: real-time hogs preempt readers, which only RCU "
	     "priority boosting lets finish (preemptible RCU)");

#if CONFIG_PREEMPT_RCU

/* Above every normal thread, below rcu.boost_prio (2 by default): a
 * boosted reader must outrank the hog, so rcu.boost_prio=1 fails the
 * test as no boosting would. Linux's hogs run at 1 too. */
#define BOOST_HOG_PRIO		1
/* How long a hog may spin, in rcu.boost_delay_ms: boosting ends the
 * wait in about one. */
#define BOOST_CAP_DELAYS	10
#define BOOST_CAP_MIN_MS	1000	/* for rcu.boost_delay_ms=0 */
#define BOOST_CAP_CHANCES	10
/* The hogs start together every so often; the rest of each interval is
 * the rest of the torture's. */
#define BOOST_INTERVAL_MS	1500

struct boost_pair {
	unsigned int cpu;
	unsigned int slot;		/* the reader's oracle slot */
	/* The handshake of one interval, numbered from 1, each field
	 * written by one side and read lock-free by the other (WRITE_ONCE /
	 * READ_ONCE; both run on one CPU, so the order is program order): */
	unsigned long interval;	/* hog: enter a section for this one */
	unsigned long entered;	/* reader: in its section for this one */
	unsigned long taken;	/* hog: has taken the CPU in this one */
	struct thread *reader, *hog;
};

static DEFINE_PERCPU_ARRAY(struct boost_pair, pairs);
static unsigned int nr_pairs;
/* Set by torture_boost_stop(), read by both threads of every pair. */
static bool boost_stop;
/* When the test began: the hogs' intervals start together, at whole
 * BOOST_INTERVAL_MS since, as Linux's share boost_starttime; staggered,
 * they would hold up grace periods nearly all the time. */
static u64 boost_epoch_ns;

/* Sleep until `end` (clock_ns()), or less if the test is stopping; false
 * once it is. */
static bool boost_sleep_until(u64 end)
{
	while (clock_ns() < end) {
		if (READ_ONCE(boost_stop))
			return false;
		sleep_ms(1);
	}
	return !READ_ONCE(boost_stop);
}

/* The start of the next interval, common to every hog. */
static u64 next_interval_start(void)
{
	u64 period = (u64)BOOST_INTERVAL_MS * NSEC_PER_MSEC;

	return boost_epoch_ns +
	       ((clock_ns() - boost_epoch_ns) / period + 1) * period;
}

/* One section per interval: entered once the hog asks, left once the
 * hog has taken the CPU and the reader runs again (only a boost lets it
 * run while the hog spins). Between intervals it sleeps outside any
 * section, so it holds nothing up then. */
static void boost_reader_fn(void *arg)
{
	struct boost_pair *p = arg;
	unsigned long done = 0;

	while (!READ_ONCE(boost_stop)) {
		unsigned long n = READ_ONCE(p->interval);

		if (n == done) {
			sleep_ms(1);
			continue;
		}
		rcu_read_lock();
		oracle_reader_begin(p->slot);
		WRITE_ONCE(p->entered, n);
		/* Boosted before the hog ran (a grace period it held up
		 * grew old meanwhile): it would outrank the hog for good,
		 * so it leaves the section, and the interval's grace
		 * period simply ends soon. */
		while (READ_ONCE(p->taken) != n && !READ_ONCE(boost_stop) &&
		       !rcu_preempt_thread_boosted(current_thread()))
			arch_cpu_relax();
		oracle_reader_end(p->slot);
		rcu_read_unlock();
		done = n;
	}
}

/* The hog reached its bound with the grace period still pending: say
 * so, and name the readers that hold it up (once per run): its own, or
 * any other the hog starves inside a section. */
static void boost_failed(struct boost_pair *p, unsigned long cookie,
			 u64 spun_ns)
{
	unsigned long before = atomic_fetch_add(&torture.boost_failures, 1);

	pr_err("rcu-torture: !!! Boost inversion persisted: cpu%u's hog spun "
	       "%llu ms (%u x rcu.boost_delay_ms) and the grace period it "
	       "asked for (cookie %lu, gp_seq %lu) did not end; its reader "
	       "%s/%llu, preempted inside its section, has not run since\n",
	       p->cpu,
	       spun_ns / NSEC_PER_MSEC, BOOST_CAP_DELAYS, cookie,
	       rcu_gp_seq_now(), p->reader->name, p->reader->id);
	if (before == 0)
		rcu_preempt_show_blocked(false);
}

/* One interval: preempt the reader inside its section, then spin until
 * the grace period asked for since has ended, or the bound. */
static void boost_interval(struct boost_pair *p)
{
	u64 start, chances, cap_ns = (u64)BOOST_CAP_DELAYS *
				     rcu_preempt_boost_delay_ms() *
				     NSEC_PER_MSEC;
	unsigned long n = p->interval + 1, stamp, cookie;
	bool done;

	if (cap_ns < BOOST_CAP_MIN_MS * NSEC_PER_MSEC)
		cap_ns = BOOST_CAP_MIN_MS * NSEC_PER_MSEC;

	WRITE_ONCE(p->interval, n);
	/* Sleeping lets the reader run; waking at real-time priority takes
	 * its CPU from it, inside the section once it says so. */
	while (READ_ONCE(p->entered) != n)
		if (!boost_sleep_until(clock_ns() + NSEC_PER_MSEC))
			return;
	WRITE_ONCE(p->taken, n);
	start = clock_ns();
	chances = rcu_preempt_boost_chances();
	stamp = oracle_stamp();
	cookie = start_poll_synchronize_rcu();
	while (!(done = poll_state_synchronize_rcu(cookie)) &&
	       (clock_ns() - start < cap_ns ||
		rcu_preempt_boost_chances() - chances < BOOST_CAP_CHANCES))
		arch_cpu_relax();
	/* Rechecked after the time, as Linux does: a grace period that
	 * ended just as the bound passed is a pass. */
	done = done || poll_state_synchronize_rcu(cookie);
	if (done) {
		oracle_check(stamp, "a boost test's polled cookie");
		atomic_add_relaxed(&torture.boosts, 1);
	} else {
		boost_failed(p, cookie, clock_ns() - start);
	}
}

static void boost_hog_fn(void *arg)
{
	struct boost_pair *p = arg;

	thread_set_priority(current_thread(), BOOST_HOG_PRIO);
	while (boost_sleep_until(next_interval_start())) {
		if (READ_ONCE(torture.stutter) != STUTTER_NONE)
			torture_sit_out_pause();
		else
			boost_interval(p);
	}
}

/* Why the test cannot run in this run, or NULL. */
static const char *boost_unavailable(void)
{
	if (strcmp(torture.ops->name, "rcu"))
		return "it boosts RCU readers, not SRCU's";
	if (nr_cpus_online < 2)
		return "it needs a CPU besides cpu0";
	if (torture.cfg.onoff_interval_ms)
		return "its threads are pinned, and CPUs go offline";
	if (torture.cfg.readers + nr_cpus > ORACLE_MAX_READERS)
		return "the oracle has no slots left for its readers";
	return NULL;
}

void torture_boost_start(void)
{
	const char *why;
	unsigned int cpu;

	WRITE_ONCE(boost_stop, false);
	nr_pairs = 0;
	boost_epoch_ns = clock_ns();
	if (!torture.cfg.test_boost)
		return;
	why = boost_unavailable();
	if (why) {
		pr_info("rcu-torture: torture.test_boost: skipped: %s\n", why);
		return;
	}
	for_each_online_cpu(cpu) {
		struct boost_pair *p = &pairs[nr_pairs];

		if (cpu == 0)
			continue;
		*p = (struct boost_pair){ .cpu = cpu,
					  .slot = torture.cfg.readers + cpu };
		p->reader = thread_create_on(boost_reader_fn, p,
					     "torture_boost_reader", cpu);
		p->hog = thread_create_on(boost_hog_fn, p,
					  "torture_boost_hog", cpu);
		if (!p->reader || !p->hog) {
			pr_err("rcu-torture: could not start the boost pair "
			       "of cpu%u\n", cpu);
			atomic_add_relaxed(&torture.boost_failures, 1);
			WRITE_ONCE(boost_stop, true);
		}
		nr_pairs++;
	}
	pr_info("rcu-torture: boost test: %u hog and reader pairs, hogs at "
		"priority %u for up to %u ms each\n", nr_pairs, BOOST_HOG_PRIO,
		BOOST_CAP_DELAYS * rcu_preempt_boost_delay_ms());
}

void torture_boost_stop(void)
{
	unsigned int i;

	WRITE_ONCE(boost_stop, true);
	for (i = 0; i < nr_pairs; i++) {
		if (pairs[i].hog)
			thread_join(pairs[i].hog);
		if (pairs[i].reader)
			thread_join(pairs[i].reader);
	}
	nr_pairs = 0;
}

#else

/* Readers run with preemption off: nothing can preempt one. Say so
 * once per run. */
void torture_boost_start(void)
{
	if (torture.cfg.test_boost)
		pr_info("rcu-torture: torture.test_boost=1 ignored: readers "
			"cannot be preempted in the non-preemptible flavour\n");
}

void torture_boost_stop(void)
{
}

#endif
