/*
 * The sched suite, priorities (1): real-time FIFO threads before normal
 * ones, FIFO among equals, preemption on a wake-up; and the run of
 * threads that all the priority tests use (test_sched_prio.h).
 */
#include "test_sched_prio.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/string.h"

struct prio_run prio_run;

/* Tickets are taken on different CPUs; the atomic makes them a total
 * order of the points where they were taken. */
unsigned int prio_take_ticket(void)
{
	return atomic_add_return(&prio_run.next_ticket, 1);
}

void prio_run_reset(void)
{
	unsigned int i;

	memset(&prio_run, 0, sizeof(prio_run));
	for (i = 0; i < PRIO_THREADS; i++)
		init_completion(&prio_run.gate[i]);
}

/* Start fn(i) pinned to cpu at prio, or on any of `allowed` if given. */
struct thread *prio_start(thread_fn fn, unsigned int i, unsigned int prio,
			  unsigned int cpu, const struct cpumask *allowed)
{
	struct thread *th = allowed ?
		thread_create_mask(fn, (void *)(uptr)i, "prio_test", allowed) :
		thread_create_on(fn, (void *)(uptr)i, "prio_test", cpu);

	if (th) {
		thread_set_priority(th, prio);
		prio_run.threads[prio_run.nr_threads++] = th;
	}
	return th;
}

/* Wait until th sleeps (on its gate): then a wake-up is what makes it
 * runnable, the event each test is about. */
static void wait_asleep(struct thread *th)
{
	while (READ_ONCE(th->state) != THREAD_SLEEPING)
		sleep_ms(1);
}

/* prio_start() a thread whose first act is to sleep, and wait for that. */
struct thread *prio_start_asleep(thread_fn fn, unsigned int i,
				 unsigned int prio, unsigned int cpu)
{
	struct thread *th = prio_start(fn, i, prio, cpu, NULL);

	if (th)
		wait_asleep(th);
	return th;
}

/* Join the test's threads, which end by themselves. */
void prio_join_all(void)
{
	unsigned int i;

	for (i = 0; i < prio_run.nr_threads; i++)
		thread_join(prio_run.threads[i]);
	prio_run.nr_threads = 0;
}

/* End every spin, open every gate, join every thread: the way out of a
 * test that failed half-way, or whose spinners wait for a flag. */
void prio_abandon(void)
{
	unsigned int i;

	WRITE_ONCE(prio_run.stop, true);
	for (i = 0; i < PRIO_THREADS; i++)
		complete_all(&prio_run.gate[i]);
	prio_join_all();
}

void prio_fail_out_of_memory(struct ktest_context *t)
{
	prio_abandon();
	KTEST_FAIL("out of memory for the test's threads");
}

/* Wait for prio_run.ran, which only the behaviour under test lets happen;
 * false after PRIO_GIVE_UP_MS. */
bool prio_wait_ran(void)
{
	u64 give_up = clock_ns() + PRIO_GIVE_UP_MS * NSEC_PER_MSEC;

	while (!READ_ONCE(prio_run.ran) && clock_ns() < give_up)
		sleep_ms(1);
	return READ_ONCE(prio_run.ran);
}
/* --- a wake-up on a CPU where normal threads run --- */

void prio_rt_sleeper(void *arg)
{
	unsigned int i = (unsigned int)(uptr)arg;

	wait_for_completion(&prio_run.gate[i]);
	prio_run.ticket[i][0] = prio_take_ticket();
}

/* At whatever priority it was given: marks itself started, spins until
 * prio_run.ran, takes a ticket. As a normal thread, it is queued behind the
 * waker when the wake-up comes; as a real-time one below the sleeper, it
 * holds its CPU until the sleeper preempts it. */
void prio_spin_until_ran(void *arg)
{
	unsigned int i = (unsigned int)(uptr)arg;

	WRITE_ONCE(prio_run.started[i], true);
	while (!READ_ONCE(prio_run.ran) && !READ_ONCE(prio_run.stop))
		arch_cpu_relax();
	prio_run.ticket[i][0] = prio_take_ticket();
}

/* Normal: wakes the real-time thread of gate 0 once the bystander runs,
 * with a ticket just before and just after. */
static void normal_waker(void *arg)
{
	unsigned int i = (unsigned int)(uptr)arg;

	while (!READ_ONCE(prio_run.started[1]) && !READ_ONCE(prio_run.stop))
		arch_cpu_relax();
	/* No preemption between freeing the bystander and the wake-up: a
	 * slice ending there would let the bystander record first. The
	 * wake-up's reschedule happens at preempt_enable(). */
	preempt_disable();
	prio_run.ticket[i][0] = prio_take_ticket();
	WRITE_ONCE(prio_run.ran, true);
	complete(&prio_run.gate[0]);
	preempt_enable();
	prio_run.ticket[i][1] = prio_take_ticket();
}

/* The real-time thread runs between the waker's two tickets: neither
 * the waker (no reschedule on the wake-up) nor the normal thread queued
 * ahead of it (a real-time thread queued behind normal ones) gets to
 * record anything first. */
KTEST_ON_CPU(sched, rt_wakeup_runs_before_normal_threads, 0)
{
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	prio_run_reset();
	if (!prio_start_asleep(prio_rt_sleeper, 0, 50, PRIO_CPU) ||
	    !prio_start(prio_spin_until_ran, 1, 0, PRIO_CPU, NULL) ||
	    !prio_start(normal_waker, 2, 0, PRIO_CPU, NULL)) {
		prio_fail_out_of_memory(t);
		return;
	}
	prio_join_all();
	KEXPECT_EQ(prio_run.ticket[0][0], prio_run.ticket[2][0] + 1);
	KEXPECT_GT(prio_run.ticket[2][1], prio_run.ticket[0][0]);
	KEXPECT_GT(prio_run.ticket[1][0], prio_run.ticket[0][0]);
}

/* --- FIFO among equals --- */

#define FIFO_EQUALS	3

/* An equal: a ticket, a yield (behind its equals), a ticket. */
static void fifo_equal(void *arg)
{
	unsigned int i = (unsigned int)(uptr)arg;

	wait_for_completion(&prio_run.gate[i]);
	prio_run.ticket[i][0] = prio_take_ticket();
	yield();
	prio_run.ticket[i][1] = prio_take_ticket();
}

/* Above the equals: wakes them in order, so all three are queued before
 * any runs. */
static void fifo_waker(void *arg)
{
	unsigned int i = (unsigned int)(uptr)arg, e;

	wait_for_completion(&prio_run.gate[i]);
	for (e = 0; e < FIFO_EQUALS; e++)
		complete(&prio_run.gate[e]);
}

/* Woken in the order 0, 1, 2 at one priority, each runs until it yields,
 * and a yield puts it behind the others: 0 1 2 0 1 2. */
KTEST_ON_CPU(sched, rt_equals_run_fifo_and_yield_behind_each_other, 0)
{
	unsigned int e;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	prio_run_reset();
	for (e = 0; e < FIFO_EQUALS; e++)
		if (!prio_start_asleep(fifo_equal, e, 30, PRIO_CPU))
			break;
	if (e < FIFO_EQUALS ||
	    !prio_start_asleep(fifo_waker, FIFO_EQUALS, 40, PRIO_CPU)) {
		prio_fail_out_of_memory(t);
		return;
	}
	complete(&prio_run.gate[FIFO_EQUALS]);
	prio_join_all();
	for (e = 0; e < FIFO_EQUALS; e++) {
		KEXPECT_EQ(prio_run.ticket[e][0], e + 1);
		KEXPECT_EQ(prio_run.ticket[e][1], FIFO_EQUALS + e + 1);
	}
}

/* --- a higher real-time priority preempts a lower one --- */

static void rt_sleeper_flags(void *arg)
{
	prio_rt_sleeper(arg);
	WRITE_ONCE(prio_run.ran, true);
}

/* Woken from cpu0, a priority-20 thread preempts a priority-10 spinner
 * on cpu1 at once: no slice ends a real-time thread's turn, so without
 * the reschedule IPI the spinner would hold cpu1 until the test gives
 * up. */
KTEST_ON_CPU(sched, rt_wakeup_preempts_lower_rt_on_other_cpu, 0)
{
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	prio_run_reset();
	if (!prio_start_asleep(rt_sleeper_flags, 0, 20, PRIO_CPU) ||
	    !prio_start(prio_spin_until_ran, 1, 10, PRIO_CPU, NULL)) {
		prio_fail_out_of_memory(t);
		return;
	}
	while (!READ_ONCE(prio_run.started[1]))
		sleep_ms(1);
	complete(&prio_run.gate[0]);
	KEXPECT_TRUE(prio_wait_ran());
	prio_abandon();
	KEXPECT_LT(prio_run.ticket[0][0], prio_run.ticket[1][0]);
}
