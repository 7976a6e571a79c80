/*
 * RCU's update side: grace-period latency (normal and expedited, with the
 * other CPUs idle and with each running a CPU-bound thread; and SRCU's,
 * which never waits for a CPU to schedule), the cost of queueing a
 * callback, callback throughput, and kfree_rcu().
 */
#include "bench.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/srcu.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"

#define GP_SAMPLES		50u
#define CALLBACKS		20000u

static void time_waits(struct bench_run *b, const char *figure,
		       void (*wait)(void))
{
	static u64 samples[GP_SAMPLES];
	unsigned int i, n = b->quick ? 3 : GP_SAMPLES;

	for (i = 0; i < n; i++) {
		u64 start = clock_ns();

		wait();
		samples[i] = (clock_ns() - start) / 1000;
		sleep_ms(1);
	}
	bench_report(b, figure, "us", samples, n);
}

DEFINE_STATIC_SRCU(bench_srcu);

static void bench_synchronize_srcu(void)
{
	synchronize_srcu(&bench_srcu);
}

static void bench_synchronize_srcu_expedited(void)
{
	synchronize_srcu_expedited(&bench_srcu);
}

BENCH(grace_period)
{
	time_waits(b, "synchronize_kernel idle", synchronize_kernel);
	time_waits(b, "synchronize_rcu_expedited idle",
		   synchronize_rcu_expedited);
	time_waits(b, "synchronize_srcu idle", bench_synchronize_srcu);
	time_waits(b, "synchronize_srcu_expedited idle",
		   bench_synchronize_srcu_expedited);
	bench_start_spinners();
	time_waits(b, "synchronize_kernel loaded", synchronize_kernel);
	time_waits(b, "synchronize_rcu_expedited loaded",
		   synchronize_rcu_expedited);
	time_waits(b, "synchronize_srcu loaded", bench_synchronize_srcu);
	bench_stop_spinners();
}

static void count_invoked(void *arg)
{
	(*(u64 *)arg)++;	/* callbacks of one CPU run in order, there */
}

static void free_object(void *arg)
{
	kfree(arg);
}

/* One callback per object, as kfree_rcu() was before it batched. */
static void queue_free_by_callback(struct rcu_head *obj)
{
	call_rcu(obj, free_object, obj);
}

/* Into this CPU's block: one callback per about 500 objects. */
static void queue_free_batched(struct rcu_head *obj)
{
	kfree_rcu_head(obj, obj);
}

/* The cost per object of allocating it and handing it to `queue`, which
 * frees it after a grace period; rcu_barrier() between samples. */
static void time_frees(struct bench_run *b, const char *figure,
		       unsigned int count,
		       void (*queue)(struct rcu_head *obj))
{
	u64 ns[32];
	unsigned int r, i, n = b->repeats < 32 ? b->repeats : 32;

	for (r = 0; r < n; r++) {
		u64 start = clock_ns();

		for (i = 0; i < count; i++) {
			struct rcu_head *obj = kmalloc(sizeof(*obj));

			if (!obj)
				break;
			queue(obj);
		}
		ns[r] = (clock_ns() - start) / count;
		rcu_barrier();
	}
	bench_report(b, figure, "ns/call", ns, n);
}

BENCH(call_rcu)
{
	static struct rcu_head heads[CALLBACKS];
	u64 queue_ns[32], rate[32], invoked = 0;
	unsigned int r, i, n = b->repeats < 32 ? b->repeats : 32;
	unsigned int count = b->quick ? 100 : CALLBACKS;

	for (r = 0; r < n; r++) {
		u64 start, queued, done;

		/* On one CPU, so that count_invoked() runs only there. */
		preempt_disable();
		start = clock_ns();
		for (i = 0; i < count; i++)
			call_rcu(&heads[i], count_invoked, &invoked);
		queued = clock_ns();
		preempt_enable();
		rcu_barrier();
		done = clock_ns();
		queue_ns[r] = (queued - start) / count;
		rate[r] = (u64)count * NSEC_PER_SEC / (done - start);
	}
	bench_report(b, "call_rcu cost", "ns/call", queue_ns, n);
	bench_report(b, "callback throughput", "callbacks/s", rate, n);
	time_frees(b, "kmalloc + call_rcu(kfree)", count, queue_free_by_callback);
	time_frees(b, "kmalloc + kfree_rcu (batched)", count,
		   queue_free_batched);
}
