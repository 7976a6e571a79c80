/*
 * A lock-free walk must answer what the namespace held at one instant,
 * even when each hop it took was true at its own moment. Two renames
 * land while the walker stands between two hops, put there by an action
 * armed at the walk's race window (kernel/race.h): on every run, at every
 * CPU count and however busy the host, where the racing walkers of
 * test_dcache.c meet such a pair only when the host's timing lines it up.
 *
 * The walk of /D/a/b stands on a, having left D behind. D is renamed
 * away, then a file F is renamed to where b would be in a. Each hop the
 * walk then takes is true (D held a, a now holds F), but /D/a/b was
 * never F: it did not exist before the renames, and /D did not exist
 * after the first. Only rename_seq tells the walk that an ancestor it
 * left moved; a walk must say it is unsure, and a lookup must answer
 * from one instant: -ENOENT here, /D/a/b now being gone.
 */
#include "kernel/errno.h"
#include "kernel/fs/dcache.h"
#include "kernel/fs/dcache_internal.h"
#include "kernel/race.h"
#include "kernel/test/ktest.h"
#include "lib/format.h"

/* The walk stands on a (its second hop) at its second pass through
 * RACE_DCACHE_WALK, the window between hops. */
#define PASS_ON_A	2u

struct two_renames {
	char dir[16];		/* D */
	char moved_dir[16];	/* where D goes */
	char file[16];		/* F */
	char target[32];	/* where F goes: D's new name/a/b */
	char path[32];		/* what the walk looks up: /D/a/b */
	u64 file_ino;		/* F's */
	bool got_mutex;
	int err[2];
};

/* The action, inside the walk's read-side section: it must not sleep,
 * so it takes the namespace mutex with a try, which fails only if some
 * other thread is changing the namespace during the suite. */
static void rename_twice(void *arg)
{
	struct two_renames *r = arg;

	r->got_mutex = mutex_trylock(&namespace_mutex);
	if (!r->got_mutex)
		return;
	r->err[0] = dcache_rename_locked(r->dir, r->moved_dir);
	r->err[1] = dcache_rename_locked(r->file, r->target);
	mutex_unlock(&namespace_mutex);
}

/* D, D/a and F, every name of the walk cached (D/a/b as a negative
 * entry) so that the walk reaches a without a miss, and the renames
 * armed; false if the test cannot run. */
static bool begin(struct ktest_context *t, struct two_renames *r,
		  unsigned int round)
{
	struct dcache_result cached;
	char a[32];

	if (!KERNEL_DEBUG) {
		t->skip_reason = "race windows exist in the debug build only";
		return false;
	}
	ksnprintf(r->dir, sizeof(r->dir), "/inst%u", round);
	ksnprintf(r->moved_dir, sizeof(r->moved_dir), "/inst%u_moved", round);
	ksnprintf(r->file, sizeof(r->file), "/inst%u_f", round);
	ksnprintf(r->target, sizeof(r->target), "%s/a/b", r->moved_dir);
	ksnprintf(r->path, sizeof(r->path), "%s/a/b", r->dir);
	ksnprintf(a, sizeof(a), "%s/a", r->dir);
	r->got_mutex = false;
	r->err[0] = r->err[1] = -EINVAL;
	KEXPECT_EQ(dcache_create(r->dir, true), 0);
	KEXPECT_EQ(dcache_create(a, true), 0);
	KEXPECT_EQ(dcache_create(r->file, false), 0);
	KEXPECT_EQ(dcache_walk(r->path, DCACHE_RCU).err, -ENOENT);
	r->file_ino = dcache_walk(r->file, DCACHE_RCU).ino;
	KEXPECT_TRUE(dcache_walk_cached(r->path, DCACHE_RCU, &cached));
	KEXPECT_EQ(cached.err, -ENOENT);
	if (race_window_arm(RACE_DCACHE_WALK, PASS_ON_A, rename_twice, r))
		return true;
	KTEST_FAIL("could not arm the renames at RACE_DCACHE_WALK");
	return false;
}

/* Disarm; the renames must have run, leaving F at D's new place and D
 * gone (or the test tested nothing); then remove what begin() made. */
static void end(struct ktest_context *t, struct two_renames *r)
{
	struct dcache_result moved;
	char a[32];

	KEXPECT_TRUE(race_window_disarm());
	KEXPECT_TRUE(r->got_mutex);
	KEXPECT_EQ(r->err[0], 0);
	KEXPECT_EQ(r->err[1], 0);
	moved = dcache_walk(r->target, DCACHE_RCU);
	KEXPECT_EQ(moved.err, 0);
	KEXPECT_EQ(moved.ino, r->file_ino);
	KEXPECT_EQ(dcache_walk(r->path, DCACHE_RCU).err, -ENOENT);
	ksnprintf(a, sizeof(a), "%s/a", r->moved_dir);
	KEXPECT_EQ(dcache_remove(r->target, false), 0);
	KEXPECT_EQ(dcache_remove(a, true), 0);
	KEXPECT_EQ(dcache_remove(r->moved_dir, true), 0);
}

/* The walk must not return F: it may only say it is unsure. */
KTEST(dcache, walk_unsure_when_an_ancestor_moved)
{
	struct dcache_result got = { 0, 0, false };
	struct two_renames r;
	bool sure;

	if (!begin(t, &r, 0))
		return;
	sure = dcache_walk_cached(r.path, DCACHE_RCU, &got);
	end(t, &r);
	if (sure)
		KTEST_FAIL("%s: the walk was sure of err %d ino %llu (%s, "
			   "moved there, is ino %llu), an answer of no "
			   "instant; expected it unsure", r.path, got.err,
			   got.ino, r.file, r.file_ino);
}

/* Whatever the walk does inside, the lookup answers from one instant. */
KTEST(dcache, lookup_answers_one_instant_across_renames)
{
	struct dcache_result got;
	struct two_renames r;

	if (!begin(t, &r, 1))
		return;
	got = dcache_walk(r.path, DCACHE_RCU);
	end(t, &r);
	if (got.err != -ENOENT)
		KTEST_FAIL("%s: the lookup answered err %d ino %llu (%s, moved "
			   "there, is ino %llu); expected -ENOENT, the only "
			   "answer of an instant during the lookup", r.path,
			   got.err, got.ino, r.file, r.file_ino);
}
