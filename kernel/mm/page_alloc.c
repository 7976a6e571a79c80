/*
 * Binary buddy allocator. A free block of order k starts at a page index
 * that is a multiple of 2^k; its buddy is the block at index ^ 2^k. Free
 * merges a block with its buddy for as long as the buddy is free and of
 * the same order, so fragmentation stays bounded. One lock guards all
 * lists: allocations of pages are rare next to kmalloc's, which caches.
 */
#include "page_alloc.h"
#include "early_alloc.h"
#include "kasan.h"
#include "arch.h"
#include "kernel/bootinfo.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/spinlock.h"

static struct page *pages;		/* one per physical page */
static u64 nr_pages;			/* pages covered by the array */
static struct list_head free_lists[PAGE_MAX_ORDER + 1];
static u64 free_count[PAGE_MAX_ORDER + 1];
static u64 total_pages;
static u64 pages_above_4g;	/* of total_pages: RAM past the 32-bit hole */
static DEFINE_SPINLOCK(page_lock);
static bool ready;

static u64 page_index(const struct page *p)
{
	return (u64)(p - pages);
}

struct page *virt_to_page(const void *addr)
{
	u64 pfn = virt_to_phys(addr) >> PAGE_SHIFT;

	return pfn < nr_pages ? &pages[pfn] : NULL;
}

void *page_to_virt(const struct page *page)
{
	return phys_to_virt(page_index(page) << PAGE_SHIFT);
}

static void mark_free(struct page *p, unsigned int order)
{
	u64 i, n = 1ull << order;

	p->state = PAGE_FREE;
	p->order = order;
	for (i = 1; i < n; i++)
		p[i].state = PAGE_FREE_TAIL;
	list_add(&p->link, &free_lists[order]);
	free_count[order]++;
}

static void take_free(struct page *p)
{
	list_del(&p->link);
	free_count[p->order]--;
}

/* Return a block to the lists, merging with free buddies. Lock held. */
static void free_block(u64 index, unsigned int order)
{
	while (order < PAGE_MAX_ORDER) {
		u64 buddy = index ^ (1ull << order);
		struct page *b = &pages[buddy];

		if (buddy + (1ull << order) > nr_pages ||
		    b->state != PAGE_FREE || b->order != order)
			break;
		take_free(b);
		b->state = PAGE_FREE_TAIL;
		index &= ~(1ull << order);
		order++;
	}
	mark_free(&pages[index], order);
}

static struct page *alloc_block(unsigned int order)
{
	unsigned int k;
	struct page *p;
	u64 i;

	for (k = order; k <= PAGE_MAX_ORDER; k++)
		if (!list_empty(&free_lists[k]))
			break;
	if (k > PAGE_MAX_ORDER)
		return NULL;
	p = list_first_entry(&free_lists[k], struct page, link);
	take_free(p);
	/* Split: give the upper halves back until the block fits. */
	while (k > order) {
		k--;
		mark_free(p + (1ull << k), k);
	}
	p->state = PAGE_ALLOCATED;
	p->order = order;
	for (i = 1; i < (1ull << order); i++)
		p[i].state = PAGE_ALLOCATED_TAIL;
	return p;
}

void *alloc_pages(unsigned int order)
{
	unsigned long flags;
	struct page *p;

	if (order > PAGE_MAX_ORDER)
		return NULL;
	flags = spin_lock_irqsave(&page_lock);
	p = alloc_block(order);
	spin_unlock_irqrestore(&page_lock, flags);
	if (!p)
		return NULL;
	p->kmalloc_large = 0;
	kasan_pages_allocated(page_to_virt(p), PAGE_SIZE << order);
	return page_to_virt(p);
}

u64 page_alloc_phys(unsigned int order)
{
	void *v = alloc_pages(order);

	return v ? virt_to_phys(v) : 0;
}

void free_pages(void *addr)
{
	struct page *p = virt_to_page(addr);
	unsigned long flags;

	if (!p || ((uptr)addr & (PAGE_SIZE - 1)) ||
	    (p->state != PAGE_ALLOCATED && p->state != PAGE_SLAB))
		panic("free_pages(%p): not the start of an allocated block "
		      "(state %u)", addr, p ? p->state : 0);
	kasan_pages_freed(addr, PAGE_SIZE << p->order);
	flags = spin_lock_irqsave(&page_lock);
	free_block(page_index(p), p->order);
	spin_unlock_irqrestore(&page_lock, flags);
}

static u64 highest_usable(void)
{
	u64 end = 0;
	unsigned int i;

	for (i = 0; i < boot_info.nr_regions; i++) {
		const struct mem_region *r = &boot_info.regions[i];

		if (r->type == MEM_USABLE && r->base + r->length > end)
			end = r->base + r->length;
	}
	return end;
}

/* Hand every usable page to the lists, in the largest aligned blocks. */
static void add_region(u64 start, u64 end)
{
	u64 i = ALIGN_UP(start, PAGE_SIZE) >> PAGE_SHIFT;
	u64 last = end >> PAGE_SHIFT;

	while (i < last) {
		unsigned int order = 0;

		if (early_alloc_page_reserved(i << PAGE_SHIFT)) {
			i++;
			continue;
		}
		while (order < PAGE_MAX_ORDER &&
		       !(i & ((2ull << order) - 1)) &&
		       i + (2ull << order) <= last)
			order++;
		mark_free(&pages[i], order);
		total_pages += 1ull << order;
		if (i >= (4ull << 30) >> PAGE_SHIFT)
			pages_above_4g += 1ull << order;
		i += 1ull << order;
	}
}

__init void page_alloc_init(void)
{
	unsigned int i;
	u64 array_pages;

	nr_pages = highest_usable() >> PAGE_SHIFT;
	array_pages = DIV_ROUND_UP(nr_pages * sizeof(struct page), PAGE_SIZE);
	pages = (struct page *)phys_to_virt(early_alloc_pages(array_pages));
	early_alloc_done();
	for (i = 0; i <= PAGE_MAX_ORDER; i++)
		INIT_LIST_HEAD(&free_lists[i]);
	for (i = 0; i < boot_info.nr_regions; i++) {
		const struct mem_region *r = &boot_info.regions[i];

		if (r->type == MEM_USABLE)
			add_region(r->base, r->base + r->length);
	}
	ready = true;
	pr_info("memory: %llu MiB usable in %llu pages (%llu MiB above 4 GiB), "
		"page array %llu KiB\n", total_pages * PAGE_SIZE >> 20,
		total_pages, pages_above_4g * PAGE_SIZE >> 20,
		array_pages * PAGE_SIZE >> 10);
}

bool page_alloc_ready(void)
{
	return ready;
}

void page_alloc_get_stats(struct page_alloc_stats *s)
{
	unsigned long flags = spin_lock_irqsave(&page_lock);
	unsigned int k;

	s->total_pages = total_pages;
	s->free_pages = 0;
	for (k = 0; k <= PAGE_MAX_ORDER; k++) {
		s->free_blocks[k] = free_count[k];
		s->free_pages += free_count[k] << k;
	}
	s->highest_phys = nr_pages << PAGE_SHIFT;
	spin_unlock_irqrestore(&page_lock, flags);
}
