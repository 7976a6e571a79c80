/*
 * KASAN, the kernel address sanitizer (generic mode, as Linux's
 * CONFIG_KASAN_GENERIC): every load and store the compiler instruments
 * (-fsanitize=kernel-address) first asks whether its bytes may be touched,
 * and a read of freed memory, of a redzone or past an object's end is
 * reported at the access, with where the object was allocated, where it
 * was freed and, if RCU freed it, where call_rcu() or kfree_rcu() was
 * called and in which grace period.
 *
 * Shadow memory answers the question: one byte for every 8-byte granule
 * of the kernel half, at arch_kasan_shadow_of(addr). 0 means all 8 bytes
 * may be touched, 1 to 7 that only the first k may, a negative value
 * (one of the codes below) that none may, and why. The arch code maps it
 * (arch/x86_64/kasan_shadow.c); this folder fills it:
 *   - kmalloc objects (kasan.c): unpoisoned up to the size asked for; the
 *     rest of the slot is a redzone that also holds the object's metadata
 *     (struct kasan_meta: who allocated, freed and queued it);
 *   - freed objects are poisoned and wait in a quarantine
 *     (kasan_quarantine.c), a bounded FIFO, before they can be reused, so
 *     a late read finds poison rather than a new object;
 *   - pages handed back to the page allocator are poisoned whole;
 *   - globals get redzones from the compiler, registered at boot; stack
 *     frames are poisoned by the instrumented functions themselves.
 *
 * The compiler calls __asan_load8_noabort(addr) and friends (outline
 * instrumentation: one call per access, and the kernel decides what is
 * checked: NULL and user addresses are left to fault as page faults).
 * Files built without instrumentation say why in the Makefile.
 */
#ifndef KERNEL_MM_KASAN_H
#define KERNEL_MM_KASAN_H

#include "lib/types.h"

/* What freed an object through RCU, for the report's "last potentially
 * related work creation". */
enum kasan_aux_kind {
	KASAN_AUX_NONE,
	KASAN_AUX_CALL_RCU,
	KASAN_AUX_KFREE_RCU,
};

#if KERNEL_KASAN

void kasan_init(void);
/* The slot size kmalloc needs for an object of size bytes. */
size_t kasan_slot_size(size_t size);
/* A new slab page, or a large block: not yet an object. */
void kasan_poison_slab(void *page, size_t bytes);
/* An object handed to a caller; returns obj. */
void *kasan_object_allocated(void *obj, size_t slot_size, size_t size);
/* kfree(), before anything reads the object: false if it is not a live
 * object (a double or invalid free, reported: leave it alone). */
bool kasan_free_allowed(const void *obj, size_t slot_size);
/* kfree() hands the object over: true if it now waits in the quarantine,
 * which gives it back through kmalloc_free_now(); false if another CPU's
 * kfree() of it won (a double free, reported: leave it alone). */
bool kasan_object_freed(void *obj, size_t slot_size);
/* The size the caller asked for. */
size_t kasan_object_size(const void *obj, size_t slot_size);
void kasan_pages_allocated(void *addr, size_t bytes);
void kasan_pages_freed(void *addr, size_t bytes);
/* call_rcu() and kfree_rcu() say which object they will free, after
 * which grace period (its number). */
void kasan_record_aux_stack(const void *addr, enum kasan_aux_kind kind,
			    unsigned long gp);
/* A kernel stack about to be (re)used: its shadow, clean; -1 if there is
 * no memory for the shadow. */
int kasan_stack_prepare(uptr base, size_t size);
/* Give every quarantined object back now (for counts of free pages). */
void kasan_quarantine_drain(void);
/* An array outside kmalloc (the per-CPU arrays): its first size bytes
 * accessible, the rest of region (from a granule-aligned obj) a redzone
 * reported as a global's overflow, which the array was before. */
void kasan_fence_global(const void *obj, size_t size, size_t region);

#else

static inline void kasan_init(void) {}
static inline size_t kasan_slot_size(size_t size) { return size; }
static inline void kasan_poison_slab(void *page, size_t bytes)
{
	(void)page;
	(void)bytes;
}
static inline void *kasan_object_allocated(void *obj, size_t slot_size,
					   size_t size)
{
	(void)slot_size;
	(void)size;
	return obj;
}
static inline bool kasan_free_allowed(const void *obj, size_t slot_size)
{
	(void)obj;
	(void)slot_size;
	return true;
}
static inline bool kasan_object_freed(void *obj, size_t slot_size)
{
	(void)obj;
	(void)slot_size;
	return false;
}
static inline size_t kasan_object_size(const void *obj, size_t slot_size)
{
	(void)obj;
	return slot_size;
}
static inline void kasan_pages_allocated(void *addr, size_t bytes)
{
	(void)addr;
	(void)bytes;
}
static inline void kasan_pages_freed(void *addr, size_t bytes)
{
	(void)addr;
	(void)bytes;
}
static inline void kasan_record_aux_stack(const void *addr, int kind,
					  unsigned long gp)
{
	(void)addr;
	(void)kind;
	(void)gp;
}
static inline int kasan_stack_prepare(uptr base, size_t size)
{
	(void)base;
	(void)size;
	return 0;
}
static inline void kasan_quarantine_drain(void) {}
static inline void kasan_fence_global(const void *obj, size_t size,
				      size_t region)
{
	(void)obj;
	(void)size;
	(void)region;
}

#endif

#endif
