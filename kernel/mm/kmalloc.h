/*
 * kmalloc/kfree: small objects from per-size-class slabs of one page each,
 * with no per-object header, so millions of small objects cost their own
 * size rounded to the class and nothing more. Requests above the largest
 * class take whole pages. Out of memory returns NULL.
 *
 * In the debug build (KERNEL_DEBUG) freed objects are filled with
 * KMALLOC_POISON, checked when handed out again (a write after free is
 * reported), and kfree() of an object that is already free is reported
 * as a double free.
 */
#ifndef KERNEL_KMALLOC_H
#define KERNEL_KMALLOC_H

#include "lib/types.h"

#define KMALLOC_POISON		0x6b
#define KMALLOC_NR_CLASSES	12
#define KMALLOC_MAX_CLASS	2048

void kmalloc_init(void);
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(const void *ptr);
/* The usable size of an allocation (its class size, or its pages; under
 * KASAN, the size asked for). */
size_t ksize(const void *ptr);
/* For KASAN: the object whose slot (or large block) holds addr, and the
 * slot's size; false if addr is in none. */
bool kmalloc_find_object(const void *addr, void **obj, size_t *slot_size);
/* For KASAN's quarantine: give an object back to its slab, or its pages
 * back to the page allocator, now. */
void kmalloc_free_now(void *ptr);

struct kmalloc_class_stats {
	u32 size;
	u64 slabs;
	/* Objects handed to callers by kmalloc() and not yet kfree()'d:
	 * an object a debug quarantine still holds after its kfree() is
	 * not in use. The self-tests' leak check relies on this. */
	u64 objects_in_use;
	u64 allocs;
	u64 frees;
};

void kmalloc_get_stats(struct kmalloc_class_stats out[KMALLOC_NR_CLASSES]);
/* The index in kmalloc_get_stats() of the class kmalloc(size) takes its
 * object from (KASAN's redzone included), or -1 for whole pages. */
int kmalloc_class_of(size_t size);
/* Blocks of 2^order pages that kmalloc() handed out above the largest
 * class and that are not yet kfree()'d (same meaning as objects_in_use). */
u64 kmalloc_large_in_use(unsigned int order);

#endif
