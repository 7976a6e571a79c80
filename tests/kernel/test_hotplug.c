/*
 * The hotplug suite: CPUs go offline and come back, and each step keeps
 * what it must: callbacks queued on the outgoing CPU are all invoked,
 * each once; threads and timers move to CPUs that run them; grace
 * periods, normal and expedited, stop waiting for the offline CPU; and
 * every CPU but the boot CPU goes down and up.
 */
#include "kernel/errno.h"
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/stats.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/smp_call.h"
#include "kernel/sched/timer.h"
#include "kernel/test/ktest.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/string.h"

#define HOTPLUG_CBS	2000u

KTEST(hotplug, errors_are_named)
{
	if (nr_cpus < 2)
		KTEST_SKIP("needs 2 CPUs");
	KEXPECT_EQ(cpu_down(0), -EINVAL);
	KEXPECT_EQ(cpu_down(nr_cpus), -ENODEV);
	KEXPECT_EQ(cpu_up(1), -EBUSY);
	KEXPECT_EQ(cpu_down(1), 0);
	KEXPECT_EQ(cpu_down(1), -EBUSY);
	KEXPECT_EQ(cpu_up(1), 0);
}

/* Every CPU but cpu0 goes down and comes back; the online count and each
 * CPU's flag follow, and a thread pinned there runs again afterwards.
 * Above HOTPLUG_FULL_CPUS CPUs, every stride-th one and the last (so
 * still the highest APIC ids): each cycle costs more as the CPUs grow,
 * and 511 of them outran the watchdog at -smp 512 on the classic engine
 * (about 0.27 s a cycle on this 2-core host). */
/* Up to this many CPUs the suite's cycles are not scaled down. */
#define HOTPLUG_FULL_CPUS	64u

static void note_cpu(void *arg)
{
	WRITE_ONCE(*(unsigned int *)arg, this_cpu_id());
}

static unsigned int next_cpu_to_cycle(unsigned int cpu)
{
	unsigned int stride = nr_cpus <= HOTPLUG_FULL_CPUS ? 1 :
			      DIV_ROUND_UP(nr_cpus - 1, HOTPLUG_FULL_CPUS);

	if (cpu + 1 < nr_cpus && cpu + stride >= nr_cpus)
		return nr_cpus - 1;
	return cpu + stride;
}

KTEST_TIMEOUT(hotplug, every_cpu_goes_down_and_up, 120000)
{
	unsigned int cpu, ran_on;

	if (nr_cpus < 2)
		KTEST_SKIP("needs 2 CPUs");
	for (cpu = 1; cpu < nr_cpus; cpu = next_cpu_to_cycle(cpu)) {
		unsigned int online = READ_ONCE(nr_cpus_online);
		struct thread *pinned;

		KASSERT_EQ(cpu_down(cpu), 0);
		KEXPECT_FALSE(READ_ONCE(cpu_area(cpu)->online));
		KEXPECT_EQ(READ_ONCE(nr_cpus_online), online - 1);
		KASSERT_EQ(cpu_up(cpu), 0);
		KEXPECT_TRUE(READ_ONCE(cpu_area(cpu)->online));
		KEXPECT_EQ(READ_ONCE(nr_cpus_online), online);
		ran_on = MAX_CPUS;
		pinned = thread_create_on(note_cpu, &ran_on, "pinned", cpu);
		KASSERT_TRUE(pinned != NULL);
		thread_join(pinned);
		KEXPECT_EQ(ran_on, cpu);
	}
}

/* A CPU back up takes timers again: one that timer_add_on() arms for it
 * runs there, not on the caller's list as it would for an offline CPU.
 * The caller is cpu0, never the CPU that went down and up, so a timer
 * left on the caller's list shows. */
static struct timer back_up_timer;
static struct completion back_up_fired;

static void back_up_timer_fired(void *arg)
{
	note_cpu(arg);
	complete(&back_up_fired);
}

KTEST_DEFINE(hotplug, timer_added_on_a_cpu_back_up_runs_there, 0, 120000,
	     false)
{
	unsigned int cpu = nr_cpus - 1, ran_on = MAX_CPUS;

	if (nr_cpus < 2)
		KTEST_SKIP("needs 2 CPUs");
	KASSERT_EQ(cpu_down(cpu), 0);
	KASSERT_EQ(cpu_up(cpu), 0);
	init_completion(&back_up_fired);
	back_up_timer.fn = back_up_timer_fired;
	back_up_timer.arg = &ran_on;
	timer_add_on(&back_up_timer, clock_ns(), cpu);
	wait_for_completion(&back_up_fired);
	KEXPECT_EQ(ran_on, cpu);
}

/* Callbacks queued on cpu1 just before it goes down: every one runs,
 * once, after it has moved. */
static unsigned int cb_runs[HOTPLUG_CBS];
static struct rcu_head cb_heads[HOTPLUG_CBS];

static void count_run(void *arg)
{
	atomic_add_relaxed(&cb_runs[(uptr)arg], 1);
}

static void queue_callbacks(void *unused)
{
	unsigned int i;

	(void)unused;
	for (i = 0; i < HOTPLUG_CBS; i++)
		call_rcu(&cb_heads[i], count_run, (void *)(uptr)i);
}

KTEST_TIMEOUT(hotplug, callbacks_move_and_run_once, 120000)
{
	struct rcu_cpu_stats before, after;
	unsigned int i, wrong = 0;
	struct thread *queuer;

	if (nr_cpus < 2)
		KTEST_SKIP("needs 2 CPUs");
	memset(cb_runs, 0, sizeof(cb_runs));
	queuer = thread_create_on(queue_callbacks, NULL, "queue_cbs", 1);
	KASSERT_TRUE(queuer != NULL);
	thread_join(queuer);
	rcu_get_cpu_stats(1, &before);
	KASSERT_EQ(cpu_down(1), 0);
	rcu_get_cpu_stats(1, &after);
	KEXPECT_EQ(after.cbs_pending, 0ull);
	rcu_barrier();
	for (i = 0; i < HOTPLUG_CBS; i++)
		wrong += cb_runs[i] != 1;
	KEXPECT_EQ(wrong, 0u);
	console_printf("    # %llu of %u callbacks were still on cpu1 when it "
		       "went down\n", before.cbs_pending, HOTPLUG_CBS);
	KEXPECT_EQ(cpu_up(1), 0);
}

/* A movable thread asleep on cpu1 when it goes down: its timer moves and
 * fires, and it wakes on another CPU. It naps until told that the CPU is
 * down, not for a fixed time: at -smp 512 a cpu_down() outlasted a
 * single 50 ms nap, and the thread noted the CPU still going down. */
static bool napper_home_down;

static void nap_then_note(void *arg)
{
	/* Acquire: pairs with the release after cpu_down() returns, so
	 * the CPU is out of the online set when we note where we run. */
	do {
		sleep_ms(50);
	} while (!smp_load_acquire(&napper_home_down));
	note_cpu(arg);
}

KTEST_TIMEOUT(hotplug, threads_and_timers_move, 120000)
{
	unsigned int ran_on = MAX_CPUS, home;
	struct cpumask all;
	struct thread *napper;

	if (nr_cpus < 2)
		KTEST_SKIP("needs 2 CPUs");
	cpumask_fill(&all);
	WRITE_ONCE(napper_home_down, false);
	napper = thread_create_mask(nap_then_note, &ran_on, "napper", &all);
	KASSERT_TRUE(napper != NULL);
	sleep_ms(5);
	home = READ_ONCE(napper->cpu);
	KEXPECT_EQ(cpu_down(home ? home : 1), 0);
	smp_store_release(&napper_home_down, true);
	thread_join(napper);
	KEXPECT_LT(ran_on, (unsigned int)MAX_CPUS);
	KEXPECT_TRUE(READ_ONCE(cpu_area(ran_on)->online));
	for (unsigned int cpu = 1; cpu < nr_cpus; cpu++)
		if (!READ_ONCE(cpu_area(cpu)->online))
			KEXPECT_EQ(cpu_up(cpu), 0);
}

/* With cpu1 offline, grace periods of both kinds end: no one waits for
 * a parked CPU, which RCU sees in its extended quiescent state. */
KTEST_TIMEOUT(hotplug, grace_periods_skip_offline_cpu, 120000)
{
	struct rcu_cpu_stats s;
	unsigned int i;

	if (nr_cpus < 2)
		KTEST_SKIP("needs 2 CPUs");
	KASSERT_EQ(cpu_down(1), 0);
	rcu_get_cpu_stats(1, &s);
	KEXPECT_TRUE(s.idle);
	for (i = 0; i < 20; i++) {
		synchronize_kernel();
		synchronize_rcu_expedited();
	}
	rcu_barrier();
	KEXPECT_EQ(cpu_up(1), 0);
	rcu_get_cpu_stats(1, &s);
	synchronize_kernel();
}

/*
 * rcu_barrier() while cpu1 keeps going down and coming back: each
 * barrier waits for a callback queued on every online CPU just before
 * it. A CPU that comes online between the barrier's look at the online
 * set and its call must not make it end one callback early (hold the
 * window open with race.windows=barrier_call; with more than two CPUs
 * a third thread keeps cross-CPU calls busy, so that the CPU coming up
 * and the barrier often wait behind the same call). Bounded by the
 * number of hotplug cycles, not by time. Each cycle's calls and barrier
 * wait for every CPU, so above HOTPLUG_FULL_CPUS the cycles fall as the
 * CPUs grow (25 at 512, 8 at 4096 and up): at 512 CPUs on this 2-core
 * host a cycle took about 5 s, and 200 of them outran the test's
 * watchdog. The race is caught at small CPU counts, where the cycles
 * stay 200.
 */
#define BARRIER_HOTPLUG_CYCLES		200u
#define BARRIER_HOTPLUG_MIN_CYCLES	8u

static unsigned int barrier_hotplug_cycles(void)
{
	if (nr_cpus <= HOTPLUG_FULL_CPUS)
		return BARRIER_HOTPLUG_CYCLES;
	return MAX(BARRIER_HOTPLUG_CYCLES * HOTPLUG_FULL_CPUS / nr_cpus,
		   BARRIER_HOTPLUG_MIN_CYCLES);
}

static DEFINE_PERCPU_ARRAY(struct rcu_head, barrier_test_heads);
static unsigned long barrier_test_queued, barrier_test_ran;
static bool barrier_test_cycling;

static void barrier_test_ran_one(void *unused)
{
	(void)unused;
	atomic_add_relaxed(&barrier_test_ran, 1);
}

static void barrier_test_queue(void *unused)
{
	(void)unused;
	atomic_add_relaxed(&barrier_test_queued, 1);
	call_rcu(&barrier_test_heads[this_cpu_id()], barrier_test_ran_one,
		 NULL);
}

static void call_nothing(void *unused)
{
	(void)unused;
}

static void keep_call_lock_busy(void *unused)
{
	(void)unused;
	while (READ_ONCE(barrier_test_cycling))
		smp_call_function_all(call_nothing, NULL);
}

static void cycle_cpu1(void *arg)
{
	unsigned int i, *failures = arg, cycles = barrier_hotplug_cycles();

	for (i = 0; i < cycles; i++)
		*failures += (cpu_down(1) != 0) + (cpu_up(1) != 0);
	WRITE_ONCE(barrier_test_cycling, false);
}

KTEST_TIMEOUT(hotplug, barrier_while_cpus_come_and_go, 900000)
{
	unsigned int failures = 0, barriers = 0;
	unsigned long ran = 0, queued = 0;
	struct thread *cycler, *caller;

	if (nr_cpus < 2)
		KTEST_SKIP("needs 2 CPUs");
	barrier_test_queued = barrier_test_ran = 0;
	WRITE_ONCE(barrier_test_cycling, true);
	cycler = thread_create(cycle_cpu1, &failures, "cycle_cpu1");
	KASSERT_TRUE(cycler != NULL);
	/* With two CPUs, cpu0 alone would run it most of the time. */
	caller = nr_cpus > 2 ? thread_create(keep_call_lock_busy, NULL,
					     "call_lock_busy") : NULL;
	while (READ_ONCE(barrier_test_cycling)) {
		smp_call_function_all(barrier_test_queue, NULL);
		rcu_barrier();
		barriers++;
		/* Every callback queued before the barrier has run: one
		 * short means it ended early, and the next round would
		 * queue a head that is still queued. */
		ran = READ_ONCE(barrier_test_ran);
		queued = READ_ONCE(barrier_test_queued);
		if (ran != queued)
			break;
	}
	KEXPECT_EQ(ran, queued);
	thread_join(cycler);
	if (caller)
		thread_join(caller);
	KEXPECT_EQ(failures, 0u);
	KEXPECT_GE(barriers, 1u);
	console_printf("    # %u barriers during %u offline/online cycles of "
		       "cpu1\n", barriers, barrier_hotplug_cycles());
}
