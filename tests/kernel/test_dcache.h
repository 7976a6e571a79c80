/*
 * The tree the dcache suite's files share: built once, by whichever test
 * needs it first.
 */
#ifndef TESTS_KERNEL_TEST_DCACHE_H
#define TESTS_KERNEL_TEST_DCACHE_H

#include "kernel/test/ktest.h"

#define TREE_SEED	7u
#define TREE_FILES	4096u

void dcache_test_need_tree(struct ktest_context *t);

#endif
