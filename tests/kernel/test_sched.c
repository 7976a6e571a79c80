/*
 * The sched suite: threads, preemption, fairness, sleeping, wake-ups.
 * Each test is built to fail on the scheduler bug it names.
 */
#include "kernel/mm/kasan.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "kernel/time.h"
#include "lib/sort.h"
#include "lib/string.h"

/* Two threads on two CPUs hand a token back and forth: a wake-up that
 * is lost, or delivered to the wrong CPU's queue, hangs the exchange. */
#define PING_ROUNDS	500u

struct ping {
	struct completion to[2];
	unsigned int rounds_done[2];
	u64 latency_ns[PING_ROUNDS];
	u64 sent_at;
};

static struct ping ping;

static void ping_side(void *arg)
{
	unsigned int me = (unsigned int)(uptr)arg, i;

	for (i = 0; i < PING_ROUNDS; i++) {
		if (me == 1) {
			wait_for_completion(&ping.to[1]);
			ping.latency_ns[i] = clock_ns() - READ_ONCE(ping.sent_at);
			complete(&ping.to[0]);
		} else {
			WRITE_ONCE(ping.sent_at, clock_ns());
			complete(&ping.to[1]);
			wait_for_completion(&ping.to[0]);
		}
		ping.rounds_done[me]++;
	}
}

KTEST_TIMEOUT(sched, ping_pong_between_two_cpus, 120000)
{
	struct thread *a, *b;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	/* From zero, also when the shell's `test` runs us again. */
	memset(ping.rounds_done, 0, sizeof(ping.rounds_done));
	init_completion(&ping.to[0]);
	init_completion(&ping.to[1]);
	a = thread_create_on(ping_side, (void *)0, "ping", 0);
	b = thread_create_on(ping_side, (void *)1, "pong", 1);
	KASSERT_TRUE(a && b);
	thread_join(a);
	thread_join(b);
	KEXPECT_EQ(ping.rounds_done[0], PING_ROUNDS);
	KEXPECT_EQ(ping.rounds_done[1], PING_ROUNDS);
	sort_u64(ping.latency_ns, PING_ROUNDS);
	console_printf("    # cross-CPU wake-up latency: median %llu ns, p10 %llu, "
		       "p90 %llu\n", percentile_u64(ping.latency_ns, PING_ROUNDS, 50),
		       percentile_u64(ping.latency_ns, PING_ROUNDS, 10),
		       percentile_u64(ping.latency_ns, PING_ROUNDS, 90));
}

/* Context-switch cost: two threads on one CPU yielding to each other. */
static bool yield_stop;
static u64 yields[2];

static void yielder(void *arg)
{
	unsigned int me = (unsigned int)(uptr)arg;

	while (!READ_ONCE(yield_stop)) {
		yields[me]++;
		yield();
	}
}

/* Timing-based checks mean something only while every vCPU has a host
 * core: past -smp 2 (two host cores) they measure the host's scheduler. */
#define TIMING_MAX_CPUS	2

/* Both threads must get through their yields; the time they take is a
 * figure, printed, and judged only as progress. */
#define YIELDS_WANTED	1000ull

KTEST(sched, context_switch_cost)
{
	struct thread *a, *b;
	u64 start, ns;

	yield_stop = false;
	yields[0] = yields[1] = 0;
	a = thread_create_on(yielder, (void *)0, "yield_a", 0);
	b = thread_create_on(yielder, (void *)1, "yield_b", 0);
	KASSERT_TRUE(a && b);
	start = clock_ns();
	/* Bounded by the counts: a scheduler that never switches back hangs
	 * here, and the watchdog reports it. */
	while (READ_ONCE(yields[0]) < YIELDS_WANTED ||
	       READ_ONCE(yields[1]) < YIELDS_WANTED)
		sleep_ms(10);
	ns = clock_ns() - start;
	WRITE_ONCE(yield_stop, true);
	thread_join(a);
	thread_join(b);
	KEXPECT_GE(yields[0], YIELDS_WANTED);
	KEXPECT_GE(yields[1], YIELDS_WANTED);
	console_printf("    # context switch (yield between two threads on cpu0): "
		       "%llu ns each\n", ns / (yields[0] + yields[1]));
}

/* A thread spinning with preemption enabled must be preempted, so a
 * second thread bound to the same CPU runs. */
#define PREEMPT_PROGRESS_WANTED	1000ull

static bool spin_stop;
static u64 other_progress;

static void spin_forever(void *unused)
{
	(void)unused;
	while (!READ_ONCE(spin_stop))
		arch_cpu_relax();
}

static void make_progress(void *unused)
{
	(void)unused;
	while (!READ_ONCE(spin_stop))
		WRITE_ONCE(other_progress, other_progress + 1);
}

KTEST(sched, busy_thread_is_preempted)
{
	unsigned int cpu = nr_cpus_online - 1;
	struct thread *s, *p;

	spin_stop = false;
	other_progress = 0;
	s = thread_create_on(spin_forever, NULL, "spinner", cpu);
	p = thread_create_on(make_progress, NULL, "progress", cpu);
	KASSERT_TRUE(s && p);
	/* Until the second thread has run, however long the host takes:
	 * without preemption it never does, and the watchdog says so. */
	while (READ_ONCE(other_progress) < PREEMPT_PROGRESS_WANTED)
		sleep_ms(10);
	WRITE_ONCE(spin_stop, true);
	thread_join(s);
	thread_join(p);
	KEXPECT_GT(other_progress, 0ull);
}

/* Four CPU-bound threads per CPU: each should get 25 % of a CPU. */
#define FAIR_PER_CPU	4
#define FAIR_MS		1000

static bool fair_stop;

static void fair_spin(void *unused)
{
	(void)unused;
	while (!READ_ONCE(fair_stop))
		arch_cpu_relax();
}

/* One second of FAIR_PER_CPU spinners per CPU. Each must get a fair part
 * of what the spinners got together (at least a quarter of the mean),
 * which holds however much time the host steals from the whole boot:
 * this catches a starved thread. True when each also got its share of
 * the second within 5 points, the speed figure ktest_timing() judges. */
static bool measure_fairness(struct ktest_context *t, bool last)
{
	unsigned int n = FAIR_PER_CPU * nr_cpus_online, i, found = 0, bad = 0;
	u64 total_ns = 0;
	struct thread *threads[FAIR_PER_CPU * TIMING_MAX_CPUS];
	struct thread_info *info = kmalloc(256 * sizeof(*info));
	size_t count;

	if (!info) {
		KTEST_FAIL("no memory for the thread snapshot");
		return true;
	}
	fair_stop = false;
	for (i = 0; i < n; i++) {
		threads[i] = thread_create(fair_spin, NULL, "fair");
		if (!threads[i])
			break;
	}
	n = i;
	sleep_ms(FAIR_MS);
	count = thread_snapshot(info, 256);
	WRITE_ONCE(fair_stop, true);
	for (i = 0; i < n; i++)
		thread_join(threads[i]);
	KEXPECT_EQ(n, FAIR_PER_CPU * nr_cpus_online);
	for (i = 0; i < count; i++)
		if (!strcmp(info[i].name, "fair"))
			total_ns += info[i].run_ns;
	for (i = 0; i < count; i++) {
		u64 pct;

		if (strcmp(info[i].name, "fair"))
			continue;
		found++;
		/* run_ns * n * 4 >= total_ns: at least a quarter of the
		 * mean share of the spinners. */
		if (info[i].run_ns * n * 4 < total_ns)
			KTEST_FAIL("a spinner got %llu us of the %llu us all %u "
				   "got: starved", info[i].run_ns / 1000,
				   total_ns / 1000, n);
		pct = info[i].run_ns * 100 / (FAIR_MS * NSEC_PER_MSEC);
		if (pct >= 20 && pct <= 30)
			continue;
		bad++;
		if (last)
			KTEST_FAIL("a thread got %llu %% of a CPU, expected "
				   "25 %% +- 5", pct);
	}
	kfree(info);
	KEXPECT_EQ(found, n);
	return bad == 0;
}

KTEST_TIMEOUT(sched, fairness, 60000)
{
	if (nr_cpus_online > TIMING_MAX_CPUS)
		KTEST_SKIP("timing past -smp 2 measures the host");
	ktest_timing(t, measure_fairness);
}

/* sleep_ms(5) never returns early, and its median overshoot is within
 * three ticks. */
static bool measure_sleep_accuracy(struct ktest_context *t, bool last)
{
	u64 took[21], median, allowed = 5 * NSEC_PER_MSEC + 3 * NSEC_PER_SEC / hz;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(took); i++) {
		u64 start = clock_ns();

		sleep_ms(5);
		took[i] = clock_ns() - start;
		KEXPECT_GE(took[i], 5 * NSEC_PER_MSEC);
	}
	sort_u64(took, ARRAY_SIZE(took));
	median = percentile_u64(took, ARRAY_SIZE(took), 50);
	if (median <= allowed)
		return true;
	if (last)
		KTEST_FAIL("sleep_ms(5) took %llu ns (median), expected at most "
			   "%llu", median, allowed);
	return false;
}

KTEST(sched, sleep_ms_accuracy)
{
	if (nr_cpus_online > TIMING_MAX_CPUS)
		KTEST_SKIP("timing past -smp 2 measures the host");
	ktest_timing(t, measure_sleep_accuracy);
}

/* 100 000 wait/wake pairs across CPUs: a lost wake-up stops the count. */
#define WAKE_PAIRS	100000u

static struct completion wake_c;
static unsigned int wakes_seen;

static void waker(void *unused)
{
	unsigned int i;

	(void)unused;
	for (i = 0; i < WAKE_PAIRS; i++)
		complete(&wake_c);
}

static void waiter(void *unused)
{
	unsigned int i;

	(void)unused;
	for (i = 0; i < WAKE_PAIRS; i++) {
		wait_for_completion(&wake_c);
		WRITE_ONCE(wakes_seen, wakes_seen + 1);
	}
}

KTEST_TIMEOUT(sched, wait_wake_pairs_none_lost, 120000)
{
	struct thread *w, *k;

	init_completion(&wake_c);
	wakes_seen = 0;
	w = thread_create_on(waiter, NULL, "waiter", 0);
	k = thread_create_on(waker, NULL, "waker", nr_cpus_online - 1);
	KASSERT_TRUE(w && k);
	thread_join(k);
	thread_join(w);
	KEXPECT_EQ(READ_ONCE(wakes_seen), WAKE_PAIRS);
}

/* 1 000 threads created and joined give their memory back. */
static void nothing(void *unused)
{
	(void)unused;
}

KTEST_TIMEOUT(sched, thousand_threads_give_memory_back, 120000)
{
	struct page_alloc_stats before, after;
	unsigned int i, live0, pend0, live1, pend1;

	kstack_purge();
	kasan_quarantine_drain();
	page_alloc_get_stats(&before);
	kstack_counts(&live0, &pend0);
	for (i = 0; i < 1000; i++) {
		struct thread *th = thread_create(nothing, NULL, "short");

		KASSERT_TRUE(th != NULL);
		thread_join(th);
	}
	kstack_purge();
	/* Freed thread structures wait in KASAN's quarantine. */
	kasan_quarantine_drain();
	kstack_counts(&live1, &pend1);
	page_alloc_get_stats(&after);
	KEXPECT_EQ(live1, live0);
	KEXPECT_EQ(pend1, 0u);
	/* kmalloc may keep a spare slab per class, and the stack region
	 * keeps the page-table pages it grew. */
	KEXPECT_GE(after.free_pages + 64, before.free_pages);
}

/* Ask for a reschedule just before exiting, so that thread_exit()'s
 * unlock preempts the thread after it is marked dead. */
static void exit_preempted(void *unused)
{
	(void)unused;
	sched_reschedule_ipi();
}

/* A thread preempted on its way out must not be requeued: its joiner
 * frees it once it is off the CPU, and a queue holding it then holds
 * freed (poisoned) memory, which the next pick of that queue trips on.
 * Joiner and exiter share cpu0, so the exit's wake-up queues the joiner
 * ahead of the preempted exiter. */
KTEST_ON_CPU(sched, thread_preempted_in_exit_is_not_requeued, 0)
{
	unsigned int i, threads_before = sched_nr_threads();

	for (i = 0; i < 200; i++) {
		struct thread *th = thread_create_on(exit_preempted, NULL,
						     "exiter", 0);

		KASSERT_TRUE(th != NULL);
		thread_join(th);
		yield();
	}
	KEXPECT_EQ(sched_nr_threads(), threads_before);
}
