/* Shell commands about CPUs and threads: cpus, ps. */
#include "shell.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"

/* Threads that may be created between counting and copying the table. */
#define PS_SLACK	16

static void cmd_cpus(int argc, char **argv)
{
	u64 now = clock_ns();
	unsigned int cpu;

	if (!shell_max_args(argc, argv, 0))
		return;
	console_printf("%u of %u CPUs online\n", READ_ONCE(nr_cpus_online),
		       nr_cpus);
	console_printf("cpu  apic       ticks   idle    switches  queued  "
		       "migrated in\n");
	for_each_online_cpu(cpu) {
		struct percpu *pc = cpu_area(cpu);
		struct sched_cpu_stats s;
		u64 idle_permille;

		sched_cpu_stats(cpu, &s);
		idle_permille = now ? MIN(s.idle_ns, now) * 1000 / now : 0;
		console_printf("%3u  %4u  %10llu  %3llu.%llu%%  %10llu  %6llu  "
			       "%11llu\n", cpu, arch_cpu_hw_id(cpu),
			       READ_ONCE(pc->ticks), idle_permille / 10,
			       idle_permille % 10, s.switches, s.nr_queued,
			       s.migrations_in);
	}
	console_printf("(idle: share of the time since boot spent idle)\n");
}
SHELL_COMMAND("cpus", "cpus",
	      "online CPUs: APIC ids, ticks, idle share, context switches",
	      cmd_cpus);

static void cmd_ps(int argc, char **argv)
{
	size_t max = sched_nr_threads() + PS_SLACK, n, i;
	struct thread_info *info;

	if (!shell_max_args(argc, argv, 0))
		return;
	info = kmalloc(max * sizeof(*info));
	if (!info) {
		console_printf("ps: out of memory for %zu threads\n", max);
		return;
	}
	n = thread_snapshot(info, max);
	console_printf("     id  name                      state     cpu  "
		       "    run time    switches\n");
	for (i = 0; i < n; i++) {
		const struct thread_info *t = &info[i];
		u64 ms = t->run_ns / NSEC_PER_MSEC;

		console_printf("%7llu  %-24s  %-8s  %3u  %8llu.%03llu s  "
			       "%10llu\n", t->id, t->name,
			       t->running ? "running" :
			       thread_state_name(t->state), t->cpu,
			       ms / 1000, ms % 1000, t->switches);
	}
	console_printf("%zu threads%s\n", n,
		       n == max ? " (more were created meanwhile)" : "");
	kfree(info);
}
SHELL_COMMAND("ps", "ps",
	      "threads: id, name, state, CPU, run time, context switches",
	      cmd_ps);
