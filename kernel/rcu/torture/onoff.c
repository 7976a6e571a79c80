/*
 * rcutorture's CPU hotplug (torture.onoff_interval=MS), after Linux's
 * onoff mode: after torture.onoff_holdoff ms, every interval a thread
 * takes a CPU offline or brings one back, preferring CPUs that have not
 * gone offline yet, so that in a run of a few seconds every CPU but cpu0
 * goes down at least once. Readers pinned to a CPU that is offline wait
 * on it until it comes back; the thread brings every CPU back before the
 * run stops them. Attempts and successes go on the status line, as the
 * onoff: field of Linux's does; a failed attempt fails the run.
 */
#include "internal.h"
#include "kernel/cmdline.h"
#include "kernel/errno.h"
#include "kernel/hotplug.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

CMDLINE_UINT("torture.onoff_interval", torture_cmdline.onoff_interval_ms, 0,
	     3600000, "rcutorture: ms between CPU hotplug operations, 0 = none");
CMDLINE_UINT("torture.onoff_holdoff", torture_cmdline.onoff_holdoff_ms, 0,
	     3600000, "rcutorture: ms before the first CPU hotplug operation");

static struct thread *onoff_thread;
static bool onoff_stop;
static DEFINE_PERCPU_ARRAY(unsigned long, downs_by_cpu);

/* Sleep ms, or less if the run is stopping; false once it is. */
static bool onoff_sleep(unsigned int ms)
{
	u64 end = clock_ns() + (u64)ms * NSEC_PER_MSEC;

	while (clock_ns() < end) {
		if (READ_ONCE(onoff_stop))
			return false;
		sleep_ms(MIN(ms, 10u));
	}
	return !READ_ONCE(onoff_stop);
}

/* A CPU that has never gone offline, if one is online; else any. */
static unsigned int pick_cpu(struct prng *rng)
{
	unsigned int cpu;

	for (cpu = 1; cpu < nr_cpus; cpu++)
		if (!downs_by_cpu[cpu] && READ_ONCE(cpu_area(cpu)->online))
			return cpu;
	return 1 + prng_below(rng, nr_cpus - 1);
}

static void count(unsigned long *n)
{
	WRITE_ONCE(*n, *n + 1);
}

static void onoff_down(unsigned int cpu)
{
	int err;

	/* Counted once done: a status line read mid-way must not take an
	 * operation in flight for a failed one. */
	err = cpu_down(cpu);
	count(&torture.offline_attempts);
	if (err) {
		count(&torture.onoff_failures);
		pr_err("rcu-torture: ??? onoff: cpu_down(%u) failed: %s\n", cpu,
		       errno_name(err));
		return;
	}
	count(&torture.offline_successes);
	downs_by_cpu[cpu]++;
}

static void onoff_up(unsigned int cpu)
{
	int err;

	err = cpu_up(cpu);
	count(&torture.online_attempts);
	if (err) {
		count(&torture.onoff_failures);
		pr_err("rcu-torture: ??? onoff: cpu_up(%u) failed: %s\n", cpu,
		       errno_name(err));
		return;
	}
	count(&torture.online_successes);
}

static void onoff_fn(void *unused)
{
	struct prng rng;
	unsigned int cpu;

	(void)unused;
	prng_seed(&rng, torture.cfg.seed * 997);
	if (!onoff_sleep(torture.cfg.onoff_holdoff_ms))
		goto bring_all_back;
	while (onoff_sleep(torture.cfg.onoff_interval_ms)) {
		cpu = pick_cpu(&rng);
		if (READ_ONCE(cpu_area(cpu)->online))
			onoff_down(cpu);
		else
			onoff_up(cpu);
	}
bring_all_back:
	for (cpu = 1; cpu < nr_cpus; cpu++)
		if (!READ_ONCE(cpu_area(cpu)->online))
			onoff_up(cpu);
}

void torture_onoff_start(void)
{
	WRITE_ONCE(onoff_stop, false);
	memset(downs_by_cpu, 0, nr_cpus * sizeof(*downs_by_cpu));
	onoff_thread = NULL;
	if (!torture.cfg.onoff_interval_ms || nr_cpus < 2)
		return;
	onoff_thread = thread_create(onoff_fn, NULL, "rcu_torture_onoff");
	if (!onoff_thread)
		pr_err("rcu-torture: could not start rcu_torture_onoff\n");
}

/* Stop, with every CPU back online; say whether each went offline. */
void torture_onoff_stop(void)
{
	unsigned int cpu, never = 0;

	if (!onoff_thread)
		return;
	WRITE_ONCE(onoff_stop, true);
	thread_join(onoff_thread);
	onoff_thread = NULL;
	for (cpu = 1; cpu < nr_cpus; cpu++)
		never += !downs_by_cpu[cpu];
	pr_info("rcu-torture: onoff: %u of %u CPUs besides cpu0 went offline "
		"at least once\n", nr_cpus - 1 - never, nr_cpus - 1);
}
