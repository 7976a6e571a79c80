/*
 * The self-test runner's leak check, what Linux's kmemleak would catch at
 * the end of a test: kmalloc objects of each size class, kmalloc's blocks
 * of whole pages and thread stacks that a test took and did not give
 * back. Memory on its way back is let back first (RCU callbacks and
 * kfree_rcu() batches, cached dentries), so that only what nobody will
 * free is counted.
 */
#ifndef KERNEL_KTEST_LEAK_H
#define KERNEL_KTEST_LEAK_H

#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "lib/types.h"

struct ktest_mem {
	u64 objects[KMALLOC_NR_CLASSES];	/* per kmalloc size class */
	u64 blocks[PAGE_MAX_ORDER + 1];		/* kmalloc's, by order */
	u64 stacks;				/* threads not yet joined */
};

/**
 * ktest_mem_measure - let deferred frees finish, then count what is held
 * @m: filled with the counts
 *
 * Context: thread context, sleeps (rcu_barrier()).
 */
void ktest_mem_measure(struct ktest_mem *m);

/**
 * ktest_mem_growth - say what grew from @before to @after
 * @before: counts before the test
 * @after: counts after it
 * @buf: "3 objects of 64 bytes, 1 block of 2 pages" and so on
 * @size: size of @buf
 *
 * Return: true if anything grew (and @buf says what), false if not.
 */
bool ktest_mem_growth(const struct ktest_mem *before,
		      const struct ktest_mem *after, char *buf, size_t size);

/**
 * ktest_mem_accept - add to @base what grew from @before to @after
 * @base: the counts a later check compares with
 * @before: counts before a test that leaked
 * @after: counts after it
 *
 * A leak is reported once, by the test that made it, and not again by a
 * fixture whose check spans that test.
 */
void ktest_mem_accept(struct ktest_mem *base, const struct ktest_mem *before,
		      const struct ktest_mem *after);

/**
 * ktest_mem_take_kept - what the last test kept on purpose, if anything
 * @before: counts at its ktest_keep_begin()
 * @after: counts at its ktest_keep_end()
 *
 * Return: the reason it gave, or NULL if it kept nothing. Forgets it.
 */
const char *ktest_mem_take_kept(struct ktest_mem *before,
				struct ktest_mem *after);

#endif
