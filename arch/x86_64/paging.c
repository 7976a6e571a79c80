/*
 * The kernel's page tables, replacing the boot tables of entry.S:
 *   - the direct map: all of physical memory at ARCH_DIRECT_MAP_BASE, in
 *     1 GiB pages where the CPU has them, else 2 MiB pages; ranges the
 *     memory map does not name (device memory: the APIC, the IOAPIC) are
 *     mapped uncached;
 *   - the kernel image: the first 1 GiB at ARCH_KERNEL_VMA, as at boot;
 *   - kernel stacks: 4 KiB pages mapped one by one, each stack with an
 *     unmapped guard below it (kernel/kstack.c).
 * There is no identity map, so page 0 is unmapped and a NULL dereference
 * faults. The boot tables stay alive for the AP trampoline, which needs
 * the identity map for its own switch to long mode.
 */
#include "paging.h"
#include "cpu.h"
#include "kernel/bootinfo.h"
#include "kernel/init.h"
#include "kernel/mm/early_alloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define GIB		(1ull << 30)
#define MIB2		(2ull << 20)

static u64 *kernel_pml4;
static u64 kernel_pml4_phys;
static bool nx_enabled;
static DEFINE_SPINLOCK(map_lock);

static unsigned int index_at(uptr va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/* A zeroed page for a page table, from whichever allocator is up. */
static u64 table_page(void)
{
	u64 phys;

	if (!page_alloc_ready())
		return early_alloc_pages(1);
	phys = page_alloc_phys(0);
	if (phys)
		memset(phys_to_virt(phys), 0, ARCH_PAGE_SIZE);
	return phys;
}

/* During paging_init() only the boot window maps the tables we build. */
static u64 *table_virt(u64 phys)
{
	if (!page_alloc_ready())
		return (u64 *)(phys + ARCH_KERNEL_VMA);
	return phys_to_virt(phys);
}

/* The table one level down from entry *e, created if absent. */
static u64 *next_table(u64 *e)
{
	if (!(*e & PTE_PRESENT)) {
		u64 phys = table_page();

		if (!phys)
			return NULL;
		*e = phys | PTE_PRESENT | PTE_WRITE;
	}
	return table_virt(*e & PTE_ADDR_MASK);
}

static bool named_by_memory_map(u64 start, u64 end)
{
	unsigned int i;

	for (i = 0; i < boot_info.nr_regions; i++) {
		const struct mem_region *r = &boot_info.regions[i];

		if (r->base < end && r->base + r->length > start)
			return true;
	}
	return false;
}

static u64 leaf_flags(u64 start, u64 size)
{
	u64 f = PTE_PRESENT | PTE_WRITE | PTE_HUGE | PTE_GLOBAL;

	if (nx_enabled)
		f |= PTE_NX;
	if (!named_by_memory_map(start, start + size))
		f |= PTE_PCD | PTE_PWT;
	return f;
}

static void map_direct(u64 end, bool gib_pages)
{
	u64 pa;

	for (pa = 0; pa < end;) {
		uptr va = ARCH_DIRECT_MAP_BASE + pa;
		u64 *pdpt = next_table(&kernel_pml4[index_at(va, 3)]);

		if (gib_pages) {
			pdpt[index_at(va, 2)] = pa | leaf_flags(pa, GIB);
			pa += GIB;
		} else {
			u64 *pd = next_table(&pdpt[index_at(va, 2)]);

			pd[index_at(va, 1)] = pa | leaf_flags(pa, MIB2);
			pa += MIB2;
		}
	}
}

static void map_kernel_window(void)
{
	u64 *pdpt = next_table(&kernel_pml4[index_at(ARCH_KERNEL_VMA, 3)]);
	u64 *pd = next_table(&pdpt[index_at(ARCH_KERNEL_VMA, 2)]);
	u64 pa;

	for (pa = 0; pa < GIB; pa += MIB2)
		pd[pa / MIB2] = pa | PTE_PRESENT | PTE_WRITE | PTE_HUGE |
				PTE_GLOBAL;
}

static u64 highest_address(void)
{
	u64 end = 4 * GIB;	/* always cover the 32-bit device hole */
	unsigned int i;

	for (i = 0; i < boot_info.nr_regions; i++) {
		const struct mem_region *r = &boot_info.regions[i];

		if (r->type == MEM_USABLE && r->base + r->length > end)
			end = r->base + r->length;
	}
	return ALIGN_UP(end, GIB);
}

/* Turn on no-execute for data where the CPU offers it (CPUID
 * 0x80000001 EDX bit 20). */
static void enable_nx(void)
{
	if (cpuid(0x80000001, 0).edx & (1u << 20)) {
		wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
		nx_enabled = true;
	}
}

__init void paging_init(void)
{
	bool gib_pages = cpuid(0x80000001, 0).edx & (1u << 26);
	u64 end = highest_address();

	enable_nx();
	kernel_pml4_phys = early_alloc_pages(1);
	kernel_pml4 = table_virt(kernel_pml4_phys);
	map_direct(end, gib_pages);
	map_kernel_window();
	if (KERNEL_KASAN)
		paging_install_kasan_shadow(kernel_pml4);
	write_cr3(kernel_pml4_phys);
	kernel_pml4 = phys_to_virt(kernel_pml4_phys);
	pr_info("paging: direct map of %llu GiB in %s pages, NX %s\n",
		end / GIB, gib_pages ? "1 GiB" : "2 MiB",
		nx_enabled ? "on" : "off");
}

u64 *paging_kernel_pml4(void)
{
	return kernel_pml4;
}

u64 paging_nx_flag(void)
{
	return nx_enabled ? PTE_NX : 0;
}

int arch_map_page(uptr va, u64 phys)
{
	unsigned long flags = spin_lock_irqsave(&map_lock);
	u64 *t = kernel_pml4;
	int level;

	for (level = 3; level > 0 && t; level--)
		t = next_table(&t[index_at(va, level)]);
	if (t)
		t[index_at(va, 0)] = phys | PTE_PRESENT | PTE_WRITE |
				     (nx_enabled ? PTE_NX : 0);
	spin_unlock_irqrestore(&map_lock, flags);
	return t ? 0 : -1;
}

/* The 4 KiB leaf entry for va, or NULL if a level above is absent. */
static u64 *leaf_entry(uptr va)
{
	u64 *t = kernel_pml4;
	int level;

	for (level = 3; level > 0; level--) {
		u64 e = t[index_at(va, level)];

		if (!(e & PTE_PRESENT))
			return NULL;
		if (e & PTE_HUGE)
			return NULL;
		t = phys_to_virt(e & PTE_ADDR_MASK);
	}
	return &t[index_at(va, 0)];
}

u64 arch_unmap_page(uptr va)
{
	unsigned long flags = spin_lock_irqsave(&map_lock);
	u64 *e = leaf_entry(va);
	u64 phys = 0;

	if (e && (*e & PTE_PRESENT)) {
		phys = *e & PTE_ADDR_MASK;
		*e = 0;
		invlpg(va);
	}
	spin_unlock_irqrestore(&map_lock, flags);
	return phys;
}

void arch_flush_tlb_local(void)
{
	write_cr3(read_cr3());
}

/* For the page-fault handler: does va's mapping allow writes now? */
bool paging_address_writable(uptr va)
{
	u64 *t = kernel_pml4;
	int level;

	for (level = 3; level >= 0; level--) {
		u64 e = READ_ONCE(t[index_at(va, level)]);

		if (!(e & PTE_PRESENT) || !(e & PTE_WRITE))
			return false;
		if (level == 0 || (e & PTE_HUGE))
			return true;
		t = phys_to_virt(e & PTE_ADDR_MASK);
	}
	return false;
}

/* For the backtrace walker: a frame pointer into a guard page must end the
 * walk, not fault inside the panic report. */
bool arch_address_mapped(uptr va)
{
	u64 *t = kernel_pml4;
	int level;

	if (!t)
		return va >= ARCH_KERNEL_VMA;
	for (level = 3; level >= 0; level--) {
		u64 e = t[index_at(va, level)];

		if (!(e & PTE_PRESENT))
			return false;
		if (level == 0 || (e & PTE_HUGE))
			return true;
		t = phys_to_virt(e & PTE_ADDR_MASK);
	}
	return false;
}
