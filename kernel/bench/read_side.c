/*
 * Read-side cost: what a reader pays to enter and leave its critical
 * section, per iteration of a tight loop, in TSC cycles. Under TCG the TSC
 * follows host time, so these are host cycles spent emulating the loop:
 * compare them with each other (the RCU pair against preempt_disable and
 * the empty loop, SRCU's pair with its two full barriers against both),
 * not with real hardware.
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

static DEFINE_SPINLOCK(bench_lock);
static DEFINE_RWLOCK(bench_rwlock);
DEFINE_STATIC_SRCU(bench_srcu);

/* One figure: `repeats` samples of the loop's cycles per iteration. The
 * body is pasted into the loop, so no call separates the primitives. */
#define TIME_READ_SIDE(b, figure, enter, leave)				\
	do {								\
		u64 samples[32];					\
		unsigned int r, i, n = (b)->repeats < 32 ? (b)->repeats : 32; \
		unsigned int iters = (b)->quick ? READ_SIDE_QUICK_ITERS	\
						: READ_SIDE_ITERS;	\
									\
		for (r = 0; r < n; r++) {				\
			u64 start = arch_read_tsc();			\
									\
			for (i = 0; i < iters; i++) {			\
				enter;					\
				barrier();				\
				leave;					\
			}						\
			samples[r] = (arch_read_tsc() - start) / iters;	\
		}							\
		bench_report(b, figure, "cycles/iter", samples, n);	\
	} while (0)

BENCH(read_side)
{
	int idx;

	TIME_READ_SIDE(b, "empty loop", , );
	TIME_READ_SIDE(b, "preempt_disable/enable", preempt_disable(),
		       preempt_enable());
	TIME_READ_SIDE(b, "rcu_read_lock/unlock", rcu_read_lock(),
		       rcu_read_unlock());
	TIME_READ_SIDE(b, "srcu_read_lock/unlock",
		       idx = srcu_read_lock(&bench_srcu),
		       srcu_read_unlock(&bench_srcu, idx));
	TIME_READ_SIDE(b, "spin_lock/unlock", spin_lock(&bench_lock),
		       spin_unlock(&bench_lock));
	TIME_READ_SIDE(b, "read_lock/unlock", read_lock(&bench_rwlock),
		       read_unlock(&bench_rwlock));
}
