/*
 * A bounded, evenly spread sample of the online CPUs for a self-test's
 * spinning threads (ktest_cpus.h says why a test wants one).
 */
#include "ktest_cpus.h"
#include "kernel/percpu.h"
#include "lib/compiler.h"

unsigned int ktest_sample_cpus(unsigned int cpus[KTEST_SAMPLE_CPUS], int skip)
{
	unsigned int cpu, n = 0, seen = 0, picked = 0, want;

	for_each_online_cpu(cpu)
		n += (int)cpu != skip;
	if (!n) {
		cpus[0] = (unsigned int)skip;
		return 1;
	}
	want = MIN(n, KTEST_SAMPLE_CPUS);
	/* The i-th pick is the (i * n / want)-th candidate: 0, n/3, 2n/3. */
	for_each_online_cpu(cpu) {
		if ((int)cpu == skip)
			continue;
		if (picked < want && seen == picked * n / want)
			cpus[picked++] = cpu;
		seen++;
	}
	return picked;
}
