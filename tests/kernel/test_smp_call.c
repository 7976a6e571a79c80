/*
 * Cross-CPU calls (kernel/sched/smp_call.c): smp_call_function_all()
 * returns only once the function has run on every online CPU. rcu_barrier()
 * leans on it: it drops its own count as soon as the call returns, and a
 * CPU still about to add its count would let the barrier end early. The
 * blind mutant smp_call_ack_before_run (a CPU acknowledging before it
 * runs the function) passed every rcu and hotplug boot: the window it
 * opens is as short as the function. Here the function first does a
 * fixed amount of work, so that a call acknowledged early returns while
 * the work is still under way on another CPU.
 */
#include "kernel/percpu.h"
#include "kernel/sched/smp_call.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"

#define CALL_ROUNDS	50
/* Work before the function counts itself: a count of loop steps, not a
 * time, so a slow host only makes each round longer. */
#define CALL_WORK	20000

static DEFINE_PERCPU_ARRAY(unsigned int, ran_on);
static DEFINE_PERCPU_ARRAY(unsigned int, ran_before);

static void work_then_count(void *unused)
{
	volatile unsigned int spin;

	(void)unused;
	for (spin = 0; spin < CALL_WORK; spin++)
		;
	/* Fully ordered, before the acknowledgement that follows. */
	atomic_fetch_add(&ran_on[this_cpu_id()], 1);
}

KTEST(sched, call_returns_after_every_cpu_ran_it)
{
	unsigned int round, cpu, late = 0;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to call");
	for (round = 0; round < CALL_ROUNDS; round++) {
		for (cpu = 0; cpu < nr_cpus; cpu++)
			ran_before[cpu] = READ_ONCE(ran_on[cpu]);
		smp_call_function_all(work_then_count, NULL);
		/* Every CPU online before and after the call has run it by
		 * now (none comes or goes during this suite). */
		for_each_online_cpu(cpu)
			if (READ_ONCE(ran_on[cpu]) == ran_before[cpu])
				late++;
	}
	KEXPECT_EQ(late, 0u);
}
