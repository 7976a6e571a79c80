/*
 * The dcache suite's scaling check: lock-free lookups of cached paths on
 * two CPUs against one, and against the lock variants.
 */
#include "test_dcache.h"
#include "kernel/printk.h"
#include "kernel/test/dcache_load.h"
#include "kernel/test/dcache_tree.h"
#include "lib/format.h"
#include "lib/sort.h"

/*
 * Lookups per second of cached paths: RCU and no synchronization on one
 * CPU and on two, and the lock variants on two. Host noise drifts slowly,
 * so the variants take turns in short slices and each is judged by its
 * median. Judged at exactly -smp 2, where the two vCPUs have a host core
 * each; printed everywhere.
 *
 * The judge is the unsynchronized baseline, not a fixed speed-up: under
 * TCG even lookups with no synchronization at all ran only 1.4 to 2.0
 * times faster on two vCPUs than on one (QEMU's own threads share the
 * two host cores), so RCU is asked to keep close to that baseline and
 * ahead of both locks. One shared atomic add planted on the lock-free
 * path dropped it to 62-68 % of the baseline.
 */
#define SCALE_ROUNDS	5
#define SCALE_SLICE_MS	100

enum { RCU1, RCU2, RW2, SPIN2, NONE1, NONE2, NR_SCALE };

/* RCU on two CPUs must reach this share of the unsynchronized rate
 * (percent): 90 to 98 % was seen without the debug checks, 78 to 97 %
 * with them, where rcu_dereference() checks the section each time. */
#if KERNEL_DEBUG
#define RCU_VS_UNSYNC_MIN_PCT	70
#else
#define RCU_VS_UNSYNC_MIN_PCT	85
#endif
/* Ahead of the reader-writer lock, judged without the debug checks
 * (make test boots that build for this suite too): with them, the checks
 * in every rcu_dereference() put RCU 0 to 11 % behind the rwlock at two
 * CPUs, so there the figure is printed, not judged. */
#define JUDGE_RCU_VS_RWLOCK	(!KERNEL_DEBUG)

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

/* "a/b" to two decimals, in buf. */
static const char *ratio(u64 a, u64 b, char *buf)
{
	if (!b)
		return "?";
	ksnprintf(buf, 16, "%llu.%02llu", a / b, a * 100 / b % 100);
	return buf;
}

static bool measure_scaling(struct ktest_context *t, bool last)
{
	static const struct { enum dcache_mode mode; unsigned int cpus; }
	runs[NR_SCALE] = {
		[RCU1] = { DCACHE_RCU, 1 }, [RCU2] = { DCACHE_RCU, 2 },
		[RW2] = { DCACHE_RWLOCK, 2 }, [SPIN2] = { DCACHE_SPINLOCK, 2 },
		[NONE1] = { DCACHE_UNSYNC, 1 }, [NONE2] = { DCACHE_UNSYNC, 2 },
	};
	u64 samples[NR_SCALE][SCALE_ROUNDS], med[NR_SCALE], wrong = 0;
	char x[2][16];
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
		       "%llu (x%s); unsync 1 CPU %llu, 2 CPUs %llu (x%s); "
		       "2 CPUs: rwlock %llu, spinlock %llu\n", SCALE_ROUNDS,
		       med[RCU1], med[RCU2], ratio(med[RCU2], med[RCU1], x[0]),
		       med[NONE1], med[NONE2],
		       ratio(med[NONE2], med[NONE1], x[1]), med[RW2],
		       med[SPIN2]);
	KEXPECT_EQ(wrong, 0ull);
	if (nr_cpus_online != 2)
		return true;
	ok = med[RCU2] * 100 >= med[NONE2] * RCU_VS_UNSYNC_MIN_PCT &&
	     (!JUDGE_RCU_VS_RWLOCK || med[RCU2] > med[RW2]) &&
	     med[RCU2] > med[SPIN2];
	if (!ok && last) {
		KEXPECT_GE(med[RCU2] * 100, med[NONE2] * RCU_VS_UNSYNC_MIN_PCT);
		if (JUDGE_RCU_VS_RWLOCK)
			KEXPECT_GT(med[RCU2], med[RW2]);
		KEXPECT_GT(med[RCU2], med[SPIN2]);
	}
	return ok;
}

/* On cpu0, as the benchmarks run: with this thread on cpu1, asleep, the
 * one-CPU figures came out at half the benchmarks' in three boots out of
 * three, for a reason not found; on cpu0 they agree. */
KTEST_DEFINE(dcache, lock_free_lookups_scale, 0, 120000, false)
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
