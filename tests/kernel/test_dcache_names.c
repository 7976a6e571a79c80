/*
 * The dcache suite's long names: names too long to sit inline in an
 * entry (DNAME_INLINE_LEN) live in storage of their own, which a rename
 * replaces. A lock-free walk may be comparing the old name as the rename
 * replaces it, so the old storage may be freed only after a grace
 * period. Freed storage would only compare as a mismatch and send the
 * walk to its locked fallback, an answer still right; the debug build's
 * walk says so instead (a WARNING and the freed_seen count), which this
 * test checks while walkers compare long names that a writer renames
 * back and forth. The dcache_name race window holds a walker on a name
 * between loading and comparing it.
 */
#include "kernel/errno.h"
#include "kernel/fs/dcache.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "kernel/test/ktest_cpus.h"
#include "lib/atomic.h"
#include "lib/format.h"
#include "lib/random.h"

#define LN_FILES	8u
#define LN_RENAMES	800u	/* the writer's least: the run's length */
/* Walks the walkers must have made while the writer was renaming, all
 * of them together: the writer goes on until they have, so the two
 * overlap however the host schedules the vCPUs. */
#define LN_OVERLAP_WALKS	2000u
#define LN_NAME_MAX	160	/* the longest path, 140, fits */

struct long_names {
	u64 ino[LN_FILES];
	bool writer_done;
	u64 walks_during, walks, wrong;
};

static struct long_names ln;

/* File j's two names, both out of line and of lengths that differ
 * between files and between the two sides, so that renames move between
 * kmalloc's size classes. */
static void long_name(unsigned int j, unsigned int side, char *buf,
		      size_t size)
{
	unsigned int len = DNAME_INLINE_LEN + 8 + 8 * j + 40 * side;
	int n = ksnprintf(buf, size, "/ln/%s_%u_", side ? "beta" : "alpha",
			  j);

	for (; (unsigned int)n < 4 + len && (size_t)n + 1 < size; n++)
		buf[n] = 'a' + (n + j) % 26;
	buf[n] = '\0';
}

static void ln_walker(void *arg)
{
	u64 walks = 0, during = 0, wrong = 0;
	char path[LN_NAME_MAX];
	struct prng rng;

	prng_seed(&rng, (uptr)arg);
	/* Bounded by the writer, which is bounded by counts. */
	while (!smp_load_acquire(&ln.writer_done)) {
		unsigned int j = prng_below(&rng, LN_FILES);
		struct dcache_result r;

		long_name(j, prng_below(&rng, 2), path, sizeof(path));
		r = dcache_walk(path, DCACHE_RCU);
		/* Old or new truth: absent under this name, or the file. */
		wrong += !(r.err == -ENOENT || (r.err == 0 && r.ino == ln.ino[j]));
		walks++;
		if (walks % 16 == 0) {
			atomic_add_relaxed(&ln.walks_during, walks - during);
			during = walks;
		}
	}
	atomic_add_relaxed(&ln.walks_during, walks - during);
	atomic_add_relaxed(&ln.walks, walks);
	atomic_add_relaxed(&ln.wrong, wrong);
}

KTEST_TIMEOUT(dcache, long_names_outlive_walks_comparing_them, 120000)
{
	struct thread *walkers[KTEST_SAMPLE_CPUS];
	unsigned int cpus[KTEST_SAMPLE_CPUS], n, c, j;
	struct dcache_stats before, after;
	bool side[LN_FILES] = { false };
	char from[LN_NAME_MAX], to[LN_NAME_MAX];
	u64 renames = 0;
	struct prng rng;

	KASSERT_EQ(dcache_create("/ln", true), 0);
	for (j = 0; j < LN_FILES; j++) {
		long_name(j, 0, from, sizeof(from));
		KASSERT_EQ(dcache_create(from, false), 0);
		ln.ino[j] = dcache_walk(from, DCACHE_RCU).ino;
		KASSERT_NE(ln.ino[j], 0ull);
	}
	ln.writer_done = false;
	ln.walks_during = ln.walks = ln.wrong = 0;
	dcache_get_stats(&before);
	/* A few walkers, not one per CPU: ktest_cpus.h says why. */
	n = ktest_sample_cpus(cpus, -1);
	for (c = 0; c < n; c++) {
		walkers[c] = thread_create_on(ln_walker, (void *)(uptr)cpus[c],
					      "ln_walker", cpus[c]);
		KASSERT_TRUE(walkers[c] != NULL);
	}
	prng_seed(&rng, 23);
	while (renames < LN_RENAMES ||
	       READ_ONCE(ln.walks_during) < LN_OVERLAP_WALKS) {
		j = prng_below(&rng, LN_FILES);
		long_name(j, side[j], from, sizeof(from));
		long_name(j, !side[j], to, sizeof(to));
		KEXPECT_EQ(dcache_rename(from, to), 0);
		side[j] = !side[j];
		if (++renames % 8 == 0)
			yield();
	}
	/* Release: the walkers' last walks come after every rename. */
	smp_store_release(&ln.writer_done, true);
	for (c = 0; c < n; c++)
		thread_join(walkers[c]);
	dcache_get_stats(&after);
	console_printf("    # %llu renames, %llu walks (%llu while renaming), "
		       "%llu wrong, %llu lock-free walks unsure\n", renames,
		       ln.walks, ln.walks_during, ln.wrong,
		       after.fallbacks - before.fallbacks);
	KEXPECT_EQ(ln.wrong, 0ull);
	KEXPECT_EQ(after.freed_seen, before.freed_seen);
	for (j = 0; j < LN_FILES; j++) {
		long_name(j, side[j], from, sizeof(from));
		KEXPECT_EQ(dcache_remove(from, false), 0);
	}
	KEXPECT_EQ(dcache_remove("/ln", true), 0);
}
