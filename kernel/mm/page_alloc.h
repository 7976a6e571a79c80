/*
 * The physical page allocator: a binary buddy allocator over every usable
 * page of the memory map, RAM above 4 GiB included. Blocks are 2^order
 * pages, order 0 to PAGE_MAX_ORDER. Each physical page has a small
 * struct page (the array is sized at boot from the highest address), which
 * kmalloc also uses to find an object's slab.
 */
#ifndef KERNEL_PAGE_ALLOC_H
#define KERNEL_PAGE_ALLOC_H

#include "lib/list.h"
#include "lib/types.h"

#define PAGE_SIZE	4096ul
#define PAGE_SHIFT	12
#define PAGE_MAX_ORDER	10	/* 4 MiB blocks */

enum page_state {
	PAGE_RESERVED,		/* not RAM, or the kernel's own */
	PAGE_FREE,		/* head of a free block of `order` */
	PAGE_FREE_TAIL,		/* inside a free block */
	PAGE_ALLOCATED,		/* head of an allocated block */
	PAGE_ALLOCATED_TAIL,	/* inside an allocated block */
	PAGE_SLAB,		/* a kmalloc slab page */
};

struct page {
	struct list_head link;	/* free list, or kmalloc's slab lists */
	u8 state;
	u8 order;
	u8 slab_class;		/* kmalloc size class */
	u8 kmalloc_large;	/* head of a kmalloc() above the classes */
	u16 slab_inuse;		/* objects handed out from this slab */
	u16 slab_free;		/* index of the first free object */
};

void page_alloc_init(void);
bool page_alloc_ready(void);

/* 2^order contiguous pages, or NULL/0 when out of memory. */
void *alloc_pages(unsigned int order);
u64 page_alloc_phys(unsigned int order);
void free_pages(void *addr);

struct page *virt_to_page(const void *addr);
void *page_to_virt(const struct page *page);

struct page_alloc_stats {
	u64 total_pages;	/* usable RAM handed to the allocator */
	u64 free_pages;
	u64 free_blocks[PAGE_MAX_ORDER + 1];
	u64 highest_phys;
};

void page_alloc_get_stats(struct page_alloc_stats *s);

#endif
