/*
 * In-kernel benchmarks, registered like the self-tests:
 *
 *	BENCH(read_side)
 *	{
 *		...time something b->repeats times into samples[]...
 *		bench_report(b, "rcu_read_lock", "ns/iter", samples, n);
 *	}
 *
 * `bench=` on the command line (a comma list, `all` or `none`) or the
 * shell's `bench` runs them after the self-tests. Each figure is printed
 * as one line, `BENCH {json}`, holding the benchmark, the RCU flavour
 * and grace-period engine (rcu.engine=), the figure, its unit, the CPU
 * count and the median, minimum, maximum and 10th/90th percentiles of
 * its samples; tests/bench/collect gathers those lines.
 * Benchmarks report figures and judge nothing: the self-tests judge.
 */
#ifndef KERNEL_BENCH_H
#define KERNEL_BENCH_H

#include "lib/compiler.h"
#include "lib/types.h"

struct thread;

struct bench_run {
	const char *name;
	unsigned int repeats;	/* samples per figure */
	unsigned int slice_ms;	/* length of one timed slice, where timed */
	bool quick;		/* bench.quick=1: one short pass, a smoke test */
	const char *engine;	/* the grace-period engine that runs */
};

struct bench {
	const char *name;
	void (*fn)(struct bench_run *b);
};

#define BENCH(n)							\
	static void bench_fn_##n(struct bench_run *b);			\
	static const struct bench bench_desc_##n			\
	__used __section("bench_cases") __aligned(8) = {		\
		.name = #n, .fn = bench_fn_##n,				\
	};								\
	static void bench_fn_##n(struct bench_run *b)

/* Sort samples and print one figure. */
void bench_report(struct bench_run *b, const char *figure, const char *unit,
		  u64 *samples, unsigned int n);
/* A figure that is one value over a whole phase, not a set of samples
 * (make bench-engines' counts per grace period): `hundredths` of the
 * unit as the median, minimum, maximum and percentiles alike, and
 * `over` (what the phase's total was divided by) as the sample count,
 * so that the line keeps bench_report()'s form. */
void bench_report_hundredths(struct bench_run *b, const char *figure,
			     const char *unit, u64 hundredths, u64 over);
/* A CPU-bound thread on every online CPU but the caller's; returns how
 * many started. bench_stop_spinners() stops and joins them. One set at
 * a time: benchmarks run one after another. */
unsigned int bench_start_spinners(void);
void bench_stop_spinners(void);
/* No figures from this benchmark here, and why (another flavour's, or
 * more CPUs needed): a line that says so, which collect keeps. */
void bench_skip(struct bench_run *b, const char *why);
/* Run the benchmarks the spec names; false if it names one that does
 * not exist. */
bool bench_run(const char *spec);
/* As bench_run, quick or not as asked (not as bench.quick= says), and
 * stopping before the next benchmark once *stop is set: the shell's
 * bench. */
bool bench_run_until(const char *spec, bool quick, const bool *stop);
/* The nth benchmark's name (from 0, in link order), NULL past the last. */
const char *bench_name(unsigned int n);
bool bench_spec_valid(const char *spec);
extern char bench_spec[256];

#endif
