/*
 * The lookup load. Paths are formatted once, up front, so that a worker's
 * loop is the walk itself and a little bookkeeping. Each worker times its
 * own run and the rates are summed, so no start barrier is needed.
 * Renames move a worker's own file between two names in its own
 * directory, so the tree files the lookups ask for always exist and any
 * answer other than "a file" is wrong.
 */
#include "dcache_load.h"
#include "dcache_tree.h"
#include "kernel/errno.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"
#include "lib/format.h"
#include "lib/random.h"

#define PATH_LEN	40

struct worker {
	struct dcache_load *load;
	char (*paths)[PATH_LEN];
	unsigned int cpu;
	u64 deadline_ns;
	u64 lookups, renames, wrong, elapsed_ns;
} __aligned(CACHE_LINE);

static int rename_own_file(unsigned int cpu, bool there)
{
	char a[PATH_LEN], b[PATH_LEN];

	ksnprintf(a, sizeof(a), "/load/c%u/a", cpu);
	ksnprintf(b, sizeof(b), "/load/c%u/b", cpu);
	return there ? dcache_rename(b, a) : dcache_rename(a, b);
}

static void worker_main(void *arg)
{
	struct worker *w = arg;
	struct dcache_load *l = w->load;
	u64 start = clock_ns(), now = start;
	bool moved = false;
	struct prng rng;

	prng_seed(&rng, 0x5eed0000ull + w->cpu);
	while (now < w->deadline_ns) {
		for (unsigned int i = 0; i < 64; i++) {
			u64 r = prng_next(&rng);
			struct dcache_result res;

			if (l->rename_permille &&
			    (r >> 40) % 1000 < l->rename_permille) {
				w->wrong += rename_own_file(w->cpu, moved) != 0;
				moved = !moved;
				w->renames++;
				continue;
			}
			res = dcache_walk(w->paths[r % l->nfiles], l->mode);
			w->wrong += res.err != 0 || res.is_dir;
			w->lookups++;
		}
		now = clock_ns();
	}
	w->elapsed_ns = now - start;
}

static int make_rename_files(unsigned int cpus)
{
	char path[PATH_LEN];
	int err = dcache_create("/load", true);

	if (err && err != -EEXIST)
		return err;
	for (unsigned int c = 0; c < cpus; c++) {
		ksnprintf(path, sizeof(path), "/load/c%u", c);
		err = dcache_create(path, true);
		if (err && err != -EEXIST)
			return err;
		ksnprintf(path, sizeof(path), "/load/c%u/a", c);
		err = dcache_create(path, false);
		if (err && err != -EEXIST)
			return err;
	}
	return 0;
}

int dcache_load_run(struct dcache_load *l)
{
	struct worker *workers = NULL;
	struct thread **threads = NULL;
	char (*paths)[PATH_LEN] = NULL;
	u64 deadline;
	unsigned int i;
	int err = -ENOMEM;

	if (l->mode == DCACHE_UNSYNC && l->rename_permille)
		return -EINVAL;
	if (!l->cpus || l->cpus > nr_cpus_online || !l->nfiles)
		return -EINVAL;
	if (l->rename_permille && (err = make_rename_files(l->cpus)))
		return err;
	paths = kmalloc(l->nfiles * sizeof(*paths));
	workers = kzalloc(l->cpus * sizeof(*workers));
	threads = kmalloc(l->cpus * sizeof(*threads));
	if (!paths || !workers || !threads)
		goto out;
	for (i = 0; i < l->nfiles; i++)
		dcache_tree_file_path(i, l->seed, paths[i], PATH_LEN);
	deadline = clock_ns() + (u64)l->ms * NSEC_PER_MSEC;
	for (i = 0; i < l->cpus; i++) {
		workers[i] = (struct worker){ .load = l, .paths = paths,
					      .cpu = i, .deadline_ns = deadline };
		threads[i] = thread_create_on(worker_main, &workers[i],
					      "dcache_load", i);
		if (!threads[i])
			break;
	}
	l->lookups = l->renames = l->wrong = l->lookups_per_sec = 0;
	err = i == l->cpus ? 0 : -ENOMEM;
	while (i--) {
		struct worker *w = &workers[i];

		thread_join(threads[i]);
		l->lookups += w->lookups;
		l->renames += w->renames;
		l->wrong += w->wrong;
		if (w->elapsed_ns)
			l->lookups_per_sec += w->lookups * NSEC_PER_SEC /
					      w->elapsed_ns;
	}
out:
	kfree(paths);
	kfree(workers);
	kfree(threads);
	return err;
}
