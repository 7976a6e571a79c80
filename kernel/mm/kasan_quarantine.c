/*
 * KASAN's quarantine: freed kmalloc objects wait here, poisoned, before
 * their memory can be handed out again. Without it a freed object is
 * often reused at once, and a late reader (the typical RCU bug: a reader
 * still running when the grace period ended) reads a new, valid object
 * and nothing is reported. One FIFO for the whole machine, bounded to
 * 1/32 of RAM as Linux bounds its own; the oldest objects leave first.
 *
 * Objects are linked through their metadata (kasan.h), never through
 * their own bytes, so a use-after-free write cannot break the list.
 */
#include "kasan_internal.h"
#include "kmalloc.h"
#include "page_alloc.h"
#include "kernel/sched/spinlock.h"
#include "lib/atomic.h"

static DEFINE_SPINLOCK(quarantine_lock);
static struct kasan_meta *oldest, *newest;
static size_t quarantined_bytes;
static size_t limit_bytes;

/* Fixed once, by kasan_init() on the boot CPU before any kfree(). */
size_t kasan_quarantine_limit(void)
{
	if (!limit_bytes) {
		struct page_alloc_stats s;

		page_alloc_get_stats(&s);
		limit_bytes = s.total_pages * PAGE_SIZE / 32;
	}
	return limit_bytes;
}

/* The object whose metadata this is. */
static void *object_of(struct kasan_meta *meta)
{
	return (u8 *)(meta + 1) - meta->slot_size;
}

/* Take objects off the old end until at most keep bytes remain. Lock
 * held; returns the list taken, oldest first. */
static struct kasan_meta *take_oldest(size_t keep)
{
	struct kasan_meta *first = oldest, *last = NULL;

	while (oldest && quarantined_bytes > keep) {
		quarantined_bytes -= oldest->slot_size;
		last = oldest;
		oldest = oldest->quarantine_next;
	}
	if (!last)
		return NULL;
	last->quarantine_next = NULL;
	if (!oldest)
		newest = NULL;
	return first;
}

/* Give the objects back to kmalloc, with no quarantine lock held: the
 * slab's own lock is taken inside. */
static void release(struct kasan_meta *list)
{
	while (list) {
		struct kasan_meta *next = list->quarantine_next;

		WRITE_ONCE(list->state, KASAN_OBJECT_FREED);
		kmalloc_free_now(object_of(list));
		list = next;
	}
}

void kasan_quarantine_put(struct kasan_meta *meta)
{
	size_t limit = kasan_quarantine_limit();
	struct kasan_meta *old;
	unsigned long flags;

	meta->quarantine_next = NULL;
	flags = spin_lock_irqsave(&quarantine_lock);
	if (newest)
		newest->quarantine_next = meta;
	else
		oldest = meta;
	newest = meta;
	quarantined_bytes += meta->slot_size;
	/* Down to 3/4 of the limit at once: one release every few frees
	 * rather than one at every free once the quarantine is full. */
	old = quarantined_bytes > limit ? take_oldest(limit / 4 * 3) : NULL;
	spin_unlock_irqrestore(&quarantine_lock, flags);
	release(old);
}

/**
 * kasan_quarantine_drain - give every quarantined object back now
 *
 * For counts of memory in use that must not include objects already
 * freed (the self-tests' leak check): afterwards, kmalloc's statistics
 * count only what callers still hold.
 */
void kasan_quarantine_drain(void)
{
	unsigned long flags = spin_lock_irqsave(&quarantine_lock);
	struct kasan_meta *all = take_oldest(0);

	spin_unlock_irqrestore(&quarantine_lock, flags);
	release(all);
}
