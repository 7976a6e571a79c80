/*
 * The dcache suite: lookups agree with the backing tree, lock-free walkers
 * racing renames, creates and deletes see only old or new truths, the
 * cache keeps to its limit, negative entries give way, and lock-free
 * lookups scale where the lock variants do not.
 */
#include "test_dcache.h"
#include "kernel/errno.h"
#include "kernel/fs/dcache.h"
#include "kernel/fs/dcache_internal.h"
#include "kernel/fs/ramfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/test/dcache_load.h"
#include "kernel/test/dcache_tree.h"
#include "kernel/test/ktest_cpus.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/format.h"
#include "lib/random.h"
#include "lib/sort.h"
#include "lib/string.h"

static bool tree_ready;

/* Built by the first test that needs it and kept, for the later tests
 * of the suite and for the shell: no leak. */
void dcache_test_need_tree(struct ktest_context *t)
{
	if (tree_ready)
		return;
	ktest_keep_begin();
	KEXPECT_EQ(dcache_tree_populate(0, TREE_FILES, TREE_SEED), 0);
	ktest_keep_end("the dcache suite's backing tree, built once");
	tree_ready = true;
}

/* The truth, from the backing store alone, walked under the namespace
 * mutex: what a lookup of path must answer. */
static struct dcache_result truth(const char *path)
{
	struct dcache_result r = { 0, 0, false };
	struct ramfs_inode *dir = ramfs_root(), *next;
	struct path_cursor c;

	r.err = path_start(&c, path);
	if (r.err)
		return r;
	mutex_lock(&namespace_mutex);
	while (path_next(&c)) {
		if (!dir->is_dir) {
			r.err = -ENOTDIR;
			goto out;
		}
		if (c.len == 1 && c.name[0] == '.')
			continue;
		if (c.len == 2 && c.name[0] == '.' && c.name[1] == '.') {
			dir = dir->parent;
			continue;
		}
		next = ramfs_lookup(dir, c.name, c.len);
		if (!next) {
			r.err = -ENOENT;
			goto out;
		}
		dir = next;
	}
	r.ino = dir->ino;
	r.is_dir = dir->is_dir;
out:
	mutex_unlock(&namespace_mutex);
	return r;
}

/* A random path: a tree file (some beyond the tree: absent), a
 * directory, or a file reached through "." and "..". */
static void random_path(struct prng *rng, char *buf, size_t size)
{
	unsigned int i = prng_below(rng, TREE_FILES + TREE_FILES / 4);
	char file[48];

	dcache_tree_file_path(i, TREE_SEED, file, sizeof(file));
	switch (prng_below(rng, 5)) {
	case 0:
		ksnprintf(buf, size, "/d%llu/../d%llu/./d%llu",
			  prng_below(rng, 20), prng_below(rng, 16),
			  prng_below(rng, 18));
		break;
	case 1: {
		/* /dA/dB/fi -> /dA/./dB/../dB/fi */
		const char *b = strchr(file + 1, '/'), *f = strchr(b + 1, '/');
		int alen = b - file, blen = f - b;

		ksnprintf(buf, size, "%.*s/.%.*s/..%.*s%s", alen, file, blen, b,
			  blen, b, f);
		break;
	}
	case 2:
		ksnprintf(buf, size, "%s/x", file);	/* ENOTDIR or ENOENT */
		break;
	default:
		strlcpy(buf, file, size);
	}
}

KTEST_TIMEOUT(dcache, lookups_agree_with_backing_tree, 300000)
{
	struct prng rng;
	unsigned int i, wrong = 0;
	char path[128];

	dcache_test_need_tree(t);
	prng_seed(&rng, 42);
	for (i = 0; i < 100000; i++) {
		struct dcache_result want, got;

		random_path(&rng, path, sizeof(path));
		want = truth(path);
		got = dcache_walk(path, i % 2 ? DCACHE_RCU : DCACHE_RWLOCK);
		if (got.err == want.err && got.ino == want.ino &&
		    got.is_dir == want.is_dir)
			continue;
		if (wrong++ < 5)
			KTEST_FAIL("%s: cache says err %d ino %llu, the tree "
				   "err %d ino %llu", path, got.err, got.ino,
				   want.err, want.ino);
	}
	KEXPECT_EQ(wrong, 0u);
}

KTEST(dcache, negative_entry_gives_way)
{
	struct dcache_stats before, after;
	struct dcache_result r;

	KEXPECT_EQ(dcache_create("/neg", true), 0);
	r = dcache_walk("/neg/x", DCACHE_RCU);
	KEXPECT_EQ(r.err, -ENOENT);
	dcache_get_stats(&before);
	r = dcache_walk("/neg/x", DCACHE_RCU);	/* from the negative entry */
	dcache_get_stats(&after);
	KEXPECT_EQ(r.err, -ENOENT);
	KEXPECT_EQ(after.negative_hits, before.negative_hits + 1);
	KEXPECT_EQ(dcache_create("/neg/x", false), 0);
	r = dcache_walk("/neg/x", DCACHE_RCU);
	KEXPECT_EQ(r.err, 0);
	KEXPECT_EQ(r.ino, truth("/neg/x").ino);
	KEXPECT_EQ(dcache_remove("/neg/x", false), 0);
	KEXPECT_EQ(dcache_walk("/neg/x", DCACHE_RCU).err, -ENOENT);
	KEXPECT_EQ(dcache_remove("/neg", true), 0);
	KEXPECT_EQ(dcache_walk("/neg", DCACHE_RCU).err, -ENOENT);
}

KTEST(dcache, changes_report_errors)
{
	KEXPECT_EQ(dcache_create("/e1", true), 0);
	KEXPECT_EQ(dcache_create("/e1", true), -EEXIST);
	KEXPECT_EQ(dcache_create("/e1/f", false), 0);
	KEXPECT_EQ(dcache_create("/e1/f/g", false), -ENOTDIR);
	KEXPECT_EQ(dcache_create("/nope/g", false), -ENOENT);
	KEXPECT_EQ(dcache_create("relative", false), -EINVAL);
	KEXPECT_EQ(dcache_remove("/e1", true), -ENOTEMPTY);
	KEXPECT_EQ(dcache_remove("/e1/f", true), -ENOTDIR);
	KEXPECT_EQ(dcache_rename("/e1", "/e1/sub"), -EINVAL);
	KEXPECT_EQ(dcache_rename("/e1/f", "/e2"), 0);
	KEXPECT_EQ(dcache_walk("/e1/f", DCACHE_RCU).err, -ENOENT);
	KEXPECT_EQ(dcache_walk("/e2", DCACHE_RCU).err, 0);
	KEXPECT_EQ(dcache_remove("/e2", false), 0);
	KEXPECT_EQ(dcache_remove("/e1", true), 0);
}

/* Renaming a directory moves what is under it: a walk through the old
 * name fails and one through the new name finds the same inode. */
KTEST(dcache, rename_moves_subtree)
{
	struct dcache_result before, after;

	KEXPECT_EQ(dcache_create("/mv1", true), 0);
	KEXPECT_EQ(dcache_create("/mv1/a_name_longer_than_the_inline_buffer", false), 0);
	before = dcache_walk("/mv1/a_name_longer_than_the_inline_buffer", DCACHE_RCU);
	KEXPECT_EQ(before.err, 0);
	KEXPECT_EQ(dcache_rename("/mv1", "/mv2"), 0);
	after = dcache_walk("/mv2/a_name_longer_than_the_inline_buffer", DCACHE_RCU);
	KEXPECT_EQ(after.err, 0);
	KEXPECT_EQ(after.ino, before.ino);
	KEXPECT_EQ(dcache_walk("/mv1/a_name_longer_than_the_inline_buffer",
			       DCACHE_RCU).err, -ENOENT);
	KEXPECT_EQ(dcache_rename("/mv2/a_name_longer_than_the_inline_buffer",
				 "/mv2/short"), 0);
	KEXPECT_EQ(dcache_walk("/mv2/short", DCACHE_RCU).ino, before.ino);
	KEXPECT_EQ(dcache_remove("/mv2/short", false), 0);
	KEXPECT_EQ(dcache_remove("/mv2", true), 0);
}

/*
 * Walkers on up to three CPUs (ktest_sample_cpus(): one on each of 32
 * vCPUs starved the writer of host time) against a writer that renames
 * files across directories, renames a directory, and creates and
 * deletes files. Each
 * answer must be one the namespace gave at some instant: a churned file
 * is absent or has its own inode number, a created one an inode number
 * handed out already, a tree file is always there. A freed or poisoned
 * entry would show up as a wrong or impossible inode number.
 */
#define CHURN_FILES	16u
#define CHURN_CHANGES	400u	/* the writer's changes: the run's length */
#define CHURN_MIN_ROUNDS	10u	/* each walker's least, however slow */

struct churn {
	u64 file_ino[CHURN_FILES];
	u64 z_ino;
	bool writer_done;
	u64 checks, wrong;
};

static struct churn churn;

static bool answer_ok(struct dcache_result r, u64 want_ino)
{
	if (r.err == -ENOENT)
		return true;
	if (r.err || r.is_dir)
		return false;
	return want_ino ? r.ino == want_ino : r.ino && r.ino < ramfs_next_ino();
}

/* Find /churn/t/n<j> lock-free and hold it across 20 microseconds,
 * as a slow reader would: the writer may delete it meanwhile, but its
 * memory must stay intact until the read-side section ends. */
static bool held_entry_stays_intact(unsigned int j)
{
	struct dentry *d;
	char name[16];
	bool intact = true;
	u32 seq;
	int len = ksnprintf(name, sizeof(name), "n%u", j);

	rcu_read_lock();
	d = d_lookup_rcu(dcache_root, "churn", 5, &seq);
	d = d ? d_lookup_rcu(d, "t", 1, &seq) : NULL;
	d = d ? d_lookup_rcu(d, name, len, &seq) : NULL;
	if (d) {
		u64 until = clock_ns() + 20000;

		while (clock_ns() < until)
			arch_cpu_relax();
		intact = READ_ONCE(d->magic) == DENTRY_LIVE;
	}
	rcu_read_unlock();
	return intact;
}

static void churn_reader(void *arg)
{
	struct prng rng;
	u64 checks = 0, wrong = 0, rounds = 0;
	char path[64];

	prng_seed(&rng, (uptr)arg);
	/* Bounded by the writer's count of changes, not by time: a slow
	 * host makes fewer walks, never a failure. */
	while (!smp_load_acquire(&churn.writer_done) ||
	       rounds++ < CHURN_MIN_ROUNDS) {
		unsigned int j = prng_below(&rng, CHURN_FILES);

		ksnprintf(path, sizeof(path), "/churn/%c/k%u",
			  prng_below(&rng, 2) ? 'a' : 'b', j);
		wrong += !answer_ok(dcache_walk(path, DCACHE_RCU),
				    churn.file_ino[j]);
		wrong += !answer_ok(dcache_walk(prng_below(&rng, 2) ?
						"/churn/x/z" : "/churn/y/z",
						DCACHE_RCU), churn.z_ino);
		ksnprintf(path, sizeof(path), "/churn/t/n%u", j);
		wrong += !answer_ok(dcache_walk(path, DCACHE_RCU), 0);
		dcache_tree_file_path(prng_below(&rng, TREE_FILES), TREE_SEED,
				      path, sizeof(path));
		wrong += dcache_walk(path, DCACHE_RCU).err != 0;
		wrong += !held_entry_stays_intact(j);
		checks += 5;
	}
	atomic_add_relaxed(&churn.checks, checks);
	atomic_add_relaxed(&churn.wrong, wrong);
}

static void churn_writer(struct ktest_context *t, struct prng *rng)
{
	bool where[CHURN_FILES] = { false }, z_in_y = false;
	bool made[CHURN_FILES] = { false };
	char from[64], to[64];
	u64 ops;

	for (ops = 1; ops <= CHURN_CHANGES; ops++) {
		unsigned int j = prng_below(rng, CHURN_FILES);
		int err;

		switch (prng_below(rng, 4)) {
		case 0:
			ksnprintf(from, sizeof(from), "/churn/%c/k%u",
				  where[j] ? 'b' : 'a', j);
			ksnprintf(to, sizeof(to), "/churn/%c/k%u",
				  where[j] ? 'a' : 'b', j);
			err = dcache_rename(from, to);
			where[j] = !where[j];
			break;
		case 1:
			err = z_in_y ? dcache_rename("/churn/y", "/churn/x")
				     : dcache_rename("/churn/x", "/churn/y");
			z_in_y = !z_in_y;
			break;
		default:
			ksnprintf(from, sizeof(from), "/churn/t/n%u", j);
			err = made[j] ? dcache_remove(from, false)
				      : dcache_create(from, false);
			made[j] = !made[j];
		}
		KEXPECT_EQ(err, 0);
		if (ops % 8 == 0)
			yield();
	}
	/* Release: the walkers' last rounds see every change. */
	smp_store_release(&churn.writer_done, true);
}

/* Take /churn down again, wherever the writer left each name, so that
 * the shell's `test` can run the suite again. */
static void remove_churn_tree(struct ktest_context *t)
{
	static const char *const dirs[] = {
		"/churn/a", "/churn/b", "/churn/t", "/churn/x", "/churn/y",
		"/churn",
	};
	char path[64];
	unsigned int j, i;

	for (j = 0; j < CHURN_FILES; j++) {
		ksnprintf(path, sizeof(path), "/churn/a/k%u", j);
		if (dcache_remove(path, false) == -ENOENT) {
			ksnprintf(path, sizeof(path), "/churn/b/k%u", j);
			KEXPECT_EQ(dcache_remove(path, false), 0);
		}
		ksnprintf(path, sizeof(path), "/churn/t/n%u", j);
		dcache_remove(path, false);	/* there or not, by chance */
	}
	if (dcache_remove("/churn/x/z", false) == -ENOENT)
		KEXPECT_EQ(dcache_remove("/churn/y/z", false), 0);
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		int err = dcache_remove(dirs[i], true);

		/* Only one of x and y exists. */
		KEXPECT_TRUE(err == 0 || (err == -ENOENT && i >= 3 && i <= 4));
	}
	KEXPECT_EQ(dcache_walk("/churn", DCACHE_RCU).err, -ENOENT);
}

KTEST_TIMEOUT(dcache, walkers_see_old_or_new_truth, 120000)
{
	struct thread *readers[KTEST_SAMPLE_CPUS];
	unsigned int cpus[KTEST_SAMPLE_CPUS], n, c, j;
	struct dcache_stats before, after;
	char path[64];
	struct prng rng;

	dcache_test_need_tree(t);
	KASSERT_EQ(dcache_create("/churn", true), 0);
	KASSERT_EQ(dcache_create("/churn/a", true), 0);
	KASSERT_EQ(dcache_create("/churn/b", true), 0);
	KASSERT_EQ(dcache_create("/churn/t", true), 0);
	KASSERT_EQ(dcache_create("/churn/x", true), 0);
	KASSERT_EQ(dcache_create("/churn/x/z", false), 0);
	churn.z_ino = truth("/churn/x/z").ino;
	for (j = 0; j < CHURN_FILES; j++) {
		ksnprintf(path, sizeof(path), "/churn/a/k%u", j);
		KASSERT_EQ(dcache_create(path, false), 0);
		churn.file_ino[j] = truth(path).ino;
	}
	dcache_get_stats(&before);
	churn.checks = churn.wrong = 0;
	churn.writer_done = false;
	n = ktest_sample_cpus(cpus, -1);
	for (c = 0; c < n; c++) {
		readers[c] = thread_create_on(churn_reader,
					      (void *)(uptr)cpus[c],
					      "churn_reader", cpus[c]);
		KASSERT_TRUE(readers[c] != NULL);
	}
	prng_seed(&rng, 99);
	churn_writer(t, &rng);
	for (c = 0; c < n; c++)
		thread_join(readers[c]);
	console_printf("    # %llu checks by %u walkers, %llu wrong\n",
		       churn.checks, n, churn.wrong);
	dcache_get_stats(&after);
	KEXPECT_GE(churn.checks, 5ull * CHURN_MIN_ROUNDS * n);
	KEXPECT_EQ(churn.wrong, 0ull);
	KEXPECT_EQ(after.freed_seen, before.freed_seen);
	remove_churn_tree(t);
}

KTEST_TIMEOUT(dcache, cache_keeps_to_its_limit, 120000)
{
	struct dcache_stats s, before;
	unsigned int i, over = 0;
	char path[64];

	dcache_test_need_tree(t);
	dcache_get_stats(&before);
	dcache_set_max_entries(300);
	for (i = 0; i < 3000; i++) {
		dcache_tree_file_path(i % TREE_FILES, TREE_SEED, path,
				      sizeof(path));
		KEXPECT_EQ(dcache_walk(path, DCACHE_RCU).err, 0);
		dcache_get_stats(&s);
		over += s.entries > 300;
	}
	dcache_set_max_entries(before.max_entries);
	KEXPECT_EQ(over, 0u);
	KEXPECT_GT(s.evictions, before.evictions + 1000);
}
