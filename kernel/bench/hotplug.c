/*
 * CPU hotplug latency: how long cpu_down() and cpu_up() take, each CPU
 * but cpu0 in turn. cpu_down() waits for the CPU to finish its per-CPU
 * threads, move its threads and timers and park; cpu_up() sends INIT and
 * STARTUP and waits for the CPU to join the online set, so it includes
 * the 10 ms INIT delay the MP specification asks for.
 */
#include "bench.h"
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/time.h"

#define HOTPLUG_SAMPLES	21u

BENCH(cpu_hotplug)
{
	u64 down[HOTPLUG_SAMPLES], up[HOTPLUG_SAMPLES], start;
	unsigned int i, n = b->quick ? 1 : HOTPLUG_SAMPLES, cpu;

	if (nr_cpus < 2)
		return;
	for (i = 0; i < n; i++) {
		cpu = 1 + i % (nr_cpus - 1);
		start = clock_ns();
		if (cpu_down(cpu) != 0)
			return;
		down[i] = (clock_ns() - start) / NSEC_PER_USEC;
		start = clock_ns();
		if (cpu_up(cpu) != 0)
			return;
		up[i] = (clock_ns() - start) / NSEC_PER_USEC;
	}
	bench_report(b, "cpu_down", "us", down, n);
	bench_report(b, "cpu_up", "us", up, n);
}
