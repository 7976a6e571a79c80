/*
 * CPU-bound threads for the benchmarks that time a grace period on a
 * busy system: one on every CPU but the caller's, each spinning without
 * ever sleeping, so that the CPU passes a quiescent state only when
 * RCU's tick or its nudges push it through schedule().
 */
#include "bench.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"

static bool spinners_stop;
static DEFINE_PERCPU_ARRAY(struct thread *, spinners);
static unsigned int nr_spinners;

static void spinner(void *unused)
{
	(void)unused;
	/* Set by bench_stop_spinners() (WRITE_ONCE); no order needed. */
	while (!READ_ONCE(spinners_stop))
		arch_cpu_relax();
}

unsigned int bench_start_spinners(void)
{
	unsigned int c, me = this_cpu_id();

	WRITE_ONCE(spinners_stop, false);
	nr_spinners = 0;
	for (c = 0; c < nr_cpus_online; c++)
		if (c != me && (spinners[nr_spinners] = thread_create_on(
					spinner, NULL, "spinner", c)))
			nr_spinners++;
	return nr_spinners;
}

void bench_stop_spinners(void)
{
	WRITE_ONCE(spinners_stop, true);
	while (nr_spinners)
		thread_join(spinners[--nr_spinners]);
}
