/*
 * The two grace-period engines side by side (make bench-engines boots
 * the same kernel with rcu.engine=tree and rcu.engine=classic at each
 * CPU count; every figure names the engine that ran):
 *
 *  - synchronize_rcu() with the other CPUs idle, and over exactly those
 *    calls what one grace period cost: acquisitions of RCU's locks, the
 *    time spent waiting for them, the busiest lock's share, stores to
 *    RCU's shared lines, quiescent-state reports made on idle CPUs, and
 *    ticks taken by the CPUs other than the caller's;
 *  - synchronize_rcu() with a CPU-bound thread on every other CPU;
 *  - callbacks retired per second when every CPU queues its share with
 *    call_rcu() and the caller waits in rcu_barrier().
 *
 * The counts come from rcu_get_stats() before and after the phase and
 * are divided by the grace periods completed in it. They do not depend
 * on how the host schedules the vCPUs; the times do.
 */
#include "bench.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/stats.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"

#define GP_SAMPLES		25u
#define GP_SAMPLES_QUICK	3u
#define CBS_PER_CPU		2000u
#define CBS_PER_CPU_QUICK	50u
#define CB_SAMPLES_MAX		11u

struct phase_counts {
	struct rcu_stats rcu;
	u64 other_ticks;
};

/* Ticks taken by every online CPU but the caller's (the bench thread is
 * pinned to cpu0). Each CPU counts its own in timer_tick(): lock-free
 * reads of other CPUs' counters, untorn but not one instant's. */
static u64 other_cpus_ticks(void)
{
	unsigned int cpu, me = this_cpu_id();
	u64 sum = 0;

	for_each_online_cpu(cpu)
		if (cpu != me)
			sum += READ_ONCE(cpu_area(cpu)->ticks);
	return sum;
}

static void count_now(struct phase_counts *c)
{
	rcu_get_stats(&c->rcu);
	c->other_ticks = other_cpus_ticks();
}

/* n calls of synchronize_rcu(), 1 ms apart (as the grace_period
 * benchmark's), each call's latency in us into samples[]. */
static void time_synchronize(u64 *samples, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 start = clock_ns();

		synchronize_rcu();
		samples[i] = (clock_ns() - start) / 1000;
		sleep_ms(1);
	}
}

/* total / (gps * scale) in hundredths, rounded. */
static u64 per_gp(u64 total, u64 gps, u64 scale)
{
	return (total * 100 + gps * scale / 2) / (gps * scale);
}

/* What the idle phase's calls cost, per grace period completed in it. */
static void report_per_gp(struct bench_run *b, const struct phase_counts *s,
			  const struct phase_counts *e, unsigned int calls)
{
	u64 gps = e->rcu.gps_completed - s->rcu.gps_completed;

	if (!gps) {
		bench_skip(b, "no grace period ended during the calls");
		return;
	}
	bench_report_hundredths(b, "grace periods per call, idle", "per call",
				per_gp(gps, calls, 1), calls);
	bench_report_hundredths(b, "lock acquisitions per GP, idle", "per GP",
				per_gp(e->rcu.lock_acquisitions -
				       s->rcu.lock_acquisitions, gps, 1), gps);
	bench_report_hundredths(b, "lock wait per GP, idle", "us per GP",
				per_gp(e->rcu.lock_wait_ns -
				       s->rcu.lock_wait_ns, gps, 1000), gps);
	bench_report_hundredths(b, "hottest lock acquisitions per GP, idle",
				"per GP",
				per_gp(e->rcu.hottest_lock_acquisitions -
				       s->rcu.hottest_lock_acquisitions, gps, 1),
				gps);
	bench_report_hundredths(b, "shared writes per GP, idle", "per GP",
				per_gp(e->rcu.shared_writes -
				       s->rcu.shared_writes, gps, 1), gps);
	bench_report_hundredths(b, "idle CPU reports per GP, idle", "per GP",
				per_gp(e->rcu.idle_cpu_reports -
				       s->rcu.idle_cpu_reports, gps, 1), gps);
	bench_report_hundredths(b, "other CPUs' ticks per GP, idle", "per GP",
				per_gp(e->other_ticks - s->other_ticks, gps, 1),
				gps);
}

static void time_grace_periods(struct bench_run *b)
{
	static u64 samples[GP_SAMPLES];
	struct phase_counts start, end;
	unsigned int n = b->quick ? GP_SAMPLES_QUICK : GP_SAMPLES;

	count_now(&start);
	time_synchronize(samples, n);
	count_now(&end);
	bench_report(b, "synchronize_rcu idle", "us", samples, n);
	report_per_gp(b, &start, &end, n);

	bench_start_spinners();
	time_synchronize(samples, n);
	bench_stop_spinners();
	bench_report(b, "synchronize_rcu busy", "us", samples, n);
}

static struct {
	unsigned int per_cpu;
	bool go;
} queueing;
static DEFINE_PERCPU_ARRAY(struct rcu_head *, queuer_heads);
static DEFINE_PERCPU_ARRAY(struct thread *, queuers);

static void nop_callback(void *unused)
{
	(void)unused;
}

/* One CPU's share: wait for the start, then queue per_cpu callbacks. */
static void queuer(void *arg)
{
	struct rcu_head *heads = arg;
	unsigned int i;

	/* Acquire: pairs with the release that starts the clock. */
	while (!smp_load_acquire(&queueing.go))
		arch_cpu_relax();
	for (i = 0; i < queueing.per_cpu; i++)
		call_rcu(&heads[i], nop_callback, NULL);
}

/* One sample: every CPU queues its share at once; callbacks retired per
 * second from the start until rcu_barrier() returns. */
static u64 callbacks_per_second(void)
{
	unsigned int cpu, n = 0;
	u64 start, queued;

	/* The last sample's queuers are joined: no one reads go now, and
	 * creating the threads orders this store (and per_cpu) before
	 * their first look. */
	WRITE_ONCE(queueing.go, false);
	for_each_online_cpu(cpu)
		if ((queuers[n] = thread_create_on(queuer, queuer_heads[cpu],
						   "queuer", cpu)))
			n++;
	queued = (u64)n * queueing.per_cpu;
	start = clock_ns();
	/* Release: pairs with the queuers' acquire of go. */
	smp_store_release(&queueing.go, true);
	while (n)
		thread_join(queuers[--n]);
	rcu_barrier();
	return queued * NSEC_PER_SEC / (clock_ns() - start);
}

static void time_callbacks(struct bench_run *b)
{
	u64 rate[CB_SAMPLES_MAX];
	unsigned int cpu, r, n = MIN(b->repeats, CB_SAMPLES_MAX);
	bool allocated = true;

	queueing.per_cpu = b->quick ? CBS_PER_CPU_QUICK : CBS_PER_CPU;
	for_each_online_cpu(cpu) {
		queuer_heads[cpu] = kmalloc(queueing.per_cpu *
					    sizeof(struct rcu_head));
		allocated &= queuer_heads[cpu] != NULL;
	}
	if (allocated) {
		for (r = 0; r < n; r++)
			rate[r] = callbacks_per_second();
		bench_report(b, "callbacks per second, every CPU queueing",
			     "callbacks/s", rate, n);
	} else {
		bench_skip(b, "no memory for every CPU's callbacks");
	}
	for_each_online_cpu(cpu) {
		kfree(queuer_heads[cpu]);	/* kfree(NULL) does nothing */
		queuer_heads[cpu] = NULL;
	}
}

BENCH(engines)
{
	time_grace_periods(b);
	time_callbacks(b);
}
