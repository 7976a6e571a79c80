/* Building and switching to the kernel's own page tables. */
#ifndef ARCH_PAGING_H
#define ARCH_PAGING_H

#include "arch.h"
#include "kernel/sched/spinlock.h"

#define PTE_PRESENT	(1ull << 0)
#define PTE_WRITE	(1ull << 1)
#define PTE_PWT		(1ull << 3)
#define PTE_PCD		(1ull << 4)
#define PTE_HUGE	(1ull << 7)
#define PTE_GLOBAL	(1ull << 8)
#define PTE_NX		(1ull << 63)
#define PTE_ADDR_MASK	0x000ffffffffff000ull

void paging_init(void);
/* The kernel's PML4, for code that maps address ranges of its own. */
u64 *paging_kernel_pml4(void);
/* PTE_NX where the CPU offers it (after paging_init()), else 0. */
u64 paging_nx_flag(void);
/* Whether va is mapped writable now, for the page-fault handler. */
bool paging_address_writable(uptr va);
/* KASAN's shadow in a new PML4 (kasan_shadow.c). */
void paging_install_kasan_shadow(u64 *pml4);

#endif
