/*
 * The dcache suite's scaling check: lock-free lookups of cached paths on
 * two CPUs against one, and against the lock variants.
 */
#include "test_dcache.h"
#include "kernel/dcache_load.h"
#include "kernel/dcache_tree.h"
#include "kernel/printk.h"
#include "lib/sort.h"

/* Lookups per second of cached paths: RCU on one CPU and on two, and
 * the lock variants and no synchronization on two. Host noise drifts
 * slowly, so the variants take turns in short slices and each is judged
 * by its median. Judged at exactly -smp 2, where the two vCPUs have a
 * host core each; printed everywhere. */
#define SCALE_ROUNDS	5
#define SCALE_SLICE_MS	100

enum { RCU1, RCU2, RW2, SPIN2, NONE2, NR_SCALE };

static u64 rate(enum dcache_mode mode, unsigned int cpus, u64 *wrong)
{
	struct dcache_load l = {
		.mode = mode, .cpus = cpus, .ms = SCALE_SLICE_MS,
		.nfiles = TREE_FILES, .seed = TREE_SEED,
	};

	if (dcache_load_run(&l))
		return 0;
	*wrong += l.wrong;
	return l.lookups_per_sec;
}

static bool measure_scaling(struct ktest_context *t, bool last)
{
	static const struct { enum dcache_mode mode; unsigned int cpus; }
	runs[NR_SCALE] = {
		[RCU1] = { DCACHE_RCU, 1 }, [RCU2] = { DCACHE_RCU, 2 },
		[RW2] = { DCACHE_RWLOCK, 2 }, [SPIN2] = { DCACHE_SPINLOCK, 2 },
		[NONE2] = { DCACHE_UNSYNC, 2 },
	};
	u64 samples[NR_SCALE][SCALE_ROUNDS], med[NR_SCALE], wrong = 0;
	unsigned int r, v;
	bool ok;

	for (r = 0; r < SCALE_ROUNDS; r++)
		for (v = 0; v < NR_SCALE; v++)
			samples[v][r] = rate(runs[v].mode, runs[v].cpus, &wrong);
	for (v = 0; v < NR_SCALE; v++) {
		sort_u64(samples[v], SCALE_ROUNDS);
		med[v] = percentile_u64(samples[v], SCALE_ROUNDS, 50);
	}
	console_printf("    # lookups/s (median of %u): rcu 1 CPU %llu, 2 CPUs "
		       "%llu (x%llu.%02llu); 2 CPUs: rwlock %llu, spinlock %llu, "
		       "unsync %llu\n", SCALE_ROUNDS, med[RCU1], med[RCU2],
		       med[RCU1] ? med[RCU2] / med[RCU1] : 0,
		       med[RCU1] ? med[RCU2] * 100 / med[RCU1] % 100 : 0,
		       med[RW2], med[SPIN2], med[NONE2]);
	KEXPECT_EQ(wrong, 0ull);
	if (nr_cpus_online != 2)
		return true;
	ok = med[RCU2] * 10 >= med[RCU1] * 18 && med[RCU2] > med[RW2] &&
	     med[RCU2] > med[SPIN2];
	if (!ok && last) {
		KEXPECT_GE(med[RCU2] * 10, med[RCU1] * 18);
		KEXPECT_GT(med[RCU2], med[RW2]);
		KEXPECT_GT(med[RCU2], med[SPIN2]);
	}
	return ok;
}

KTEST_TIMEOUT(dcache, lock_free_lookups_scale, 120000)
{
	char path[64];
	unsigned int i;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs 2 CPUs");
	dcache_test_need_tree(t);
	for (i = 0; i < TREE_FILES; i++) {
		dcache_tree_file_path(i, TREE_SEED, path, sizeof(path));
		KASSERT_EQ(dcache_walk(path, DCACHE_RCU).err, 0);
	}
	ktest_timing(t, measure_scaling);
}
