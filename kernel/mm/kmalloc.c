/*
 * Slab allocation for kmalloc. Each size class keeps a list of slabs that
 * still have free objects; a slab is one page whose bookkeeping lives in
 * its struct page (class, objects in use, first free object), and whose
 * free objects form a list threaded through the objects themselves by
 * 16-bit index. A slab that empties is given back to the page allocator,
 * except one per class kept to damp alloc/free ping-pong.
 *
 * Under KASAN (kasan.h) every object's slot also holds a redzone with
 * the object's metadata, and kfree() hands the object to KASAN's
 * quarantine, which gives it back later through kmalloc_free_now(). This
 * file is built without KASAN's instrumentation: it writes the free-list
 * links and the metadata of objects that are, for everyone else, freed.
 */
#include "kmalloc.h"
#include "page_alloc.h"
#include "kasan.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/spinlock.h"
#include "lib/atomic.h"
#include "lib/bitops.h"
#include "lib/string.h"

#define NO_FREE_OBJECT	0xffff
/* KASAN's shadow finds writes after free at the write; the poison byte
 * only at the next allocation, and it would overwrite the metadata. */
#define SLAB_POISON	(KERNEL_DEBUG && !KERNEL_KASAN)

struct size_class {
	spinlock_t lock;
	u32 size;
	u32 per_slab;
	struct list_head partial;	/* slabs with at least one free object */
	u64 slabs;
	u64 in_use;
	u64 allocs;
	u64 frees;
	struct page *spare;		/* one empty slab kept back */
} __aligned(64);

static const u32 class_sizes[KMALLOC_NR_CLASSES] = {
	16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 1024, KMALLOC_MAX_CLASS,
};
static struct size_class classes[KMALLOC_NR_CLASSES];
/* kmalloc_large_in_use(): counted without a lock, atomically. */
static u64 large_in_use[PAGE_MAX_ORDER + 1];

__init void kmalloc_init(void)
{
	unsigned int i;

	for (i = 0; i < KMALLOC_NR_CLASSES; i++) {
		spin_lock_init(&classes[i].lock);
		classes[i].size = class_sizes[i];
		classes[i].per_slab = PAGE_SIZE / class_sizes[i];
		INIT_LIST_HEAD(&classes[i].partial);
	}
}

static int class_for(size_t size)
{
	unsigned int i;

	for (i = 0; i < KMALLOC_NR_CLASSES; i++)
		if (size <= class_sizes[i])
			return i;
	return -1;
}

static u8 *object_at(struct page *slab, struct size_class *c, u16 index)
{
	return (u8 *)page_to_virt(slab) + (size_t)index * c->size;
}

static u16 *next_free_link(u8 *obj)
{
	return (u16 *)obj;
}

static void poison_object(struct size_class *c, u8 *obj)
{
	if (SLAB_POISON)
		memset(obj + sizeof(u16), KMALLOC_POISON,
		       c->size - sizeof(u16));
}

static void check_poison(struct size_class *c, u8 *obj)
{
	size_t i;

	if (!SLAB_POISON)
		return;
	for (i = sizeof(u16); i < c->size; i++)
		if (obj[i] != KMALLOC_POISON)
			panic("BUG: kmalloc: %u-byte object %p was written "
			      "after it was freed (byte %zu is %#x, expected "
			      "poison %#x)", c->size, obj, i, obj[i],
			      KMALLOC_POISON);
}

/* A fresh slab with every object on its free list. Class lock held. */
static struct page *new_slab(struct size_class *c, unsigned int class)
{
	struct page *slab;
	u8 *base;
	u32 i;

	if (c->spare) {
		slab = c->spare;
		c->spare = NULL;
		return slab;
	}
	base = alloc_pages(0);
	if (!base)
		return NULL;
	slab = virt_to_page(base);
	slab->state = PAGE_SLAB;
	slab->slab_class = class;
	slab->slab_inuse = 0;
	slab->slab_free = 0;
	for (i = 0; i < c->per_slab; i++) {
		u8 *obj = object_at(slab, c, i);

		*next_free_link(obj) = i + 1 < c->per_slab ? i + 1
							   : NO_FREE_OBJECT;
		poison_object(c, obj);
	}
	kasan_poison_slab(base, PAGE_SIZE);
	c->slabs++;
	return slab;
}

static void *slab_alloc(unsigned int class)
{
	struct size_class *c = &classes[class];
	unsigned long flags = spin_lock_irqsave(&c->lock);
	struct page *slab;
	u8 *obj = NULL;

	if (list_empty(&c->partial)) {
		slab = new_slab(c, class);
		if (!slab)
			goto out;
		list_add(&slab->link, &c->partial);
	}
	slab = list_first_entry(&c->partial, struct page, link);
	obj = object_at(slab, c, slab->slab_free);
	slab->slab_free = *next_free_link(obj);
	check_poison(c, obj);
	if (++slab->slab_inuse == c->per_slab)
		list_del_init(&slab->link);
	c->in_use++;
	c->allocs++;
out:
	spin_unlock_irqrestore(&c->lock, flags);
	return obj;
}

/* The statistics count what callers hold: under KASAN a kfree() counts
 * when it is called, not when the quarantine gives the object back.
 * Class lock held. */
static void count_free(struct size_class *c)
{
	c->in_use--;
	c->frees++;
}

/* Exact double-free detection: is this object on its slab's free list? */
static bool already_free(struct page *slab, struct size_class *c, u16 index)
{
	u16 i = slab->slab_free;

	while (i != NO_FREE_OBJECT) {
		if (i == index)
			return true;
		i = *next_free_link(object_at(slab, c, i));
	}
	return false;
}

static void slab_free(struct page *slab, const void *ptr)
{
	struct size_class *c = &classes[slab->slab_class];
	u8 *base = page_to_virt(slab);
	size_t offset = (const u8 *)ptr - base;
	u16 index = offset / c->size;
	unsigned long flags;

	if (offset % c->size)
		panic("BUG: kfree(%p): not the start of a %u-byte object",
		      ptr, c->size);
	flags = spin_lock_irqsave(&c->lock);
	if (SLAB_POISON && already_free(slab, c, index))
		panic("BUG: kfree(%p): double free of a %u-byte object", ptr,
		      c->size);
	poison_object(c, (u8 *)ptr);
	*next_free_link((u8 *)ptr) = slab->slab_free;
	slab->slab_free = index;
	if (slab->slab_inuse-- == c->per_slab)
		list_add(&slab->link, &c->partial);
	if (!KERNEL_KASAN)
		count_free(c);
	if (slab->slab_inuse == 0) {
		list_del(&slab->link);
		if (!c->spare) {
			c->spare = slab;
			slab = NULL;
		} else {
			c->slabs--;
		}
	} else {
		slab = NULL;
	}
	spin_unlock_irqrestore(&c->lock, flags);
	if (slab) {
		slab->state = PAGE_ALLOCATED;
		free_pages(base);
	}
}

/* A large allocation (above the largest class): whole pages, marked so
 * that kfree() and KASAN know them from alloc_pages()'s own. */
static void *large_alloc(size_t size, size_t *slot_size)
{
	unsigned int order = 0;
	void *p;

	while ((PAGE_SIZE << order) < size) {
		if (++order > PAGE_MAX_ORDER)
			return NULL;
	}
	p = alloc_pages(order);
	if (p) {
		virt_to_page(p)->kmalloc_large = 1;
		atomic_add_relaxed(&large_in_use[order], 1);
	}
	*slot_size = PAGE_SIZE << order;
	return p;
}

void *kmalloc(size_t size)
{
	size_t slot_size;
	int class;
	void *obj;

	/* Larger than any block, and KASAN's redzone must not wrap. */
	if (size > (PAGE_SIZE << PAGE_MAX_ORDER))
		return NULL;
	slot_size = kasan_slot_size(size ? size : 1);
	class = class_for(slot_size);
	if (class >= 0) {
		obj = slab_alloc(class);
		slot_size = class_sizes[class];
	} else {
		obj = large_alloc(slot_size, &slot_size);
	}
	if (obj && KERNEL_KASAN)
		kasan_object_allocated(obj, slot_size, size);
	return obj;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

/* The slot of the object that starts at ptr; a pointer into the middle
 * of one is a bug of the caller's, reported at once. */
static size_t slot_size_at(struct page *p, const void *ptr)
{
	struct size_class *c;

	if (p->state != PAGE_SLAB) {
		if (ptr != page_to_virt(p))
			panic("BUG: kfree(%p): not the start of a block of %lu "
			      "pages", ptr, 1ul << p->order);
		return PAGE_SIZE << p->order;
	}
	c = &classes[p->slab_class];
	if (((const u8 *)ptr - (const u8 *)page_to_virt(p)) % c->size)
		panic("BUG: kfree(%p): not the start of a %u-byte object",
		      ptr, c->size);
	return c->size;
}

static bool is_kmalloc_object(struct page *p)
{
	return p->state == PAGE_SLAB ||
	       (p->state == PAGE_ALLOCATED && p->kmalloc_large);
}

/* The statistics count what callers hold (kmalloc.h): a kfree() counts
 * at once, however long KASAN's quarantine keeps the memory. Without
 * KASAN a slab object is counted by slab_free(), under the lock it takes
 * anyway. */
static void count_kfree(struct page *p)
{
	struct size_class *c;
	unsigned long flags;

	if (p->state != PAGE_SLAB) {
		atomic_add_relaxed(&large_in_use[p->order], (u64)-1);
		return;
	}
	if (!KERNEL_KASAN)
		return;
	c = &classes[p->slab_class];
	flags = spin_lock_irqsave(&c->lock);
	count_free(c);
	spin_unlock_irqrestore(&c->lock, flags);
}

void kfree(const void *ptr)
{
	struct page *p;

	if (!ptr)
		return;
	p = virt_to_page(ptr);
	if (KERNEL_KASAN && p && is_kmalloc_object(p) &&
	    !kasan_free_allowed(ptr, slot_size_at(p, ptr)))
		return;
	/* A callback still queued in the object would run on freed
	 * memory: say so, with who queued it, and leave it allocated. */
	if (KERNEL_DEBUG && p && (p->state == PAGE_SLAB ||
				  p->state == PAGE_ALLOCATED) &&
	    !rcu_head_check_free(ptr, ksize(ptr)))
		return;
	if (KERNEL_KASAN && p && is_kmalloc_object(p)) {
		/* Counted once, by the kfree() that won a double free. */
		if (kasan_object_freed((void *)ptr, slot_size_at(p, ptr)))
			count_kfree(p);
		return;
	}
	if (p && is_kmalloc_object(p))
		count_kfree(p);
	kmalloc_free_now((void *)ptr);
}

void kmalloc_free_now(void *ptr)
{
	struct page *p = virt_to_page(ptr);

	if (p && p->state == PAGE_SLAB) {
		slab_free(p, ptr);
	} else if (p && p->state == PAGE_ALLOCATED) {
		p->kmalloc_large = 0;
		free_pages(ptr);
	} else {
		panic("BUG: kfree(%p): not an allocated object (page state "
		      "%u)", ptr, p ? p->state : 0);
	}
}

size_t ksize(const void *ptr)
{
	struct page *p = virt_to_page(ptr);
	size_t slot_size = p->state == PAGE_SLAB
				   ? classes[p->slab_class].size
				   : PAGE_SIZE << p->order;

	if (KERNEL_KASAN && is_kmalloc_object(p))
		return kasan_object_size(ptr, slot_size);
	return slot_size;
}

bool kmalloc_find_object(const void *addr, void **obj, size_t *slot_size)
{
	struct page *p = virt_to_page(addr);
	unsigned int back;

	if (!p)
		return false;
	if (p->state == PAGE_SLAB) {
		const struct size_class *c = &classes[p->slab_class];
		u8 *base = page_to_virt(p);
		size_t index = ((const u8 *)addr - base) / c->size;

		/* The page's tail past its last slot is in no object. */
		if (index >= c->per_slab)
			return false;
		*obj = base + index * c->size;
		*slot_size = c->size;
		return true;
	}
	for (back = 0; back < (1u << PAGE_MAX_ORDER) &&
		       p->state == PAGE_ALLOCATED_TAIL; back++)
		p--;
	if (p->state != PAGE_ALLOCATED || !p->kmalloc_large)
		return false;
	*obj = page_to_virt(p);
	*slot_size = PAGE_SIZE << p->order;
	return true;
}

u64 kmalloc_large_in_use(unsigned int order)
{
	return order <= PAGE_MAX_ORDER ? READ_ONCE(large_in_use[order]) : 0;
}

int kmalloc_class_of(size_t size)
{
	if (size > (PAGE_SIZE << PAGE_MAX_ORDER))
		return -1;
	return class_for(kasan_slot_size(size ? size : 1));
}

void kmalloc_get_stats(struct kmalloc_class_stats out[KMALLOC_NR_CLASSES])
{
	unsigned int i;

	for (i = 0; i < KMALLOC_NR_CLASSES; i++) {
		struct size_class *c = &classes[i];
		unsigned long flags = spin_lock_irqsave(&c->lock);

		out[i].size = c->size;
		out[i].slabs = c->slabs;
		out[i].objects_in_use = c->in_use;
		out[i].allocs = c->allocs;
		out[i].frees = c->frees;
		spin_unlock_irqrestore(&c->lock, flags);
	}
}
