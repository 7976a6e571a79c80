/* The shell's bench: the benchmarks of bench=, run again on demand. */
#include "shell.h"
#include "kernel/bench/bench.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define SPEC_MAX	256

struct bench_job {
	char spec[SPEC_MAX];
	bool quick;
	bool stop;
};

static void bench_body(void *arg)
{
	struct bench_job *job = arg;

	bench_run_until(job->spec, job->quick, &job->stop);
}

static void cmd_bench(int argc, char **argv)
{
	struct bench_job job = { .quick = false };
	int first = 1;

	if (argc >= 2 && !strcmp(argv[1], "-l")) {
		if (shell_max_args(argc, argv, 1))
			shell_print_names("benchmarks", bench_name);
		return;
	}
	if (argc >= 2 && !strcmp(argv[1], "-q")) {
		job.quick = true;
		first = 2;
	}
	if (!shell_spec_from_words(argc, argv, first, bench_name, "benchmark",
				   job.spec, sizeof(job.spec)))
		return;
	console_printf("bench: %s%s; Ctrl-C stops before the next one\n",
		       job.spec, job.quick ? ", one quick pass" : "");
	if (KERNEL_DEBUG)
		console_printf("bench: this is the debug kernel: its figures "
			       "are not comparable with the README's, which "
			       "make bench takes from a DEBUG=0 kernel\n");
	if (!shell_run_long("bench", bench_body, &job, &job.stop, -1))
		return;
	if (job.stop)
		console_printf("bench: stopped by Ctrl-C\n");
}
SHELL_COMMAND("bench", "bench [-l | [-q] NAME...]",
	      "run benchmarks, printed as BENCH {json} lines\n"
	      "No NAME: all of them; -q makes one short pass of each (a smoke "
	      "test, not a figure); -l lists them. Figures are medians and "
	      "spreads timed with the TSC; tests/bench/collect reads them.",
	      cmd_bench);
