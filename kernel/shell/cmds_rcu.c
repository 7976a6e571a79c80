/* Shell commands about RCU: rcu (its statistics) and torture. */
#include "shell.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu/stats.h"
#include "kernel/rcu/torture/rcutorture.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"
#include "lib/string.h"

#define WATCH_PERIOD_MS		1000
#define WATCH_POLL_MS		50
#define TORTURE_MAX_SECS	86400
/* rcutorture's monitor wants a CPU of its own; cpu0 is the one its
 * stutter leaves free (tests/kernel/test_rcutorture.c runs it there). */
#define TORTURE_MONITOR_CPU	0

static void print_grace_periods(void)
{
	struct rcu_stats s;

	rcu_get_stats(&s);
	console_printf("engine: %s\n", s.engine);
	console_printf("shape: %s\n", s.shape);
	console_printf("grace periods: gp_seq %lu (%s), needed up to %lu; "
		       "%llu completed, %llu expedited\n", s.gp_seq,
		       s.gp_seq & 1 ? "one running" : "idle", s.gp_seq_needed,
		       s.gps_completed, s.exp_completed);
	if (s.latency_samples)
		console_printf("latency of the last %u: min %llu us, median "
			       "%llu us, p99 %llu us, max %llu us\n",
			       s.latency_samples, s.latency_min_ns / 1000,
			       s.latency_median_ns / 1000,
			       s.latency_p99_ns / 1000,
			       s.latency_max_ns / 1000);
	console_printf("stall warnings: %llu\n", s.stalls);
	console_printf("flavour: %s; %llu readers preempted inside their "
		       "sections, %llu boosted\n", s.flavour, s.readers_blocked,
		       s.readers_boosted);
	if (s.kthread_prio)
		console_printf("kthreads: %s at real-time priority %u\n",
			       s.kthreads, s.kthread_prio);
	else
		console_printf("kthreads: %s at normal priority\n",
			       s.kthreads);
}

static void print_cpus(void)
{
	unsigned int cpu;

	console_printf("cpu  state         qs  ctx switches   cbs queued    "
		       "invoked  pending   nudges\n");
	for_each_online_cpu(cpu) {
		struct rcu_cpu_stats c;

		rcu_get_cpu_stats(cpu, &c);
		console_printf("%3u  %-5s  %9llu  %12llu  %11llu  %9llu  "
			       "%7llu  %7llu\n", cpu, c.idle ? "idle" : "busy",
			       c.qs_reported, c.context_switches,
			       c.cbs_queued, c.cbs_invoked, c.cbs_pending,
			       c.nudges);
	}
}

/* rcu -w: a fresh table every second until any key (Ctrl-C too),
 * drawn over the last one as watch(1) does: cursor home, clear below. */
static void watch(void)
{
	unsigned int waited;

	for (;;) {
		u64 now = clock_ns();

		console_printf("\x1b[H\x1b[J");
		console_printf("rcu at %llu.%03llu s (every second; any key "
			       "stops)\n", now / NSEC_PER_SEC,
			       now / NSEC_PER_MSEC % 1000);
		print_grace_periods();
		print_cpus();
		for (waited = 0; waited < WATCH_PERIOD_MS;
		     waited += WATCH_POLL_MS) {
			if (shell_trygetc() >= 0)
				return;
			sleep_ms(WATCH_POLL_MS);
		}
	}
}

static void cmd_rcu(int argc, char **argv)
{
	if (!shell_max_args(argc, argv, 1))
		return;
	if (argc == 2 && strcmp(argv[1], "-w")) {
		console_printf("rcu: unknown option '%s' (expected -w)\n",
			       argv[1]);
		return;
	}
	if (argc == 2) {
		watch();
		return;
	}
	print_grace_periods();
	print_cpus();
}
SHELL_COMMAND("rcu", "rcu [-w]",
	      "grace periods, latency, stalls, per-CPU quiescent states and "
	      "callbacks\n-w shows them again every second until a key is "
	      "pressed.", cmd_rcu);

struct torture_job {
	struct torture_config cfg;
	bool stop;
	bool passed;
};

static void torture_body(void *arg)
{
	struct torture_job *job = arg;

	job->passed = rcu_torture_run(&job->cfg, &job->stop);
}

/* The torture.* options, but for SECS and a status line every second,
 * which is the progress the shell promises for long commands. */
static void cmd_torture(int argc, char **argv)
{
	struct torture_job job;
	u64 secs = torture_cmdline.secs;

	if (!shell_max_args(argc, argv, 1))
		return;
	if (argc == 2 && !shell_parse_number(argv[0], argv[1], "SECS", 1,
					     TORTURE_MAX_SECS, &secs))
		return;
	job.cfg = torture_cmdline;
	job.cfg.secs = (unsigned int)secs;
	job.cfg.stat_interval = 1;
	console_printf("torture: %llu s on %u CPUs, flavours %s; Ctrl-C "
		       "stops it\n", secs, READ_ONCE(nr_cpus_online),
		       job.cfg.gp);
	if (!shell_run_long("torture", torture_body, &job, &job.stop,
			    TORTURE_MONITOR_CPU))
		return;
	console_printf("torture: %s%s\n", job.passed ? "SUCCESS" : "FAILURE",
		       job.stop ? " (stopped early by Ctrl-C)" : "");
}
SHELL_COMMAND("torture", "torture [SECS]",
	      "run rcutorture for SECS seconds (default torture.secs=)\n"
	      "Other settings come from the torture.* options; a status line "
	      "every second; Ctrl-C stops it.", cmd_torture);
