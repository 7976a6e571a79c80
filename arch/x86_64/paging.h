/* Building and switching to the kernel's own page tables. */
#ifndef ARCH_PAGING_H
#define ARCH_PAGING_H

#include "arch.h"
#include "kernel/sched/spinlock.h"

void paging_init(void);

#endif
