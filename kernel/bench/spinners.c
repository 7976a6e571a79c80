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

static void spinner(void *unused)
{
	(void)unused;
	/* Set by bench_stop_spinners() (WRITE_ONCE); no order needed. */
	while (!READ_ONCE(spinners_stop))
		arch_cpu_relax();
}

unsigned int bench_start_spinners(struct thread **threads)
{
	unsigned int c, n = 0, me = this_cpu_id();

	WRITE_ONCE(spinners_stop, false);
	for (c = 0; c < nr_cpus_online; c++)
		if (c != me && (threads[n] = thread_create_on(spinner, NULL,
							      "spinner", c)))
			n++;
	return n;
}

void bench_stop_spinners(struct thread **threads, unsigned int n)
{
	WRITE_ONCE(spinners_stop, true);
	while (n--)
		thread_join(threads[n]);
}
