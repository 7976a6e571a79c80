/*
 * The per-CPU arrays' allocation (percpu_array.h): once, at boot, for the
 * CPUs present. Small arrays share pages: each is carved, cache-line
 * aligned, from the current chunk, so that two dozen arrays of a few
 * bytes per CPU do not take a page each.
 */
#include "percpu_array.h"
#include "percpu.h"
#include "panic.h"
#include "printk.h"
#include "kernel/mm/kasan.h"
#include "kernel/mm/page_alloc.h"
#include "lib/string.h"

#define CHUNK_ORDER	2		/* 16 KiB */
#define CHUNK_SIZE	(PAGE_SIZE << CHUNK_ORDER)

extern const struct percpu_array __start_percpu_arrays[];
extern const struct percpu_array __stop_percpu_arrays[];

static u8 *chunk_next, *chunk_end;
static size_t arrays_bytes;

/* The smallest order of pages holding bytes; panics past the largest. */
static unsigned int order_for(size_t bytes, const char *name)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < bytes) {
		if (++order > PAGE_MAX_ORDER)
			panic("percpu: %s needs %zu bytes for %u CPUs; expected "
			      "at most %lu (one block of order %u)", name, bytes,
			      nr_cpus, PAGE_SIZE << PAGE_MAX_ORDER,
			      PAGE_MAX_ORDER);
	}
	return order;
}

static void *pages_or_panic(unsigned int order, const char *name)
{
	void *p = alloc_pages(order);

	if (!p)
		panic("percpu: no memory for %s (%u CPUs)", name, nr_cpus);
	memset(p, 0, PAGE_SIZE << order);
	return p;
}

/* bytes at align, zeroed, from the chunk; a large array gets pages of
 * its own rather than wasting the rest of a chunk. */
static void *carve(size_t bytes, size_t align, const char *name)
{
	u8 *p = (u8 *)ALIGN_UP((uptr)chunk_next, align);

	if (bytes > CHUNK_SIZE / 2)
		return pages_or_panic(order_for(bytes, name), name);
	if (!chunk_next || p + bytes > chunk_end) {
		chunk_next = pages_or_panic(CHUNK_ORDER, name);
		chunk_end = chunk_next + CHUNK_SIZE;
		p = chunk_next;
	}
	chunk_next = p + bytes;
	return p;
}

static void alloc_one(const struct percpu_array *a)
{
	size_t align = MAX(a->align, (size_t)CACHE_LINE);
	size_t used = a->size * nr_cpus;
	/* Under KASAN a fence of one element after the last, so that
	 * name[nr_cpus] is reported wherever in the element it lands (the
	 * next array starts cache-line aligned, past the fence's last
	 * granule). */
	size_t region = KERNEL_KASAN ? used + a->size : used;
	u8 *p = carve(region, align, a->name);
	void *boot;		/* _BOOT's static element, else NULL */
	unsigned int cpu;

	/* Through memcpy: *base is a typed pointer (struct foo *), and the
	 * record only knows its address. */
	memcpy(&boot, a->base, sizeof(boot));

	kasan_fence_global(p, used, region);
	arrays_bytes += region;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		if (a->init && !(cpu == 0 && boot))
			a->init(p + (size_t)cpu * a->size, cpu);
	if (boot)
		memcpy(p, boot, a->size);
	memcpy(a->base, &p, sizeof(p));
}

void percpu_arrays_alloc(void)
{
	const struct percpu_array *a;

	for (a = __start_percpu_arrays; a < __stop_percpu_arrays; a++)
		alloc_one(a);
	/* The boot CPU's area moved: its GS base and self pointer follow.
	 * Since the copy, the page allocator's locks only raised and
	 * lowered the preempt count of the old one. */
	percpu_init_cpu(0);
	pr_info("percpu: %zu arrays, %zu KiB for %u CPUs (MAX_CPUS %u)\n",
		(size_t)(__stop_percpu_arrays - __start_percpu_arrays),
		DIV_ROUND_UP(arrays_bytes, 1024), nr_cpus, MAX_CPUS);
}
