/* Shell commands about CPUs and threads: cpus, cpu, ps. */
#include "shell.h"
#include "kernel/errno.h"
#include "kernel/hotplug.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/tick.h"
#include "kernel/time.h"
#include "lib/format.h"
#include "lib/string.h"

/* Threads that may be created between counting and copying the table. */
#define PS_SLACK	16

static void cmd_cpus(int argc, char **argv)
{
	u64 now = clock_ns();
	unsigned int cpu;

	if (!shell_max_args(argc, argv, 0))
		return;
	console_printf("%u of %u CPUs online; tick %s\n",
		       READ_ONCE(nr_cpus_online), nr_cpus,
		       nohz_enabled ? "stopped in idle (nohz=on)" :
				      "periodic (nohz=off)");
	console_printf("cpu  apic  state       ticks taken     skipped  "
		       "idle    switches  queued  migrated in\n");
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct percpu *pc = cpu_area(cpu);
		struct sched_cpu_stats s;
		struct tick_cpu_stats t;
		u64 idle_permille;

		sched_cpu_stats(cpu, &s);
		tick_cpu_stats(cpu, &t);
		idle_permille = now ? MIN(s.idle_ns, now) * 1000 / now : 0;
		console_printf("%3u  %4u  %-8s %c %10llu  %10llu  %3llu.%llu%%  "
			       "%10llu  %6llu  %11llu\n", cpu,
			       arch_cpu_hw_id(cpu),
			       READ_ONCE(pc->online) ? "online" : "offline",
			       t.stopped ? '-' : ' ', t.taken, t.skipped,
			       idle_permille / 10, idle_permille % 10,
			       s.switches, s.nr_queued, s.migrations_in);
	}
	console_printf("(-: tick stopped now; skipped: ticks a periodic tick "
		       "would have taken; idle: share of the time since boot "
		       "spent idle)\n");
}
SHELL_COMMAND("cpus", "cpus",
	      "every CPU: APIC id, online or offline, ticks taken and "
	      "skipped, idle share, context switches",
	      cmd_cpus);

/* cpu N off|on: CPU hotplug, with one line for each way it can go wrong. */
static void cmd_cpu(int argc, char **argv)
{
	u64 cpu;
	bool off;
	int err;

	if (argc != 3 || (strcmp(argv[2], "off") && strcmp(argv[2], "on"))) {
		console_printf("cpu: expected 'cpu N off' or 'cpu N on'\n");
		return;
	}
	if (!shell_parse_number("cpu", argv[1], "CPU number", 0, ~0u, &cpu))
		return;
	off = !strcmp(argv[2], "off");
	err = off ? cpu_down(cpu) : cpu_up(cpu);
	if (err == -EINVAL)
		console_printf("cpu: cpu0 is the boot CPU; it cannot go "
			       "offline\n");
	else if (err == -ENODEV)
		console_printf("cpu: no cpu%llu: this machine has cpu0 to "
			       "cpu%u\n", cpu, nr_cpus - 1);
	else if (err == -EBUSY)
		console_printf("cpu: cpu%llu is already %s\n", cpu,
			       off ? "offline" : "online");
	else if (err)
		console_printf("cpu: cpu%llu did not come back: %s\n", cpu,
			       errno_name(err));
	else
		console_printf("cpu%llu is %s\n", cpu, off ? "offline" : "online");
}
SHELL_COMMAND("cpu", "cpu N off|on",
	      "take a CPU offline or bring it back (not cpu0)\n"
	      "An offline CPU's threads and timers move to other CPUs, its "
	      "RCU callbacks to the CPU that took it down; it parks until "
	      "'cpu N on' starts it again.",
	      cmd_cpu);

/* ps's priority column: `-` for a normal thread, the real-time priority
 * otherwise, with a `*` when a boost lifts it above the thread's own. */
static void format_priority(char *out, size_t size,
			    const struct thread_info *t)
{
	if (t->prio == SCHED_PRIO_NORMAL)
		strlcpy(out, "-", size);
	else
		ksnprintf(out, size, "%u%s", t->prio,
			  t->prio != t->base_prio ? "*" : "");
}

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
	console_printf("     id  name                      state     cpu  pri  "
		       "    run time    switches\n");
	for (i = 0; i < n; i++) {
		const struct thread_info *t = &info[i];
		u64 ms = t->run_ns / NSEC_PER_MSEC;
		char pri[8];

		format_priority(pri, sizeof(pri), t);
		console_printf("%7llu  %-24s  %-8s  %3u  %3s  %8llu.%03llu s  "
			       "%10llu\n", t->id, t->name,
			       t->running ? "running" :
			       thread_state_name(t->state), t->cpu, pri,
			       ms / 1000, ms % 1000, t->switches);
	}
	console_printf("%zu threads%s\n", n,
		       n == max ? " (more were created meanwhile)" : "");
	kfree(info);
}
SHELL_COMMAND("ps", "ps",
	      "threads: id, name, state, CPU, priority, run time, context "
	      "switches\n"
	      "pri is - for a normal thread, 1..99 for a real-time one; a * "
	      "marks a priority boosted above the thread's own.",
	      cmd_ps);
