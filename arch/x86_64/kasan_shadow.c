/*
 * KASAN's shadow memory on x86-64: one shadow byte for every 8 bytes of
 * the kernel half of the address space, at (addr >> 3) + the shadow
 * offset, the layout GCC's -fasan-shadow-offset compiles into every
 * function's stack poisoning (kernel/mm/kasan.h explains the values).
 *
 * The shadow of the whole kernel half is 16 TiB of address space, so only
 * what is checked gets memory of its own:
 *   - before kmain(), entry.S calls arch_kasan_early_init(), which maps
 *     all of it to one shared page through one table per level. Stack
 *     poisoning in the prologue of every instrumented function writes
 *     shadow, and runs from the very first C function, long before there
 *     is memory to give the shadow: it scribbles on that shared page,
 *     harmlessly, since nothing is checked yet;
 *   - kasan_init() then gives real, zeroed pages to the shadow of RAM's
 *     direct map and of the kernel image (arch_kasan_populate_shadow()),
 *     and of each kernel stack as it is mapped; a populate replaces the
 *     shared tables on its path by private copies;
 *   - and seals the shared page: cleared and read-only, in the shared
 *     table and in every private copy made from it, so the shadow of
 *     anything not populated (device memory in the direct map) reads as
 *     "accessible", and a write to it is a page fault, not a silent
 *     corruption of every other address's shadow.
 * A stack's shadow populated later may still be cached read-only by
 * another CPU: its first write there faults, and the page-fault handler
 * retries it (traps.c, spurious_shadow_fault()).
 */
#include "arch.h"
#include "cpu.h"
#include "paging.h"
#include "kernel/init.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/spinlock.h"
#include "lib/string.h"

#define ENTRIES		512

static u64 shared_pdpt[ENTRIES] __aligned(ARCH_PAGE_SIZE);
static u64 shared_pd[ENTRIES] __aligned(ARCH_PAGE_SIZE);
static u64 shared_pt[ENTRIES] __aligned(ARCH_PAGE_SIZE);
static u8 shared_page[ARCH_PAGE_SIZE] __aligned(ARCH_PAGE_SIZE);
static DEFINE_SPINLOCK(populate_lock);

/* The static tables are in the image, reached at KERNEL_VMA + phys from
 * the boot page tables on. */
static u64 image_phys(const void *p)
{
	return (uptr)p - ARCH_KERNEL_VMA;
}

static void fill_table(u64 *table, u64 entry)
{
	unsigned int i;

	for (i = 0; i < ENTRIES; i++)
		table[i] = entry;
}

/* Point the PML4 entries that cover the shadow at the shared chain. */
static void install_shared_chain(u64 *pml4)
{
	uptr va;

	for (va = ARCH_KASAN_SHADOW_START; va < ARCH_KASAN_SHADOW_END;
	     va += 1ul << 39)
		pml4[(va >> 39) & 511] = image_phys(shared_pdpt) |
					 PTE_PRESENT | PTE_WRITE;
}

/*
 * arch_kasan_early_init - map all of the shadow to one shared page
 *
 * Called by entry.S on the boot stack, before kmain(): every C function
 * after it may poison its stack frame's shadow. This file is built
 * without instrumentation, so nothing here touches the shadow itself.
 */
void arch_kasan_early_init(void)
{
	extern u64 boot_pml4[];

	fill_table(shared_pt, image_phys(shared_page) | PTE_PRESENT |
				      PTE_WRITE);
	fill_table(shared_pd, image_phys(shared_pt) | PTE_PRESENT | PTE_WRITE);
	fill_table(shared_pdpt, image_phys(shared_pd) | PTE_PRESENT |
					PTE_WRITE);
	install_shared_chain(boot_pml4);
	write_cr3(read_cr3());
}

/* paging_init() builds the kernel's own PML4: the shadow goes with it. */
__init void paging_install_kasan_shadow(u64 *pml4)
{
	install_shared_chain(pml4);
}

/* The table below entry *e, made private first if it is a shared one:
 * a populated shadow page must not appear behind other addresses too. */
static u64 *private_table(u64 *e, const u64 *shared)
{
	u64 phys = *e & PTE_ADDR_MASK;
	u64 *t;

	if (phys != image_phys(shared))
		return phys_to_virt(phys);
	phys = page_alloc_phys(0);
	if (!phys)
		return NULL;
	t = phys_to_virt(phys);
	memcpy(t, shared, ARCH_PAGE_SIZE);
	/* The copy is written before the entry that makes the hardware
	 * walk it: stores are not reordered with stores on x86, and the
	 * walk reads the entry first. */
	WRITE_ONCE(*e, phys | PTE_PRESENT | PTE_WRITE);
	return t;
}

/* A zeroed page of its own behind the shadow address va, if it has none. */
static bool populate_page(uptr va)
{
	u64 *pdpt = private_table(&paging_kernel_pml4()[(va >> 39) & 511],
				  shared_pdpt);
	u64 *pd = pdpt ? private_table(&pdpt[(va >> 30) & 511], shared_pd)
		       : NULL;
	u64 *pt = pd ? private_table(&pd[(va >> 21) & 511], shared_pt) : NULL;
	u64 *pte, phys;

	if (!pt)
		return false;
	pte = &pt[(va >> 12) & 511];
	if ((*pte & PTE_ADDR_MASK) != image_phys(shared_page))
		return true;
	phys = page_alloc_phys(0);
	if (!phys)
		return false;
	memset(phys_to_virt(phys), 0, ARCH_PAGE_SIZE);
	/* Zeroed before it is mapped, as private_table()'s copy. */
	WRITE_ONCE(*pte, phys | PTE_PRESENT | PTE_WRITE | paging_nx_flag());
	invlpg(va);
	return true;
}

/*
 * arch_kasan_populate_shadow - give [start, end)'s shadow memory of its own
 *
 * Returns 0, or -1 when out of memory. Another CPU may still translate a
 * newly populated address through what it cached before: its reads find
 * the shared page's zeroes, "accessible", the same answer as the new
 * page's; its first write faults and is retried (see the top).
 */
int arch_kasan_populate_shadow(uptr start, uptr end)
{
	uptr va = ALIGN_DOWN(arch_kasan_shadow_of(start), ARCH_PAGE_SIZE);
	uptr last = arch_kasan_shadow_of(end - 1);
	unsigned long flags = spin_lock_irqsave(&populate_lock);
	int err = 0;

	for (; va <= last && !err; va += ARCH_PAGE_SIZE)
		err = populate_page(va) ? 0 : -1;
	spin_unlock_irqrestore(&populate_lock, flags);
	return err;
}

/* Below *e, a table of the given level (3: PDPT), or the shared one it
 * was copied from: every leaf still on the shared page becomes sealed.
 * The shared tables themselves are sealed through shared_pt. */
static __init void seal_copies(u64 *e, const u64 *shared, int level,
			       u64 sealed)
{
	static const u64 *const shared_below[] = {
		[3] = shared_pd, [2] = shared_pt,
	};
	u64 phys = *e & PTE_ADDR_MASK;
	u64 *t = phys_to_virt(phys);
	unsigned int i;

	if (phys == image_phys(shared))
		return;
	for (i = 0; i < ENTRIES; i++) {
		if (level > 1)
			seal_copies(&t[i], shared_below[level], level - 1,
				    sealed);
		else if ((t[i] & PTE_ADDR_MASK) == image_phys(shared_page))
			t[i] = sealed;
	}
}

/* Once every checked range has shadow of its own: the shared page is
 * cleared of the early scribbles (through the image's own mapping of it,
 * which stays writable) and its shadow mappings made read-only. Only the
 * boot CPU runs yet, so one CR3 reload forgets the writable ones. */
__init void arch_kasan_seal_early_shadow(void)
{
	u64 sealed = image_phys(shared_page) | PTE_PRESENT | paging_nx_flag();
	u64 *pml4 = paging_kernel_pml4();
	uptr va;

	memset(shared_page, 0, sizeof(shared_page));
	fill_table(shared_pt, sealed);
	for (va = ARCH_KASAN_SHADOW_START; va < ARCH_KASAN_SHADOW_END;
	     va += 1ul << 39)
		seal_copies(&pml4[(va >> 39) & 511], shared_pdpt, 3, sealed);
	write_cr3(read_cr3());
}
