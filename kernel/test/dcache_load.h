/*
 * A lookup load on the dcache: one worker per CPU walking paths of a
 * populated tree, optionally renaming private files, for a fixed time.
 * The dcache suite judges its scaling and the benchmarks report it.
 */
#ifndef KERNEL_DCACHE_LOAD_H
#define KERNEL_DCACHE_LOAD_H

#include "kernel/fs/dcache.h"
#include "kernel/percpu.h"

struct dcache_load {
	/* In. */
	enum dcache_mode mode;
	unsigned int cpus;		/* workers on CPUs 0 .. cpus-1 */
	unsigned int ms;
	unsigned int rename_permille;	/* renames per 1000 operations */
	unsigned int nfiles;		/* tree files 0 .. nfiles-1 exist */
	u32 seed;			/* the tree's seed */
	/* Out. */
	u64 lookups;
	u64 renames;
	u64 wrong;			/* lookups whose answer was false */
	u64 lookups_per_sec;		/* summed over the workers */
};

/* Returns 0, or a negated errno when the load cannot run (no memory,
 * renames asked of the unsynchronized mode, too few CPUs). */
int dcache_load_run(struct dcache_load *load);

#endif
