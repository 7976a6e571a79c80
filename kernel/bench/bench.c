/*
 * The benchmark runner and the report format (see bench.h).
 */
#include "bench.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu/stats.h"
#include "kernel/sched/sched.h"
#include "lib/parse.h"
#include "lib/sort.h"
#include "lib/string.h"

extern const struct bench __start_bench_cases[], __stop_bench_cases[];

char bench_spec[256] = "none";
CMDLINE_STRING("bench", bench_spec,
	       "benchmarks to run after the self-tests: a comma list, all or none");
static bool bench_quick;
CMDLINE_BOOL("bench.quick", bench_quick,
	     "one short pass of each benchmark (a smoke test, not a figure)");

#define BENCH_REPEATS		11
#define BENCH_SLICE_MS		200
#define BENCH_QUICK_SLICE_MS	10

/* Each figure names the RCU flavour it was built with and the engine
 * it booted with, so that one results file can hold every kernel's and
 * engine's figures side by side. */
#define BENCH_FLAVOUR	(CONFIG_PREEMPT_RCU ? "preempt" : "nopreempt")

void bench_report(struct bench_run *b, const char *figure, const char *unit,
		  u64 *samples, unsigned int n)
{
	if (!n)
		return;
	sort_u64(samples, n);
	console_printf("BENCH {\"bench\": \"%s\", \"flavour\": \"%s\", "
		       "\"engine\": \"%s\", \"figure\": \"%s\", "
		       "\"unit\": \"%s\", \"cpus\": %u, \"samples\": %u, "
		       "\"median\": %llu, \"min\": %llu, \"max\": %llu, "
		       "\"p10\": %llu, \"p90\": %llu}\n", b->name,
		       BENCH_FLAVOUR, b->engine, figure, unit,
		       nr_cpus_online, n, percentile_u64(samples, n, 50),
		       samples[0], samples[n - 1],
		       percentile_u64(samples, n, 10),
		       percentile_u64(samples, n, 90));
}

void bench_report_hundredths(struct bench_run *b, const char *figure,
			     const char *unit, u64 hundredths, u64 over)
{
	/* Two decimals by hand: the printer has no floating point. */
	u64 i = hundredths / 100, f = hundredths % 100;

	console_printf("BENCH {\"bench\": \"%s\", \"flavour\": \"%s\", "
		       "\"engine\": \"%s\", \"figure\": \"%s\", "
		       "\"unit\": \"%s\", \"cpus\": %u, \"samples\": %llu, "
		       "\"median\": %llu.%02llu, \"min\": %llu.%02llu, "
		       "\"max\": %llu.%02llu, \"p10\": %llu.%02llu, "
		       "\"p90\": %llu.%02llu}\n", b->name, BENCH_FLAVOUR,
		       b->engine, figure, unit, nr_cpus_online, over,
		       i, f, i, f, i, f, i, f, i, f);
}

void bench_skip(struct bench_run *b, const char *why)
{
	console_printf("BENCH {\"bench\": \"%s\", \"flavour\": \"%s\", "
		       "\"engine\": \"%s\", \"cpus\": %u, "
		       "\"skipped\": \"%s\"}\n", b->name, BENCH_FLAVOUR,
		       b->engine, nr_cpus_online, why);
}

static bool selected(const char *spec, const struct bench *bn)
{
	return !strcmp(spec, "all") || list_has(spec, bn->name);
}

bool bench_spec_valid(const char *spec)
{
	char word[64];
	const char *cursor = spec;

	if (!strcmp(spec, "all") || !strcmp(spec, "none"))
		return true;
	while (list_next(&cursor, word, sizeof(word))) {
		const struct bench *bn;
		bool found = false;

		for (bn = __start_bench_cases; bn < __stop_bench_cases; bn++)
			found |= !strcmp(bn->name, word);
		if (!found) {
			pr_err("bench: no benchmark named '%s' (expected a comma "
			       "list of names, all or none)\n", word);
			return false;
		}
	}
	return true;
}

struct bench_call {
	const struct bench *bench;
	struct bench_run *run;
};

static void bench_thread(void *arg)
{
	struct bench_call *call = arg;

	call->bench->fn(call->run);
}

/* Every benchmark starts on cpu0, so that "the other CPUs" and "one
 * CPU" mean the same in every run. */
static void run_on_cpu0(const struct bench *bn, struct bench_run *run)
{
	struct bench_call call = { bn, run };
	struct thread *t = thread_create_on(bench_thread, &call, "bench", 0);

	if (!t) {
		pr_err("bench: no memory for a thread to run %s\n", bn->name);
		return;
	}
	thread_join(t);
}

bool bench_run_until(const char *spec, bool quick, const bool *stop)
{
	const struct bench *bn;
	struct rcu_stats stats;

	if (!bench_spec_valid(spec))
		return false;
	/* The engine is chosen at boot and never changes: ask once. */
	rcu_get_stats(&stats);
	for (bn = __start_bench_cases; bn < __stop_bench_cases; bn++) {
		struct bench_run run = {
			.name = bn->name,
			.repeats = quick ? 1 : BENCH_REPEATS,
			.slice_ms = quick ? BENCH_QUICK_SLICE_MS
					  : BENCH_SLICE_MS,
			.quick = quick,
			.engine = stats.engine,
		};

		if (!selected(spec, bn))
			continue;
		/* Set by the shell's watcher (WRITE_ONCE) on Ctrl-C. */
		if (stop && READ_ONCE(*stop)) {
			console_printf("# bench: stopped before %s\n", bn->name);
			break;
		}
		console_printf("# bench %s on %u CPUs\n", bn->name,
			       nr_cpus_online);
		run_on_cpu0(bn, &run);
	}
	console_printf("# bench: done\n");
	return true;
}

bool bench_run(const char *spec)
{
	return bench_run_until(spec, bench_quick, NULL);
}

/* bench= at boot; the default, none, prints nothing. */
static bool bench_run_at_boot(void)
{
	if (!strcmp(bench_spec, "none"))
		return true;
	return bench_run(bench_spec);
}
LATE_WORK(LATE_WORK_BENCH, bench_run_at_boot);

const char *bench_name(unsigned int n)
{
	if (n >= (unsigned int)(__stop_bench_cases - __start_bench_cases))
		return NULL;
	return __start_bench_cases[n].name;
}
