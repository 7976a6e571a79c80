/*
 * Per-CPU GDT and TSS. Long mode barely uses segments, but every CPU needs
 * its own TSS to give the double-fault and NMI handlers stacks of their
 * own (the Interrupt Stack Table): a kernel stack overflow faults again on
 * the guard page, and only a fresh stack lets the #DF handler report it.
 */
#include "gdt.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "lib/string.h"

#define IST_STACK_SIZE	8192

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

struct gdt_ptr {
	u16 limit;
	u64 base;
} __packed;

struct ist_stacks {
	u8 stack[IST_COUNT][IST_STACK_SIZE];
};

struct cpu_tables {
	u64 gdt[GDT_ENTRIES];
	struct tss tss;
	struct ist_stacks *ist;
} __aligned(64);

#define IST_ORDER	2	/* 2^IST_ORDER pages hold struct ist_stacks */
static_assert(sizeof(struct ist_stacks) <= (PAGE_SIZE << IST_ORDER),
	      "IST_ORDER too small");

/* The boot CPU's, static: it loads them before any allocator exists,
 * and its GDTR and TR keep pointing there. */
static struct ist_stacks boot_ist __aligned(16);
static struct cpu_tables boot_tables = { .ist = &boot_ist };

/* Each AP's IST stacks, pages of their own, allocated with the per-CPU
 * arrays (for the CPUs present) rather than MAX_CPUS of them in .bss.
 * Element 0 stays unused: the boot CPU has boot_tables. */
static void tables_init(void *elem, unsigned int cpu)
{
	struct cpu_tables *t = elem;

	if (cpu == 0)
		return;
	t->ist = alloc_pages(IST_ORDER);
	if (!t->ist)
		panic("gdt: no memory for cpu%u's interrupt stacks", cpu);
}

static DEFINE_PERCPU_ARRAY_INIT(struct cpu_tables, tables, tables_init);

static struct cpu_tables *tables_of(unsigned int cpu)
{
	return cpu ? &tables[cpu] : &boot_tables;
}

/* A 16-byte system descriptor for the 64-bit TSS. */
static void set_tss_descriptor(u64 *gdt, struct tss *tss)
{
	u64 base = (u64)tss;
	u64 limit = sizeof(*tss) - 1;

	gdt[GDT_TSS / 8] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
			   (0x89ull << 40) |		/* present, 64-bit TSS */
			   (((limit >> 16) & 0xf) << 48) |
			   (((base >> 24) & 0xff) << 56);
	gdt[GDT_TSS / 8 + 1] = base >> 32;
}

void gdt_init_cpu(unsigned int cpu)
{
	struct cpu_tables *t = tables_of(cpu);
	struct gdt_ptr ptr;
	int i;

	t->gdt[0] = 0;
	t->gdt[GDT_KERNEL_CODE / 8] = 0x00af9a000000ffffull;
	t->gdt[GDT_KERNEL_DATA / 8] = 0x00cf92000000ffffull;
	memset(&t->tss, 0, sizeof(t->tss));
	for (i = 0; i < IST_COUNT; i++)
		t->tss.ist[i] = (u64)&t->ist->stack[i][IST_STACK_SIZE];
	t->tss.iomap_base = sizeof(t->tss);
	set_tss_descriptor(t->gdt, &t->tss);

	ptr.limit = sizeof(t->gdt) - 1;
	ptr.base = (u64)t->gdt;
	asm volatile("lgdt %0\n\t"
		     "pushq %1\n\t"
		     "leaq 1f(%%rip), %%rax\n\t"
		     "pushq %%rax\n\t"
		     "lretq\n"
		     "1:\n\t"
		     "movw %w2, %%ds\n\t"
		     "movw %w2, %%es\n\t"
		     "movw %w2, %%ss\n\t"
		     "ltr %w3"
		     : : "m"(ptr), "i"(GDT_KERNEL_CODE), "r"(GDT_KERNEL_DATA),
		       "r"(GDT_TSS)
		     : "rax", "memory");
}

/* Which of a CPU's IST stacks holds addr, as [*lo, *hi), for the
 * backtrace, which must never read beyond the stack it walks. */
bool gdt_ist_bounds(unsigned int cpu, uptr addr, uptr *lo, uptr *hi)
{
	unsigned int i;

	for (i = 0; i < IST_COUNT; i++) {
		uptr base = (uptr)&tables_of(cpu)->ist->stack[i][0];

		if (addr >= base && addr < base + IST_STACK_SIZE) {
			*lo = base;
			*hi = base + IST_STACK_SIZE;
			return true;
		}
	}
	return false;
}
