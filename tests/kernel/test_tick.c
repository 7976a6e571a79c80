/*
 * The tick stopped in idle (kernel/sched/tick.c). An idle CPU must stop
 * ticking and still wake for what it owes: its timers, the callbacks it
 * holds for RCU, and threads a busy CPU cannot run. Each test judges what
 * happened, never how fast: a starved vCPU only takes fewer ticks.
 */
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/smp_call.h"
#include "kernel/sched/tick.h"
#include "kernel/sched/timer.h"
#include "kernel/test/ktest.h"
#include "kernel/time.h"

#define SLEEP_NS		NSEC_PER_SEC
#define SLEEP_ROUNDS		5
/* Ticks an idle CPU may take over a one-second sleep: its timer's, and
 * a few for whatever else it held; a periodic tick takes about 1000. */
#define IDLE_TICKS_MAX		20
#define SAMPLE_MS		5
#define CALLBACK_ROUNDS		3

struct sleep_round {
	struct timer timer;
	struct completion fired;
	u64 expires_ns, fired_ns, ticks_before, ticks_after;
	bool seen_stopped;	/* the sampler saw the tick stopped for it */
};

static struct sleep_round rounds[SLEEP_ROUNDS];
static unsigned int rounds_started;
static bool round_seen;		/* the sampler saw a round: enough */

static void round_fired(void *arg)
{
	struct sleep_round *r = arg;

	r->fired_ns = clock_ns();
	complete(&r->fired);
}

/* On the CPU under test: each round, one timer a second ahead and
 * nothing else to do until it fires; more rounds only while the sampler
 * has not yet caught one. */
static void sleep_rounds(void *unused)
{
	unsigned int i;

	(void)unused;
	for (i = 0; i < SLEEP_ROUNDS && !READ_ONCE(round_seen); i++) {
		struct sleep_round *r = &rounds[i];

		init_completion(&r->fired);
		r->timer.fn = round_fired;
		r->timer.arg = r;
		r->ticks_before = READ_ONCE(this_cpu()->ticks);
		r->expires_ns = clock_ns() + SLEEP_NS;
		/* Release: the round's fields before the sampler sees it
		 * begin; pairs with the acquire in the sampler. */
		smp_store_release(&rounds_started, i + 1);
		timer_add(&r->timer, r->expires_ns);
		wait_for_completion(&r->fired);
		r->ticks_after = READ_ONCE(this_cpu()->ticks);
	}
}

/*
 * While a thread on the last CPU sleeps on its timer, cpu0 samples that
 * CPU's tick: it must be seen stopped with its clock event set for the
 * timer's very expiry. A sampler the host starves may miss a round, so
 * each round is sampled until it fires, and one round seen is enough;
 * a round seen must also have taken few ticks. No round may fire early.
 */
KTEST_ON_CPU(tick, idle_cpu_stops_its_tick_until_its_timer, 0)
{
	unsigned int cpu = nr_cpus_online - 1, i, seen = 0;
	struct tick_cpu_stats s;
	struct thread *th;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to idle");
	if (!nohz_enabled)
		KTEST_SKIP("nohz=off: every CPU ticks");
	rounds_started = 0;
	round_seen = false;
	th = thread_create_on(sleep_rounds, NULL, "tick_sleeper", cpu);
	KASSERT_TRUE(th != NULL);
	for (i = 0; i < SLEEP_ROUNDS && !round_seen; i++) {
		struct sleep_round *r = &rounds[i];

		while (smp_load_acquire(&rounds_started) <= i)
			sleep_ms(1);
		while (!READ_ONCE(r->fired.done) && !r->seen_stopped) {
			tick_cpu_stats(cpu, &s);
			if (s.stopped && s.programmed_ns == r->expires_ns)
				r->seen_stopped = true;
			sleep_ms(SAMPLE_MS);
		}
		/* Read by the sleeper before its next round. */
		WRITE_ONCE(round_seen, r->seen_stopped);
	}
	thread_join(th);
	for (i = 0; i < READ_ONCE(rounds_started); i++) {
		struct sleep_round *r = &rounds[i];

		KEXPECT_GE(r->fired_ns, r->expires_ns);
		if (!r->seen_stopped)
			continue;
		seen++;
		KEXPECT_LE(r->ticks_after - r->ticks_before,
			   (u64)IDLE_TICKS_MAX);
	}
	KEXPECT_GT(seen, 0u);
}

struct callback_round {
	struct rcu_head head;
	struct completion invoked;
};

static bool callback_rounds_done;

static void call_nothing(void *unused)
{
	(void)unused;
}

static void callback_invoked(struct rcu_head *head)
{
	complete(&container_of(head, struct callback_round, head)->invoked);
}

/* On the CPU under test: queue a callback, then idle until it runs. Only
 * this CPU's tick advances its callbacks; if the CPU slept without a
 * wake-up for them, this waits for ever (the test's watchdog ends it). */
static void queue_then_idle(void *unused)
{
	struct callback_round r;
	unsigned int i;

	(void)unused;
	for (i = 0; i < CALLBACK_ROUNDS; i++) {
		init_completion(&r.invoked);
		call_rcu(&r.head, callback_invoked);
		wait_for_completion(&r.invoked);
	}
	WRITE_ONCE(callback_rounds_done, true);
}

static void run_callback_rounds(bool with_ipis)
{
	struct thread *th;

	WRITE_ONCE(callback_rounds_done, false);
	th = thread_create_on(queue_then_idle, NULL, "tick_cbs",
			      nr_cpus_online - 1);
	if (!th)
		return;
	/* Cross-CPU calls wake the idle CPU again and again, never through
	 * its timer: RCU's wake-up must still come, not be pushed back by
	 * each of them. */
	while (with_ipis && !READ_ONCE(callback_rounds_done))
		smp_call_function_all(call_nothing, NULL);
	thread_join(th);
}

KTEST_ON_CPU(tick, callbacks_of_an_idle_cpu_are_invoked, 0)
{
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to idle");
	run_callback_rounds(false);
}

KTEST_ON_CPU(tick, callbacks_of_an_idle_cpu_run_while_ipis_wake_it, 0)
{
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to idle");
	run_callback_rounds(true);
}

/*
 * Balancing with idle CPUs that do not tick: a thread woken behind a
 * busy one on cpu1, allowed on cpu2 too, must get to cpu2, which idles
 * with its tick stopped. Nothing on cpu1 pushes, so only a kick from
 * cpu1 (sched_kick_idle_cpu()), or cpu2's own tick, can bring it there;
 * without either it waits for ever.
 */
static bool spin_stop, spin1_running, spin2_running, spin2_release;
static bool mover_waiting;
static struct completion mover_go;
static unsigned int mover_first_cpu;

static void spin_on_cpu1(void *unused)
{
	(void)unused;
	WRITE_ONCE(spin1_running, true);
	while (!READ_ONCE(spin_stop))
		arch_cpu_relax();
}

static void spin_on_cpu2(void *unused)
{
	(void)unused;
	WRITE_ONCE(spin2_running, true);
	while (!READ_ONCE(spin2_release))
		arch_cpu_relax();
}

static void mover(void *unused)
{
	(void)unused;
	WRITE_ONCE(mover_first_cpu, this_cpu_id());
	WRITE_ONCE(mover_waiting, true);
	wait_for_completion(&mover_go);
	while (this_cpu_id() != 2)
		yield();
}

KTEST_ON_CPU(tick, thread_behind_a_busy_cpu_reaches_an_idle_one, 0)
{
	struct cpumask one_two;
	struct thread *s1, *s2, *m;
	struct tick_cpu_stats s;

	if (nr_cpus_online < 3)
		KTEST_SKIP("needs cpu1 busy and cpu2 idle");
	spin_stop = spin1_running = spin2_running = spin2_release = false;
	mover_waiting = false;
	init_completion(&mover_go);
	s1 = thread_create_on(spin_on_cpu1, NULL, "tick_spin1", 1);
	s2 = thread_create_on(spin_on_cpu2, NULL, "tick_spin2", 2);
	KASSERT_TRUE(s1 && s2);
	while (!READ_ONCE(spin1_running) || !READ_ONCE(spin2_running))
		sleep_ms(1);
	/* Equal loads: the new thread starts on the lower CPU, cpu1. */
	cpumask_clear(&one_two);
	cpumask_set(&one_two, 1);
	cpumask_set(&one_two, 2);
	m = thread_create_mask(mover, NULL, "tick_mover", &one_two);
	KASSERT_TRUE(m != NULL);
	while (!READ_ONCE(mover_waiting))
		sleep_ms(1);
	WRITE_ONCE(spin2_release, true);
	thread_join(s2);
	/* cpu2 idle, its tick stopped, before the mover wakes on cpu1. */
	do {
		sleep_ms(1);
		tick_cpu_stats(2, &s);
	} while (nohz_enabled && !s.stopped);
	complete(&mover_go);
	thread_join(m);
	WRITE_ONCE(spin_stop, true);
	thread_join(s1);
	KEXPECT_EQ(mover_first_cpu, 1u);
}

/*
 * A CPU going offline hands its timers to cpu0 (timer_migrate_away()).
 * cpu0 idles here, its tick stopped and its clock event set for its own
 * timers: it must be told to look again, or a thread sleeping on a timer
 * that moved sleeps until something else wakes cpu0. Whether the sleeper
 * wakes in time depends on luck (anything that wakes cpu0 hides the
 * bug), so each round checks the state once cpu_down() returns: the
 * timer is on cpu0's list, and cpu0 either knows of it (ticking, or its
 * clock event set no later than the timer) or has been told (its
 * need_resched set, which it clears only on its way to looking again).
 * The test's own thread waits on cpu0 without a timer; a controller on
 * the last CPU takes cpu1 down under a sleeper.
 */
/* Rounds until MIGRATE_CHECKS were checked: one whose timer fired before
 * cpu1 went down, or that began elsewhere, checks nothing. */
#define MIGRATE_CHECKS	3
#define MIGRATE_ROUNDS	10
/* Long enough to be still pending once cpu1 is down; the controller
 * cancels it then, so no round waits for it. */
#define SLEEPER_MS	1000

static struct timer sleeper_timer;
static struct completion sleeper_woken;
static u64 sleeper_expires_ns;
static bool sleeper_asleep;

static void sleeper_timer_fired(void *unused)
{
	(void)unused;
	complete(&sleeper_woken);
}

/* A sleep whose timer the controller can see: its expiry and its CPU. */
static void sleep_on_cpu1(void *unused)
{
	(void)unused;
	init_completion(&sleeper_woken);
	sleeper_timer.fn = sleeper_timer_fired;
	sleeper_expires_ns = clock_ns() + SLEEPER_MS * NSEC_PER_MSEC;
	timer_add(&sleeper_timer, sleeper_expires_ns);
	/* Release: the timer is queued before the controller sees this;
	 * pairs with its acquire. */
	smp_store_release(&sleeper_asleep, true);
	wait_for_completion(&sleeper_woken);
}

/* Right after cpu_down(1): has cpu0 been told of the timer it took?
 * need_resched is read first: cpu0 clears it only after restarting its
 * tick (the idle loop's tick_idle_restart() comes before schedule()),
 * and x86 keeps those two stores in order for this reader. */
static bool cpu0_told_of_moved_timer(void)
{
	bool told = READ_ONCE(cpu_area(0)->need_resched);
	struct tick_cpu_stats s;

	tick_cpu_stats(0, &s);
	return told || !s.stopped ||
	       (s.programmed_ns && s.programmed_ns <= sleeper_expires_ns);
}

/* Each way a round can fail, counted apart so a failure names its
 * check: cpu_down()/cpu_up() or the sleeper's creation failing, the
 * timer moved to a CPU other than cpu0, cpu0 not told of it. */
struct migrate_result {
	unsigned int hotplug_failures, moved_elsewhere, not_told, checked;
};

static void take_cpu1_down_under_sleepers(void *arg)
{
	struct migrate_result *res = arg;
	unsigned int round;
	struct cpumask one_and_me;
	struct tick_cpu_stats s;

	cpumask_clear(&one_and_me);
	cpumask_set(&one_and_me, 1);
	cpumask_set(&one_and_me, this_cpu_id());
	for (round = 0; round < MIGRATE_ROUNDS &&
		    res->checked < MIGRATE_CHECKS; round++) {
		struct thread *sleeper;
		bool on_cpu1, told;

		WRITE_ONCE(sleeper_asleep, false);
		/* cpu1 idles, this CPU runs us: it starts on cpu1. */
		sleeper = thread_create_mask(sleep_on_cpu1, NULL,
					     "tick_sleeper1", &one_and_me);
		if (!sleeper) {
			res->hotplug_failures++;
			return;
		}
		while (!smp_load_acquire(&sleeper_asleep))
			arch_cpu_relax();
		/* With nohz=off cpu0 ticks: the timers still move and fire. */
		do {
			tick_cpu_stats(0, &s);
		} while (nohz_enabled && !s.stopped);
		on_cpu1 = READ_ONCE(sleeper_timer.cpu) == 1;
		res->hotplug_failures += cpu_down(1) != 0;
		told = cpu0_told_of_moved_timer();
		/* Still pending after the look, so pending during it: it
		 * moved to cpu0, which had to know. */
		if (timer_cancel(&sleeper_timer)) {
			if (on_cpu1) {
				res->checked++;
				res->moved_elsewhere +=
					READ_ONCE(sleeper_timer.cpu) != 0;
				res->not_told += !told;
			}
			complete(&sleeper_woken);
		}
		thread_join(sleeper);
		res->hotplug_failures += cpu_up(1) != 0;
	}
}

KTEST_ON_CPU(tick, timers_moved_to_an_idle_cpu_fire, 0)
{
	struct migrate_result res = { 0 };
	struct thread *th;

	if (nr_cpus_online < 3)
		KTEST_SKIP("needs cpu1 to go down, and a third CPU to do it");
	th = thread_create_on(take_cpu1_down_under_sleepers, &res,
			      "tick_migrator", nr_cpus_online - 1);
	KASSERT_TRUE(th != NULL);
	thread_join(th);
	KEXPECT_EQ(res.hotplug_failures, 0u);
	KEXPECT_EQ(res.moved_elsewhere, 0u);
	KEXPECT_EQ(res.not_told, 0u);
	KEXPECT_GT(res.checked, 0u);
}
