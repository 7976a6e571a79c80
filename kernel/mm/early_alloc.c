#include "early_alloc.h"
#include "arch.h"
#include "kernel/bootinfo.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "lib/string.h"

/* Everything below 1 MiB is left alone: BIOS data, the EBDA, the AP
 * trampoline, page 0. */
#define LOW_MEMORY_END	(1ull << 20)

static u64 reserved_end;	/* end of the kernel image */
static u64 cursor;		/* next free physical address */
static u64 given_start, given_end;
static bool finished;

__init void early_alloc_init(u64 kernel_phys_end)
{
	reserved_end = ALIGN_UP(kernel_phys_end, ARCH_PAGE_SIZE);
	cursor = reserved_end;
	given_start = cursor;
	given_end = cursor;
}

static bool usable_range(u64 start, u64 end)
{
	unsigned int i;

	for (i = 0; i < boot_info.nr_regions; i++) {
		const struct mem_region *r = &boot_info.regions[i];

		if (r->type == MEM_USABLE && r->base <= start &&
		    r->base + r->length >= end)
			return true;
	}
	return false;
}

/* Lowest usable address at or above `from` that starts a usable run of
 * `bytes`; the runs are one contiguous block, so pages given out stay in
 * [given_start, given_end). */
u64 early_alloc_pages(size_t npages)
{
	u64 bytes = npages * ARCH_PAGE_SIZE;
	u64 start;

	BUG_ON(finished);
	for (start = cursor; start + bytes <= EARLY_ALLOC_LIMIT;
	     start += ARCH_PAGE_SIZE) {
		if (!usable_range(start, start + bytes))
			continue;
		if (start != given_end)
			panic("early_alloc: usable memory after the kernel "
			      "is not contiguous");
		cursor = start + bytes;
		given_end = cursor;
		memset((void *)(start + ARCH_KERNEL_VMA), 0, bytes);
		return start;
	}
	panic("early_alloc: no %zu free pages below 1 GiB", npages);
}

bool early_alloc_page_reserved(u64 phys)
{
	return phys < LOW_MEMORY_END || phys < given_end;
}

void early_alloc_done(void)
{
	finished = true;
}
