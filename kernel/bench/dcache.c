/*
 * dcache lookup throughput: every synchronization variant, on 1 to N
 * CPUs, read-only and with 1 % and 10 % of operations renaming (the
 * unsynchronized baseline is read-only: it is correct only then). The
 * figure names are `lookup:<variant>:<mix>:<workers>`, which
 * tests/bench/collect turns into the scaling plot.
 */
#include "bench.h"
#include "kernel/test/dcache_load.h"
#include "kernel/test/dcache_tree.h"
#include "lib/format.h"

#define BENCH_TREE_SEED		11u
#define BENCH_TREE_FILES	4096u
#define DCACHE_BENCH_REPEATS	5u

static const struct {
	const char *name;
	unsigned int permille;
} mixes[] = {
	{ "ro", 0 }, { "rename1", 10 }, { "rename10", 100 },
};

/* 1, 2, 4, ... and the whole machine. */
static unsigned int next_workers(unsigned int w)
{
	if (w == nr_cpus_online)
		return 0;
	return 2 * w < nr_cpus_online ? 2 * w : nr_cpus_online;
}

struct variant {
	enum dcache_mode mode;
	unsigned int workers;
	u64 samples[DCACHE_BENCH_REPEATS];
};

static u64 one_slice(struct bench_run *b, const struct variant *v,
		     unsigned int mix)
{
	struct dcache_load l = {
		.mode = v->mode, .cpus = v->workers, .ms = b->slice_ms,
		.rename_permille = mixes[mix].permille,
		.nfiles = BENCH_TREE_FILES, .seed = BENCH_TREE_SEED,
	};

	/* A failed or wrong run reports 0: the dcache suite says why. */
	if (dcache_load_run(&l) || l.wrong)
		return 0;
	return l.lookups_per_sec;
}

/* Every variant of one mix: one warm-up slice each, then the variants
 * take turns, slice by slice, so that host noise, which drifts, falls
 * on all of them alike. */
static void run_mix(struct bench_run *b, unsigned int mix)
{
	static struct variant variants[DCACHE_NR_MODES * 8];
	unsigned int nv = 0, r, i, n = b->repeats < DCACHE_BENCH_REPEATS ?
				      b->repeats : DCACHE_BENCH_REPEATS;
	enum dcache_mode mode;
	char figure[64];

	for (mode = 0; mode < DCACHE_NR_MODES; mode++) {
		if (mode == DCACHE_UNSYNC && mixes[mix].permille)
			continue;	/* correct only while nothing changes */
		for (unsigned int w = 1; w && nv < ARRAY_SIZE(variants);
		     w = next_workers(w))
			variants[nv++] = (struct variant){ mode, w, { 0 } };
	}
	for (i = 0; i < nv; i++)
		one_slice(b, &variants[i], mix);
	for (r = 0; r < n; r++)
		for (i = 0; i < nv; i++)
			variants[i].samples[r] = one_slice(b, &variants[i], mix);
	for (i = 0; i < nv; i++) {
		ksnprintf(figure, sizeof(figure), "lookup:%s:%s:%u",
			  dcache_mode_name(variants[i].mode), mixes[mix].name,
			  variants[i].workers);
		bench_report(b, figure, "lookups/s", variants[i].samples, n);
	}
}

BENCH(dcache)
{
	char path[48];
	unsigned int i, mix;

	if (dcache_tree_populate(0, BENCH_TREE_FILES, BENCH_TREE_SEED))
		return;
	for (i = 0; i < BENCH_TREE_FILES; i++) {
		dcache_tree_file_path(i, BENCH_TREE_SEED, path, sizeof(path));
		dcache_walk(path, DCACHE_RCU);
	}
	for (mix = 0; mix < ARRAY_SIZE(mixes); mix++)
		run_mix(b, mix);
}
