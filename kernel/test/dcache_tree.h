/*
 * A tree of files whose paths follow from their index, for tests,
 * benchmarks and the shell's `dcache populate`.
 */
#ifndef KERNEL_DCACHE_TREE_H
#define KERNEL_DCACHE_TREE_H

#include "kernel/fs/dcache.h"

#define DCACHE_TREE_FANOUT	16

/* Create files first .. first+n-1 (and the 256 directories). */
int dcache_tree_populate(unsigned int first, unsigned int n, u32 seed);
void dcache_tree_file_path(unsigned int i, u32 seed, char *buf, size_t size);

#endif
