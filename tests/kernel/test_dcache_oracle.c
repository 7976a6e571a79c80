/*
 * The dcache's strict oracle: every answer of a lock-free walk must have
 * been true at some instant between the walk's start and its end.
 *
 * One writer changes a tiny namespace a fixed number of times, logging
 * each change with the clock read before and after it; walkers on up to
 * three other CPUs (ktest_sample_cpus(): one on every CPU starved the
 * writer of host time at high CPU counts, and the replay checks every
 * walk logged) walk a few paths meanwhile and log what they got, with
 * the clock read before and after. Afterwards a model of the namespace
 * replays the changes: the state after change k was current at most from
 * change k's start to change k+1's end, so a walk may answer what any
 * state current for part of its interval answers, and nothing else.
 *
 * The namespace, under /lz:
 *	D	a directory the writer renames between the names A and B (an
 *		ancestor of every walked path)
 *	D/k	a file, always there
 *	D/m	a directory, empty or holding the file f, or nothing, or a
 *		file: the writer turns the directory into a file and back,
 *		so walks through it meet ENOENT and ENOTDIR
 * Walks use ".." too: /lz/A/../B/k can be found at no instant (D has one
 * name at a time), which only the rename sequence count prevents.
 */
#include "kernel/errno.h"
#include "kernel/fs/dcache.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "lib/format.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "kernel/test/ktest_cpus.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/random.h"
#include "lib/string.h"

#define LZ_CHANGES	900	/* the writer's changes: the run's length */
#define LZ_WALKS_MAX	16384	/* logged per walker; it stops when full */
/* A walker's walks per writer change at most: the log holds them all. */
#define LZ_WALKS_PER_CHANGE	(LZ_WALKS_MAX / (LZ_CHANGES + 1))

static const char *const lz_paths[] = {
	"/lz/A/m/f", "/lz/B/m/f", "/lz/A/k", "/lz/B/k", "/lz/A/m",
	"/lz/B/m/../k", "/lz/A/m/f/..", "/lz/A/../B/k", "/lz/B/../A/m/f",
	"/lz/A/./m/../m/f",
};
#define LZ_NR_PATHS	ARRAY_SIZE(lz_paths)

/* What the model needs of a state: the name of D, what m is, and the
 * inode numbers of the files (a file m or f is new each time). */
enum m_kind { M_NONE, M_DIR, M_FILE };

struct lz_state {
	bool d_is_b;
	enum m_kind m;
	u64 d_ino, k_ino, m_ino, f_ino;
};

struct lz_change {
	u64 start_ns, end_ns;
	struct lz_state after;
};

struct lz_walk {
	u64 start_ns, end_ns;
	struct dcache_result r;
	unsigned int path;
};

struct lz_walker {
	struct lz_walk *walks;
	unsigned int nr;
	unsigned int cpu;
};

static struct {
	struct lz_change *changes;	/* [0] is the state before any */
	unsigned int nr_changes;	/* written by the writer alone */
	bool done;
	struct lz_walker walkers[KTEST_SAMPLE_CPUS];
} lz;

static u64 ino_of(const char *path)
{
	struct dcache_result r = dcache_walk(path, DCACHE_RCU);

	return r.err ? 0 : r.ino;
}

/* The model's walk: the answer path has in state s. */
static struct dcache_result model_walk(const struct lz_state *s,
				       const char *path)
{
	/* Where the walk stands: 0 /, 1 /lz, 2 D, 3 D/k, 4 D/m, 5 D/m/f. */
	static const int parent_of[] = { 0, 0, 1, 2, 2, 4 };
	struct dcache_result r = { 0, 0, true };
	const char *p = path + 1;
	int at = 0;

	while (*p) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool is_dir = at <= 2 || (at == 4 && s->m == M_DIR);

		if (!is_dir) {
			r.err = -ENOTDIR;
			return r;
		}
		if (len == 2 && !strncmp(p, "..", 2))
			at = parent_of[at];
		else if (len == 1 && p[0] == '.')
			;
		else if (at == 0 && len == 2 && !strncmp(p, "lz", 2))
			at = 1;
		else if (at == 1 && len == 1 && p[0] == (s->d_is_b ? 'B' : 'A'))
			at = 2;
		else if (at == 2 && len == 1 && p[0] == 'k')
			at = 3;
		else if (at == 2 && len == 1 && p[0] == 'm' && s->m != M_NONE)
			at = 4;
		else if (at == 4 && len == 1 && p[0] == 'f' && s->f_ino)
			at = 5;
		else {
			r.err = -ENOENT;
			return r;
		}
		p += len + (end != NULL);
	}
	r.is_dir = at <= 2 || (at == 4 && s->m == M_DIR);
	r.ino = at == 2 ? s->d_ino : at == 3 ? s->k_ino :
		at == 4 ? s->m_ino : at == 5 ? s->f_ino : 0;
	return r;
}

static bool same_answer(struct dcache_result a, struct dcache_result b)
{
	if (a.err || b.err)
		return a.err == b.err;
	/* The model knows no inode number for / and /lz: 0 matches any. */
	return a.is_dir == b.is_dir && (!b.ino || a.ino == b.ino);
}

/*
 * The writer's next change, one namespace operation each, in a cycle of
 * nine: rename D, mkdir m, rename D, create m/f, remove m/f, rmdir m,
 * rename D, create the file m, remove it. A rename comes right before
 * each creation: a walk that saw D under one name before the rename and
 * the new entry after the creation has combined two instants, which the
 * rename and entry sequence counts exist to catch.
 */
static int lz_change(struct lz_state *s, unsigned int n)
{
	const char *d = s->d_is_b ? "/lz/B" : "/lz/A";
	char m[16], f[16];
	int err;

	ksnprintf(m, sizeof(m), "%s/m", d);
	ksnprintf(f, sizeof(f), "%s/m/f", d);
	switch (n % 9) {
	case 0:
	case 2:
	case 6:
		err = dcache_rename(d, s->d_is_b ? "/lz/A" : "/lz/B");
		s->d_is_b = !s->d_is_b;
		return err;
	case 1:
		err = dcache_create(m, true);
		s->m = M_DIR;
		s->m_ino = ino_of(m);
		return err;
	case 3:
		err = dcache_create(f, false);
		s->f_ino = ino_of(f);
		return err;
	case 4:
		s->f_ino = 0;
		return dcache_remove(f, false);
	case 5:
	case 8:
		err = dcache_remove(m, s->m == M_DIR);
		s->m = M_NONE;
		s->m_ino = 0;
		return err;
	default:
		err = dcache_create(m, false);
		s->m = M_FILE;
		s->m_ino = ino_of(m);
		return err;
	}
}

/* Leave the namespace as the suite found it. */
static void lz_remove_all(struct ktest_context *t, const struct lz_state *s)
{
	const char *d = s->d_is_b ? "/lz/B" : "/lz/A";
	char path[16];

	if (s->m == M_DIR && s->f_ino) {
		ksnprintf(path, sizeof(path), "%s/m/f", d);
		KEXPECT_EQ(dcache_remove(path, false), 0);
	}
	if (s->m != M_NONE) {
		ksnprintf(path, sizeof(path), "%s/m", d);
		KEXPECT_EQ(dcache_remove(path, s->m == M_DIR), 0);
	}
	ksnprintf(path, sizeof(path), "%s/k", d);
	KEXPECT_EQ(dcache_remove(path, false), 0);
	KEXPECT_EQ(dcache_remove(d, true), 0);
	KEXPECT_EQ(dcache_remove("/lz", true), 0);
}

static void lz_walker_fn(void *arg)
{
	struct lz_walker *w = arg;
	struct prng rng;

	prng_seed(&rng, 0x17 + w->cpu);
	while (!smp_load_acquire(&lz.done) && w->nr < LZ_WALKS_MAX) {
		struct lz_walk *k;

		/* Paced by the writer's count, not by time: a walker ahead
		 * of it waits, so that its log, which ends when full, spans
		 * every change even when the host runs the writer slowly
		 * (a make mutants run filled the logs a third of the way in,
		 * and dcache_rename_no_seq got through). The writer alone
		 * stores nr_changes. */
		if (w->nr >= READ_ONCE(lz.nr_changes) * LZ_WALKS_PER_CHANGE) {
			yield();
			continue;
		}
		k = &w->walks[w->nr++];

		k->path = prng_below(&rng, LZ_NR_PATHS);
		k->start_ns = clock_ns();
		k->r = dcache_walk(lz_paths[k->path], DCACHE_RCU);
		k->end_ns = clock_ns();
	}
}

/* Could the state after change i have been current at some time in
 * [start, end]? From change i's start to change i+1's end at most. */
static bool state_may_overlap(unsigned int i, u64 start, u64 end)
{
	u64 from = i ? lz.changes[i].start_ns : 0;
	u64 to = i + 1 < lz.nr_changes ? lz.changes[i + 1].end_ns : ~0ull;

	return from <= end && to >= start;
}

static unsigned int check_walks(struct ktest_context *t,
				const struct lz_walker *w)
{
	unsigned int i, c, wrong = 0;

	for (i = 0; i < w->nr; i++) {
		const struct lz_walk *k = &w->walks[i];
		bool ok = false;

		for (c = 0; c < lz.nr_changes && !ok; c++)
			ok = state_may_overlap(c, k->start_ns, k->end_ns) &&
			     same_answer(k->r, model_walk(&lz.changes[c].after,
							  lz_paths[k->path]));
		if (!ok && wrong++ < 5)
			KTEST_FAIL("cpu%u: %s answered err %d ino %llu %s, true "
				   "at no instant of its walk (%llu-%llu ns)",
				   w->cpu, lz_paths[k->path], k->r.err,
				   k->r.ino, k->r.is_dir ? "dir" : "file",
				   k->start_ns, k->end_ns);
	}
	return wrong;
}

KTEST_TIMEOUT(dcache, walks_were_true_at_some_instant, 300000)
{
	struct thread *threads[KTEST_SAMPLE_CPUS];
	unsigned int cpus[KTEST_SAMPLE_CPUS], nr, i, n, walks = 0, wrong = 0;
	struct lz_state s = { 0 };

	KASSERT_EQ(dcache_create("/lz", true), 0);
	KASSERT_EQ(dcache_create("/lz/A", true), 0);
	KASSERT_EQ(dcache_create("/lz/A/k", false), 0);
	s.d_ino = ino_of("/lz/A");
	s.k_ino = ino_of("/lz/A/k");
	lz.changes = kzalloc((LZ_CHANGES + 1) * sizeof(*lz.changes));
	KASSERT_TRUE(lz.changes != NULL);
	lz.changes[0].after = s;
	lz.nr_changes = 1;
	lz.done = false;
	/* Not on the writer's CPU, unless it is the only one. */
	nr = ktest_sample_cpus(cpus, (int)this_cpu_id());
	for (i = 0; i < nr; i++) {
		struct lz_walker *w = &lz.walkers[i];

		w->cpu = cpus[i];
		w->nr = 0;
		w->walks = kmalloc(LZ_WALKS_MAX * sizeof(*w->walks));
		KASSERT_TRUE(w->walks != NULL);
		threads[i] = thread_create_on(lz_walker_fn, w, "lz_walker",
					      w->cpu);
		KASSERT_TRUE(threads[i] != NULL);
	}
	for (n = 1; n <= LZ_CHANGES; n++) {
		struct lz_change *c = &lz.changes[n];

		c->start_ns = clock_ns();
		KEXPECT_EQ(lz_change(&s, n), 0);
		c->end_ns = clock_ns();
		c->after = s;
		WRITE_ONCE(lz.nr_changes, n + 1);
		if (n % 16 == 0)
			yield();
	}
	smp_store_release(&lz.done, true);
	for (i = 0; i < nr; i++)
		thread_join(threads[i]);
	for (i = 0; i < nr; i++) {
		struct lz_walker *w = &lz.walkers[i];

		walks += w->nr;
		wrong += check_walks(t, w);
		kfree(w->walks);
		w->walks = NULL;
	}
	console_printf("    # %u walks against %u changes, %u true at no "
		       "instant\n", walks, LZ_CHANGES, wrong);
	KEXPECT_EQ(wrong, 0u);
	KEXPECT_GT(walks, 0u);
	kfree(lz.changes);
	lz_remove_all(t, &s);
}
