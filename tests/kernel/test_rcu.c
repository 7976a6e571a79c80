/*
 * The rcu suite: each test is built to fail on an RCU that ends grace
 * periods too early, forgets callbacks, or needs a CPU to schedule when
 * it never will.
 */
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/stats.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/random.h"
#include "lib/sort.h"

#define OBJ_MAGIC	0x5eed5eedu
#define OBJ_POISON	0xdeadbeefu

struct obj {
	u32 magic;
	bool freed;
	struct rcu_head rcu;
};

struct reader_hold {
	struct obj __rcu **slot;
	unsigned int hold_ms;
	bool inside;		/* reader has the object and is holding it */
	bool done;
	bool saw_poison;
};

static struct obj __rcu *shared_obj;

/* Hold a reference across hold_ms of busy time inside one section. */
static void hold_reader(void *arg)
{
	struct reader_hold *h = arg;
	struct obj *o;
	u64 end;

	rcu_read_lock();
	o = rcu_dereference(*h->slot);
	WRITE_ONCE(h->inside, true);
	end = clock_ns() + h->hold_ms * NSEC_PER_MSEC;
	while (clock_ns() < end) {
		if (READ_ONCE(o->magic) != OBJ_MAGIC || READ_ONCE(o->freed))
			WRITE_ONCE(h->saw_poison, true);
		arch_cpu_relax();
	}
	WRITE_ONCE(h->inside, false);
	rcu_read_unlock();
	WRITE_ONCE(h->done, true);
}

static struct reader_hold *freed_while_held;
static bool callback_ran_early;

static void poison_and_free(void *arg)
{
	struct obj *o = arg;

	if (freed_while_held && READ_ONCE(freed_while_held->inside))
		WRITE_ONCE(callback_ran_early, true);
	o->magic = OBJ_POISON;
	o->freed = true;
	kfree(o);
}

KTEST(rcu, call_rcu_waits_for_reader)
{
	struct obj *old = kzalloc(sizeof(*old)), *new = kzalloc(sizeof(*new));
	struct reader_hold h = { .slot = &shared_obj, .hold_ms = 30 };
	struct thread *reader;

	KASSERT_TRUE(old && new);
	old->magic = new->magic = OBJ_MAGIC;
	rcu_assign_pointer(shared_obj, old);
	freed_while_held = &h;
	callback_ran_early = false;
	reader = thread_create_on(hold_reader, &h, "rcu_holder",
				  nr_cpus_online > 1 ? 1 : 0);
	KASSERT_TRUE(reader != NULL);
	while (!READ_ONCE(h.inside) && !READ_ONCE(h.done))
		yield();
	rcu_assign_pointer(shared_obj, new);
	call_rcu(&old->rcu, poison_and_free, old);
	thread_join(reader);
	rcu_barrier();
	KEXPECT_FALSE(h.saw_poison);
	KEXPECT_FALSE(callback_ran_early);
	freed_while_held = NULL;
	RCU_INIT_POINTER(shared_obj, NULL);
	kfree(new);
}

/* Readers on every CPU announce entry and exit with a generation count;
 * a writer snapshots who is inside, waits, and checks all have left. */
struct gp_readers {
	bool stop;
	unsigned long sections;
};

static struct gp_readers gpr;
static DEFINE_PERCPU_ARRAY(unsigned long, gp_gen);	/* odd: in a section */
static DEFINE_PERCPU_ARRAY(unsigned long, gp_snap);
static DEFINE_PERCPU_ARRAY(struct thread *, gp_threads);

static void busy_ns(u64 ns)
{
	u64 end = clock_ns() + ns;

	while (clock_ns() < end)
		arch_cpu_relax();
}

static void gp_reader(void *arg)
{
	unsigned int cpu = (unsigned int)(uptr)arg;
	struct prng rng;

	prng_seed(&rng, cpu + 1);
	while (!READ_ONCE(gpr.stop)) {
		rcu_read_lock();
		WRITE_ONCE(gp_gen[cpu], gp_gen[cpu] + 1);
		busy_ns(prng_below(&rng, 200) * NSEC_PER_USEC);
		WRITE_ONCE(gp_gen[cpu], gp_gen[cpu] + 1);
		rcu_read_unlock();
		atomic_add_relaxed(&gpr.sections, 1);
		if (prng_below(&rng, 8) == 0)
			sleep_ms(1);
	}
}

static unsigned int run_wait_checks(struct ktest_context *t, void (*wait)(void),
				    unsigned int rounds)
{
	unsigned int cpu, r, bad = 0, n = nr_cpus_online;

	gpr.stop = false;
	for (cpu = 0; cpu < n; cpu++) {
		gp_threads[cpu] = thread_create_on(gp_reader, (void *)(uptr)cpu,
						   "rcu_reader", cpu);
		KTEST_CHECK_BOOL(t, gp_threads[cpu] != NULL,
				 "gp_threads[cpu] != NULL", true, return 1);
	}
	for (r = 0; r < rounds; r++) {
		for (cpu = 0; cpu < n; cpu++)
			gp_snap[cpu] = READ_ONCE(gp_gen[cpu]);
		wait();
		for (cpu = 0; cpu < n; cpu++)
			if ((gp_snap[cpu] & 1) &&
			    READ_ONCE(gp_gen[cpu]) == gp_snap[cpu])
				bad++;
	}
	WRITE_ONCE(gpr.stop, true);
	for (cpu = 0; cpu < n; cpu++)
		thread_join(gp_threads[cpu]);
	return bad;
}

/*
 * Rounds shrink as CPUs grow: every vCPU is a host thread on two host
 * cores, so past -smp 4 each grace period waits for the host to run all
 * of them, and a fixed count would only measure the host's scheduler.
 */
static unsigned int scaled_rounds(unsigned int at_four_cpus)
{
	unsigned int cpus = nr_cpus_online > 4 ? nr_cpus_online : 4;

	return MAX(at_four_cpus * 4 / cpus, 10u);
}

KTEST_TIMEOUT(rcu, synchronize_kernel_waits_for_readers, 120000)
{
	KEXPECT_EQ(run_wait_checks(t, synchronize_kernel, scaled_rounds(200)),
		   0u);
	KEXPECT_GT(READ_ONCE(gpr.sections), 0ul);
}

KTEST_TIMEOUT(rcu, expedited_waits_for_readers, 120000)
{
	KEXPECT_EQ(run_wait_checks(t, synchronize_rcu_expedited,
				   scaled_rounds(500)), 0u);
}

static u64 median_latency(void (*wait)(void), unsigned int samples,
			  u64 *p99)
{
	static u64 ns[200];
	unsigned int i;

	for (i = 0; i < samples; i++) {
		u64 start = clock_ns();

		wait();
		ns[i] = clock_ns() - start;
		sleep_ms(1);
	}
	sort_u64(ns, samples);
	*p99 = percentile_u64(ns, samples, 99);
	return percentile_u64(ns, samples, 50);
}

/* The other CPUs are idle: a grace period must not wait for them. The
 * figures are printed on every attempt. */
static bool measure_idle_latency(struct ktest_context *t, bool last)
{
	unsigned int samples = nr_cpus_online > 8 ? 20 : 100;
	u64 tick_ns = NSEC_PER_SEC / hz, p99, p99x;
	u64 med = median_latency(synchronize_kernel, samples, &p99);
	u64 medx = median_latency(synchronize_rcu_expedited, samples, &p99x);
	bool ok;

	console_printf("    # synchronize_kernel: median %llu us, p99 %llu us; "
		       "expedited: median %llu us, p99 %llu us; tick %llu us\n",
		       med / 1000, p99 / 1000, medx / 1000, p99x / 1000,
		       tick_ns / 1000);
	/* Past 8 vCPUs on two host cores the figures measure how long the
	 * host takes to run every vCPU once; they are printed, not judged. */
	if (nr_cpus_online > 8)
		return true;
	ok = med <= 2 * tick_ns && medx < tick_ns / 10;
	if (!ok && last) {
		KEXPECT_LE(med, 2 * tick_ns);
		KEXPECT_LT(medx, tick_ns / 10);
	}
	return ok;
}

KTEST_TIMEOUT(rcu, grace_period_latency_idle, 120000)
{
	ktest_timing(t, measure_idle_latency);
}

static bool spinner_stop;

static void cpu_bound(void *unused)
{
	(void)unused;
	while (!READ_ONCE(spinner_stop))
		arch_cpu_relax();
}

/* A CPU that never schedules on its own must still let grace periods
 * end: it is nudged. Without nudges the grace periods never end (the
 * watchdog and the stall warning catch that); how fast they end is
 * judged only with ktest.timing=1. */
KTEST_TIMEOUT(rcu, grace_period_ends_despite_cpu_bound_thread, 120000)
{
	/* 20 grace periods, each a tick or two, bounded at 50 for host noise; past
	 * 2 vCPUs the host's own scheduling of them adds the rest. */
	u64 allowed = 20 * 50 * (u64)MAX(nr_cpus_online / 2, 1u) *
		      NSEC_PER_SEC / hz;
	struct thread *spin;
	u64 start, took;
	unsigned int i;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	spinner_stop = false;
	spin = thread_create_on(cpu_bound, NULL, "spinner", 1);
	KASSERT_TRUE(spin != NULL);
	sleep_ms(5);
	start = clock_ns();
	for (i = 0; i < 20; i++)
		synchronize_kernel();
	took = clock_ns() - start;
	WRITE_ONCE(spinner_stop, true);
	thread_join(spin);
	console_printf("    # 20 grace periods beside a CPU-bound thread: %llu us\n",
		       took / 1000);
	if (ktest_judge_timing)
		KEXPECT_LT(took, allowed);
}

KTEST(rcu, polled_grace_periods)
{
	unsigned long cookie = get_state_synchronize_rcu();

	KEXPECT_FALSE(poll_state_synchronize_rcu(cookie));
	synchronize_rcu();
	KEXPECT_TRUE(poll_state_synchronize_rcu(cookie));
	cookie = get_state_synchronize_rcu();
	cond_synchronize_rcu(cookie);
	KEXPECT_TRUE(poll_state_synchronize_rcu(cookie));
}

static unsigned int barrier_count;

static void count_callback(void *unused)
{
	(void)unused;
	atomic_add_relaxed(&barrier_count, 1);
}

struct cpu_barrier_heads {
	struct rcu_head h[16];
};

static DEFINE_PERCPU_ARRAY(struct cpu_barrier_heads, barrier_heads);

KTEST_EACH_CPU(rcu, barrier_waits_for_callbacks)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		call_rcu(&barrier_heads[t->cpu].h[i], count_callback, NULL);
}

KTEST(rcu, barrier_saw_every_callback)
{
	rcu_barrier();
	KEXPECT_EQ(READ_ONCE(barrier_count), 16 * nr_cpus_online);
	/* Every callback has run: the shell's `test` may run us again. */
	WRITE_ONCE(barrier_count, 0);
}

KTEST(rcu, kfree_rcu_frees)
{
	struct kmalloc_class_stats before[KMALLOC_NR_CLASSES];
	struct kmalloc_class_stats after[KMALLOC_NR_CLASSES];
	unsigned int i;
	u64 freed = 0;

	kmalloc_get_stats(before);
	for (i = 0; i < 100; i++) {
		struct obj *o = kzalloc(sizeof(*o));

		KASSERT_TRUE(o != NULL);
		kfree_rcu(o, rcu);
	}
	rcu_barrier();
	kmalloc_get_stats(after);
	for (i = 0; i < KMALLOC_NR_CLASSES; i++)
		freed += after[i].frees - before[i].frees;
	KEXPECT_GE(freed, 100ull);
}

/* A million callbacks from every CPU at once: each runs exactly once,
 * and grace periods keep ending while the flood lasts. The rcu_heads are
 * allocated up front, in chunks, so the test measures RCU and not the
 * allocator's lock under contention. A machine with little memory gets
 * a smaller flood: at most a quarter of its free memory, in chunks of
 * whole pages (a chunk rounded up to a power of two of pages would waste
 * up to half). */
#define FLOOD_MAX	1000000u
#define FLOOD_MIN	10000u
#define FLOOD_CHUNK_BYTES	(PAGE_SIZE << 6)
#define FLOOD_CHUNK	(FLOOD_CHUNK_BYTES / sizeof(struct flood_obj))
#define FLOOD_TIMEOUT_MS	120000

struct flood_obj {
	struct rcu_head rcu;
	u32 index;
};

static u8 *flood_seen;
static unsigned int flood_total, flood_dup, flood_producers_done;
static struct flood_obj *flood_chunks[DIV_ROUND_UP(FLOOD_MAX, FLOOD_CHUNK)];

static void flood_callback(void *arg)
{
	struct flood_obj *o = arg;

	if (atomic_fetch_add(&flood_seen[o->index], 1))
		atomic_add_relaxed(&flood_dup, 1);
}

static void flood_free(void)
{
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(flood_chunks); c++) {
		kfree(flood_chunks[c]);
		flood_chunks[c] = NULL;
	}
	kfree(flood_seen);
	flood_seen = NULL;
}

/* As many callbacks as a quarter of free memory holds, up to FLOOD_MAX. */
static unsigned int flood_size(void)
{
	struct page_alloc_stats ps;
	u64 fits;

	page_alloc_get_stats(&ps);
	fits = ps.free_pages * PAGE_SIZE / 4 / (sizeof(struct flood_obj) + 1);
	return fits < FLOOD_MAX ? (unsigned int)fits : FLOOD_MAX;
}

KTEST(rcu, flood_setup)
{
	unsigned int c;

	/* Past 8 vCPUs on two host cores the flood outlasts its watchdog
	 * for want of host time, not of RCU's progress. */
	if (nr_cpus_online > 8)
		KTEST_SKIP("flood sized for up to 8 vCPUs");
	flood_total = flood_size();
	if (flood_total < FLOOD_MIN)
		KTEST_SKIP("not enough free memory for a flood of 10000 "
			   "callbacks");
	console_printf("    # a flood of %u callbacks\n", flood_total);
	flood_seen = kzalloc(flood_total);
	for (c = 0; flood_seen && c < DIV_ROUND_UP(flood_total, FLOOD_CHUNK);
	     c++) {
		flood_chunks[c] = kmalloc(FLOOD_CHUNK_BYTES);
		if (!flood_chunks[c])
			break;
	}
	if (!flood_seen || c < DIV_ROUND_UP(flood_total, FLOOD_CHUNK)) {
		flood_free();
		KTEST_FAIL("out of memory for %u callbacks", flood_total);
		return;
	}
	flood_dup = 0;
	flood_producers_done = 0;
}

KTEST_DEFINE(rcu, flood_callbacks_from_every_cpu, KTEST_EACH_CPU_MARK,
	     FLOOD_TIMEOUT_MS, false, KTEST_NEEDS_TEST(rcu, flood_setup))
{
	unsigned int share = flood_total / nr_cpus_online;
	unsigned int first = t->cpu * share, i;

	if (t->cpu == (int)nr_cpus_online - 1)
		share = flood_total - first;
	for (i = first; i < first + share; i++) {
		struct flood_obj *o = &flood_chunks[i / FLOOD_CHUNK][i % FLOOD_CHUNK];

		o->index = i;
		call_rcu(&o->rcu, flood_callback, o);
		if ((i & 4095) == 0)
			yield();
	}
	atomic_fetch_add(&flood_producers_done, 1);
}

KTEST_NEEDS(rcu, flood_callbacks_all_invoked_once,
	    flood_callbacks_from_every_cpu)
{
	struct rcu_stats before, after;
	unsigned int i, missing = 0;

	/* Acquire: pairs with the producers' fully ordered increments,
	 * so every call_rcu() of theirs is done before the barrier. */
	KASSERT_EQ(smp_load_acquire(&flood_producers_done),
		   nr_cpus_online);
	rcu_get_stats(&before);
	rcu_barrier();
	rcu_get_stats(&after);
	for (i = 0; i < flood_total; i++)
		missing += flood_seen[i] == 0;
	KEXPECT_EQ(missing, 0u);
	KEXPECT_EQ(READ_ONCE(flood_dup), 0u);
	KEXPECT_GT(after.gps_completed, before.gps_completed);
	/* Only when every callback has run may the memory go. */
	flood_free();
}
