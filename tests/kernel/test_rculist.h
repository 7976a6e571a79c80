/*
 * What the rculist suite's files share: the element its writers publish
 * on every kind of RCU list, and the readers that walk them meanwhile.
 *
 * An element is allocated with its links pointing at a trap element, as
 * stale memory would be, and marked live before a helper publishes it; a
 * retired one is marked freed and then freed (kmalloc poisons it) after
 * a grace period. A reader checks the mark of every element it reaches
 * and stops at the first wrong one: the trap means a helper made an
 * element reachable before writing its links, a freed mark or poison
 * that an element was freed while a reader could still reach it.
 */
#ifndef TESTS_KERNEL_TEST_RCULIST_H
#define TESTS_KERNEL_TEST_RCULIST_H

#include "kernel/rcu/rcupdate.h"
#include "kernel/test/ktest.h"
#include "lib/random.h"
#include "lib/rculist.h"
#include "lib/rculist_nulls.h"

#define RL_LIVE		0x6c697665u	/* "live" */
#define RL_FREED	0x64656164u	/* "dead" */
#define RL_TRAP		0x74726170u	/* "trap": the stale links' target */

/* Elements a writer keeps on its lists at most. */
#define RL_MAX		24u

struct rl_item {
	struct rcu_head rcu;
	u32 marker;			/* RL_LIVE before publication */
	unsigned int chain;		/* hlist_nulls: the writer's note */
	struct list_head link;
	struct hlist_node hnode;
	struct hlist_nulls_node nnode;
};

struct rl_reader;

/* One test's run: its walk, and the counts that bound it. */
struct rl_run {
	/* One walk of the test's lists, inside rcu_read_lock(); calls
	 * rl_reached() on each element and stops when it returns false. */
	void (*walk)(struct rl_reader *r);
	u64 ops;			/* the writer's operations so far */
	bool writer_done;
	u64 walks, overlapping, seen, bad, restarts;
	u32 first_bad;			/* the first wrong mark read */
};

/* A reader thread's own state. */
struct rl_reader {
	struct rl_run *run;
	struct prng rng;
	u64 seen;			/* elements it checked */
	u64 walk_nr;			/* its walks so far */
};

/* A new element, links stale (the trap), marked live; NULL if out of
 * memory. */
struct rl_item *rl_item_new(void);
/* Free it after a grace period, for readers that may still reach it. */
void rl_item_retire(struct rl_item *it);
/* Check an element a walk reached: false (and the run's bad count) if
 * its mark is not live. May hold the reader on it for a while. */
bool rl_reached(struct rl_reader *r, const struct rl_item *it);
/* Start a reader on each of a few online CPUs (ktest_sample_cpus());
 * rl_stop() joins them. */
void rl_start(struct ktest_context *t, struct rl_run *run);
/* Count the operation the writer just made; whether it must go on:
 * fewer than ops operations so far, or (with more than one CPU) fewer
 * than min_overlap walks that overlapped an operation. */
bool rl_writer_goes_on(struct rl_run *run, u64 ops, u64 min_overlap);
/* Stop and join the readers, report the counts, fail on a bad mark. */
void rl_stop(struct ktest_context *t, struct rl_run *run, const char *what);

#endif
