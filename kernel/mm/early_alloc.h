/*
 * The boot-time allocator, before the page allocator exists: it hands out
 * zeroed pages from the memory map by bumping a cursor, only below 1 GiB
 * (the part that the boot page tables map), and remembers what it gave so
 * that page_alloc_init() leaves those pages alone.
 */
#ifndef KERNEL_EARLY_ALLOC_H
#define KERNEL_EARLY_ALLOC_H

#include "lib/types.h"

#define EARLY_ALLOC_LIMIT	(1ull << 30)

void early_alloc_init(u64 kernel_phys_end);
/* Physical address of npages contiguous zeroed pages; panics if none. */
u64 early_alloc_pages(size_t npages);
/* Whether a physical page must not be handed to the page allocator. */
bool early_alloc_page_reserved(u64 phys);
void early_alloc_done(void);

#endif
