/*
 * What an idle CPU's tick costs: over a phase in which every CPU but the
 * caller's has nothing to do (the caller sleeps too), the ticks each of
 * them took and skipped per second. With nohz=off each takes hz; with
 * the tick stopped in idle (kernel/sched/tick.c), what it still takes is
 * what woke it: timers, RCU's callbacks, IPIs. One sample per CPU, so
 * the figure's median and spread are across CPUs.
 */
#include "bench.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/tick.h"
#include "kernel/time.h"

#define IDLE_PHASE_MS		1000
#define IDLE_PHASE_MS_QUICK	100

static DEFINE_PERCPU_ARRAY(struct tick_cpu_stats, before);
static DEFINE_PERCPU_ARRAY(u64, taken);
static DEFINE_PERCPU_ARRAY(u64, skipped);

BENCH(idle_ticks)
{
	unsigned int cpu, me = this_cpu_id(), n = 0;
	u64 start, ms = b->quick ? IDLE_PHASE_MS_QUICK : IDLE_PHASE_MS;
	struct tick_cpu_stats after;

	if (nr_cpus_online < 2) {
		bench_skip(b, "needs a second CPU to idle");
		return;
	}
	for_each_online_cpu(cpu)
		tick_cpu_stats(cpu, &before[cpu]);
	start = clock_ns();
	sleep_ms(ms);
	ms = (clock_ns() - start) / NSEC_PER_MSEC;
	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		tick_cpu_stats(cpu, &after);
		taken[n] = (after.taken - before[cpu].taken) * 1000 / ms;
		skipped[n] = (after.skipped - before[cpu].skipped) * 1000 / ms;
		n++;
	}
	bench_report(b, "ticks taken per second, idle CPU", "ticks/s",
		     taken, n);
	bench_report(b, "ticks skipped per second, idle CPU", "ticks/s",
		     skipped, n);
}
