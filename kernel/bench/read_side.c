/*
 * Read-side cost: what a reader pays to enter and leave its critical
 * section, per iteration of a tight loop, in TSC cycles. Under TCG the TSC
 * follows host time, so these are host cycles spent emulating the loop:
 * compare them with each other (the RCU pair against preempt_disable and
 * the empty loop, SRCU's pair with its two full barriers against both),
 * not with real hardware. In the preemptible flavour rcu_read_lock()
 * counts a per-CPU nesting depth instead of disabling preemption, and
 * the unlock also tests for a slow path: the ratio figure compares the
 * flavours.
 */
#include "bench.h"
#include "arch.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/srcu.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/rwlock.h"
#include "kernel/sched/spinlock.h"

#define READ_SIDE_ITERS		200000u
#define READ_SIDE_QUICK_ITERS	1000u
#define READ_SIDE_SAMPLES	32u

static DEFINE_SPINLOCK(bench_lock);
static DEFINE_RWLOCK(bench_rwlock);
DEFINE_STATIC_SRCU(bench_srcu);

/* The loop's cycles, all iterations, once. The body is pasted into the
 * loop, so no call separates the primitives. */
#define LOOP_CYCLES(iters, enter, leave)				\
	({								\
		unsigned int i, n_iters = (iters);			\
		u64 start = arch_read_tsc();				\
									\
		for (i = 0; i < n_iters; i++) {				\
			enter;						\
			barrier();					\
			leave;						\
		}							\
		arch_read_tsc() - start;				\
	})

static unsigned int loop_iters(const struct bench_run *b)
{
	return b->quick ? READ_SIDE_QUICK_ITERS : READ_SIDE_ITERS;
}

static unsigned int nr_samples(const struct bench_run *b)
{
	return b->repeats < READ_SIDE_SAMPLES ? b->repeats : READ_SIDE_SAMPLES;
}

/* One figure: `repeats` samples of the loop's cycles per iteration. */
#define TIME_READ_SIDE(b, figure, enter, leave)				\
	do {								\
		u64 samples[READ_SIDE_SAMPLES];				\
		unsigned int r, n = nr_samples(b);			\
									\
		for (r = 0; r < n; r++)					\
			samples[r] = LOOP_CYCLES(loop_iters(b), enter, leave) \
				     / loop_iters(b);			\
		bench_report(b, figure, "cycles/iter", samples, n);	\
	} while (0)

/*
 * The RCU pair against the preempt_disable/enable pair, timed back to
 * back and divided sample by sample: the two flavours' kernels are two
 * boots, and on a shared TCG host one boot may run slower than the
 * other throughout, so their cycle counts compare less well than each
 * boot's ratio to a reference timed beside it. Whole loops are divided,
 * not cycles per iteration, which round to a few units.
 */
static void time_rcu_over_preempt(struct bench_run *b)
{
	u64 ratio[READ_SIDE_SAMPLES];
	unsigned int r, n = nr_samples(b);

	for (r = 0; r < n; r++) {
		u64 ref = LOOP_CYCLES(loop_iters(b), preempt_disable(),
				      preempt_enable());
		u64 rcu = LOOP_CYCLES(loop_iters(b), rcu_read_lock(),
				      rcu_read_unlock());

		ratio[r] = rcu * 100 / (ref ? ref : 1);
	}
	bench_report(b, "rcu_read_lock/unlock over preempt_disable/enable",
		     "%", ratio, n);
}

BENCH(read_side)
{
	int idx;

	TIME_READ_SIDE(b, "empty loop", , );
	TIME_READ_SIDE(b, "preempt_disable/enable", preempt_disable(),
		       preempt_enable());
	TIME_READ_SIDE(b, "rcu_read_lock/unlock", rcu_read_lock(),
		       rcu_read_unlock());
	time_rcu_over_preempt(b);
	TIME_READ_SIDE(b, "srcu_read_lock/unlock",
		       idx = srcu_read_lock(&bench_srcu),
		       srcu_read_unlock(&bench_srcu, idx));
	TIME_READ_SIDE(b, "spin_lock/unlock", spin_lock(&bench_lock),
		       spin_unlock(&bench_lock));
	TIME_READ_SIDE(b, "read_lock/unlock", read_lock(&bench_rwlock),
		       read_unlock(&bench_rwlock));
}
