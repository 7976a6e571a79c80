/*
 * The sched suite, priorities (2): a change of priority (lowering the
 * running thread, boosting a queued one), the API's checks, and the
 * balancer's pull of a waiting real-time thread. test_sched_prio.h says
 * how the tests judge.
 */
#include "test_sched_prio.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/format.h"
#include "lib/string.h"

/* --- lowering the running thread, boosting a queued one --- */

/* Priority 50 on cpu1: wakes the priority-30 thread of gate 1 (which
 * must wait), then lowers itself to 10 (which must let it run). */
static void lowers_itself(void *arg)
{
	unsigned int i = (unsigned int)(uptr)arg;

	wait_for_completion(&prio_run.gate[i]);
	complete(&prio_run.gate[1]);
	prio_run.ticket[i][0] = prio_take_ticket();
	thread_set_priority(current_thread(), 10);
	prio_run.ticket[i][1] = prio_take_ticket();
	prio_run.prio_after = thread_priority(current_thread());
}

/* Threads 0 and 1 on cpu1, both asleep on their gates; then gate 0
 * opens, and thread 0 takes it from there. False if out of memory. */
static bool run_pair(thread_fn fn0, unsigned int prio0, thread_fn fn1,
		     unsigned int prio1)
{
	prio_run_reset();
	if (!prio_start_asleep(fn0, 0, prio0, PRIO_CPU) ||
	    !prio_start_asleep(fn1, 1, prio1, PRIO_CPU)) {
		prio_abandon();
		return false;
	}
	complete(&prio_run.gate[0]);
	prio_join_all();
	return true;
}

KTEST_ON_CPU(sched, lowering_running_thread_yields_to_queued_higher, 0)
{
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	KASSERT_TRUE(run_pair(lowers_itself, 50, prio_rt_sleeper, 30));
	/* Woken below the running thread: waits. Then runs first. */
	KEXPECT_GT(prio_run.ticket[1][0], prio_run.ticket[0][0]);
	KEXPECT_LT(prio_run.ticket[1][0], prio_run.ticket[0][1]);
	KEXPECT_EQ(prio_run.prio_after, 10u);
}

/* Priority 50: wakes the priority-30 thread of gate 1, boosts it to 60
 * (it must run at once), then records when it gets cpu1 back. */
static void booster(void *arg)
{
	unsigned int i = (unsigned int)(uptr)arg;

	wait_for_completion(&prio_run.gate[i]);
	complete(&prio_run.gate[1]);
	prio_run.ticket[i][0] = prio_take_ticket();
	thread_boost_priority(prio_run.threads[1], 60);
	prio_run.ticket[i][1] = prio_take_ticket();
}

/* Boosted: notes its priority, drops the boost (falling below the
 * booster, which must then run), and takes a last ticket. */
static void boosted(void *arg)
{
	unsigned int i = (unsigned int)(uptr)arg;

	wait_for_completion(&prio_run.gate[i]);
	prio_run.ticket[i][0] = prio_take_ticket();
	prio_run.prio_seen = thread_priority(current_thread());
	thread_unboost_priority(current_thread());
	prio_run.ticket[i][1] = prio_take_ticket();
	prio_run.prio_after = thread_priority(current_thread());
}

KTEST_ON_CPU(sched, boost_runs_queued_thread_and_unboost_yields, 0)
{
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	KASSERT_TRUE(run_pair(booster, 50, boosted, 30));
	/* booster wakes, boosts; boosted runs; unboosted, it gives way. */
	KEXPECT_EQ(prio_run.ticket[0][0], 1u);
	KEXPECT_EQ(prio_run.ticket[1][0], 2u);
	KEXPECT_EQ(prio_run.ticket[0][1], 3u);
	KEXPECT_EQ(prio_run.ticket[1][1], 4u);
	KEXPECT_EQ(prio_run.prio_seen, 60u);
	KEXPECT_EQ(prio_run.prio_after, 30u);
}

/* Effective = max(base, boost) through every order of changes, on a
 * thread asleep (no scheduling in the way). */
KTEST(sched, boost_is_max_of_base_and_boost)
{
	struct thread *th;

	prio_run_reset();
	th = prio_start_asleep(prio_rt_sleeper, 0, 0, 0);
	KASSERT_TRUE(th != NULL);
	KEXPECT_EQ(thread_boost_priority(th, 60), 0);
	KEXPECT_EQ(thread_priority(th), 60u);
	KEXPECT_EQ(thread_base_priority(th), 0u);
	KEXPECT_EQ(thread_set_priority(th, 40), 0);
	KEXPECT_EQ(thread_priority(th), 60u);
	thread_unboost_priority(th);
	KEXPECT_EQ(thread_priority(th), 40u);
	KEXPECT_EQ(thread_boost_priority(th, 20), 0);
	KEXPECT_EQ(thread_priority(th), 40u);
	thread_unboost_priority(th);
	KEXPECT_EQ(thread_priority(th), 40u);
	KEXPECT_EQ(thread_base_priority(th), 40u);
	prio_abandon();
}

/* --- bad values --- */

/* Whether the newest logged line ends with `want`. */
static bool last_log_line_ends_with(const char *want)
{
	char line[256], last[256] = "";
	size_t cursor = 0, len, wlen = strlen(want);

	while ((len = log_read_line(LOG_RECENT, &cursor, line, sizeof(line))))
		strlcpy(last, line, sizeof(last));
	len = strlen(last);
	while (len && last[len - 1] == '\n')
		last[--len] = '\0';
	return len >= wlen && !strcmp(last + len - wlen, want);
}

KTEST(sched, set_priority_rejects_out_of_range_and_keeps_thread)
{
	char want[160];
	struct thread *th;

	prio_run_reset();
	th = prio_start_asleep(prio_rt_sleeper, 0, 7, 0);
	KASSERT_TRUE(th != NULL);
	KEXPECT_EQ(thread_set_priority(th, 100), -EINVAL);
	ksnprintf(want, sizeof(want), "thread_set_priority(prio_test/%llu): "
		  "priority 100 out of range, expected 0 to 99 (0 normal, "
		  "1..99 real-time FIFO)", th->id);
	KEXPECT_TRUE(last_log_line_ends_with(want));
	KEXPECT_EQ(thread_priority(th), 7u);
	KEXPECT_EQ(thread_base_priority(th), 7u);
	KEXPECT_EQ(thread_boost_priority(th, 0), -EINVAL);
	KEXPECT_EQ(thread_priority(th), 7u);
	KEXPECT_EQ(thread_set_priority(th, 99), 0);
	KEXPECT_EQ(thread_priority(th), 99u);
	prio_abandon();
}

/* --- the balancer --- */

/* Normal, pinned to cpu0: keeps cpu0 busy with normal work only. */
static void normal_spinner(void *arg)
{
	(void)arg;
	while (!READ_ONCE(prio_run.stop))
		arch_cpu_relax();
}

/* Real-time, allowed on cpu0 and cpu1: notes where it ran. */
static void rt_notes_cpu(void *arg)
{
	(void)arg;
	WRITE_ONCE(prio_run.ran_on, this_cpu_id());
	WRITE_ONCE(prio_run.ran, true);
}

/*
 * A priority-40 thread placed on cpu1, behind a priority-60 spinner that
 * holds cpu1 until it has run, while cpu0 runs only normal threads: the
 * pull must take it to cpu0 (at cpu0's next tick). Two normal spinners
 * make cpu0 the busier CPU, so that creation places it on cpu1; if it
 * lands on cpu0 anyway it runs there, and the test says so.
 */
KTEST_ON_CPU(sched, waiting_rt_thread_is_pulled_to_normal_cpu, 0)
{
	struct cpumask both;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	prio_run_reset();
	if (!prio_start(prio_spin_until_ran, 0, 60, PRIO_CPU, NULL) ||
	    !prio_start(normal_spinner, 1, 0, 0, NULL) ||
	    !prio_start(normal_spinner, 2, 0, 0, NULL)) {
		prio_fail_out_of_memory(t);
		return;
	}
	while (!READ_ONCE(prio_run.started[0]))
		sleep_ms(1);
	cpumask_clear(&both);
	cpumask_set(&both, 0);
	cpumask_set(&both, PRIO_CPU);
	if (!prio_start(rt_notes_cpu, 3, 40, 0, &both)) {
		prio_fail_out_of_memory(t);
		return;
	}
	KEXPECT_TRUE(prio_wait_ran());
	prio_abandon();
	KEXPECT_EQ(prio_run.ran_on, 0u);
}
