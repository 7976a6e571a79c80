/*
 * The whole interface between generic kernel code and the x86-64 port.
 * kernel/ includes this and nothing else from arch/: interrupts on and off,
 * spinning politely, halting, the time-stamp counter, IPIs, per-CPU access
 * through the GS base, and leaving the emulator.
 */
#ifndef ARCH_ARCH_H
#define ARCH_ARCH_H

#include "lib/compiler.h"
#include "lib/types.h"

#define ARCH_PAGE_SIZE	4096ul
#define ARCH_PAGE_SHIFT	12

/* The virtual address map. */
#define ARCH_DIRECT_MAP_BASE	0xffff800000000000ul	/* all RAM, phys + base */
#define ARCH_KSTACK_BASE	0xffffc00000000000ul	/* kernel stacks, guarded */
#define ARCH_KERNEL_VMA		0xffffffff80000000ul	/* the kernel image */

/* KASAN's shadow (kernel/mm/kasan.h): the byte for addr is at (addr >> 3)
 * + ARCH_KASAN_SHADOW_OFFSET, Linux's offset for x86-64. The Makefile
 * passes the same number to GCC (-fasan-shadow-offset). The shadow of the
 * kernel half, [ARCH_DIRECT_MAP_BASE, 2^64), is [START, END). */
#define ARCH_KASAN_SHADOW_OFFSET	0xdffffc0000000000ul
#define ARCH_KASAN_SHADOW_START		0xffffec0000000000ul
#define ARCH_KASAN_SHADOW_END		0xfffffc0000000000ul

static inline uptr arch_kasan_shadow_of(uptr addr)
{
	return (addr >> 3) + ARCH_KASAN_SHADOW_OFFSET;
}

/* Map the shadow to one shared page, from entry.S (kasan_shadow.c); give
 * [start, end)'s shadow zeroed pages of its own (0, or -1 without
 * memory); clear the shared page and make it read-only, once. */
void arch_kasan_early_init(void);
int arch_kasan_populate_shadow(uptr start, uptr end);
void arch_kasan_seal_early_shadow(void);
#define RFLAGS_IF	(1ul << 9)

static __always_inline void arch_cpu_relax(void)
{
	asm volatile("pause" : : : "memory");
}

static __always_inline void arch_irq_enable(void)
{
	asm volatile("sti" : : : "memory");
}

static __always_inline void arch_irq_disable(void)
{
	asm volatile("cli" : : : "memory");
}

static __always_inline unsigned long arch_irq_save(void)
{
	unsigned long flags;
	asm volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static __always_inline void arch_irq_restore(unsigned long flags)
{
	if (flags & RFLAGS_IF)
		arch_irq_enable();
}

static __always_inline bool arch_irqs_enabled(void)
{
	unsigned long flags;
	asm volatile("pushfq; popq %0" : "=r"(flags));
	return flags & RFLAGS_IF;
}

/* Wait for an interrupt with interrupts enabled: sti's one-instruction
 * shadow means no interrupt can slip in between the two. */
static __always_inline void arch_idle_wait(void)
{
	asm volatile("sti; hlt" : : : "memory");
}

static __always_inline __noreturn void arch_halt_forever(void)
{
	for (;;)
		asm volatile("cli; hlt");
}

static __always_inline u64 arch_read_tsc(void)
{
	u32 lo, hi;
	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

/* Per-CPU data lives in one struct per CPU, found through the GS base.
 * These touch a field at a byte offset in one instruction, so an interrupt
 * can never split the read-modify-write. */
#define arch_percpu_inc32(off) \
	asm volatile("incl %%gs:%c0" : : "i"(off) : "memory")
#define arch_percpu_dec32(off) \
	asm volatile("decl %%gs:%c0" : : "i"(off) : "memory")
#define arch_percpu_write64(off, v) \
	asm volatile("movq %1, %%gs:%c0" : : "i"(off), "r"((u64)(v)) : "memory")
#define arch_percpu_read64(off) ({					\
	u64 __v;							\
	asm volatile("movq %%gs:%c1, %0" : "=r"(__v) : "i"(off));	\
	__v; })
#define arch_percpu_read32(off) ({					\
	u32 __v;							\
	asm volatile("movl %%gs:%c1, %0" : "=r"(__v) : "i"(off));	\
	__v; })

/* Add one to a word only this CPU writes, in one instruction with no
 * lock prefix: an interrupt on this CPU cannot split it, and other CPUs
 * may read it (SRCU's counters). No barrier. */
static __always_inline void arch_local_inc(unsigned long *p)
{
	asm volatile("incq %0" : "+m"(*p));
}

void arch_set_percpu_base(void *base);
/* Whether this CPU's per-CPU area is set yet (an AP early in its start
 * has none); slow, for rare paths. */
bool arch_percpu_ready(void);
/* Whether the CPU says it runs under a hypervisor (spinlock.c asks). */
bool arch_under_hypervisor(void);
/* The CPU's number for the hardware (its APIC id), for the console. */
u32 arch_cpu_hw_id(unsigned int cpu);

static inline void *phys_to_virt(u64 phys)
{
	return (void *)(phys + ARCH_DIRECT_MAP_BASE);
}

/* Works for direct-map addresses and for the kernel image's statics. */
static inline u64 virt_to_phys(const void *virt)
{
	uptr v = (uptr)virt;

	if (v >= ARCH_KERNEL_VMA)
		return v - ARCH_KERNEL_VMA;
	return v - ARCH_DIRECT_MAP_BASE;
}

/* 4 KiB kernel mappings outside the direct map (kernel stacks). Unmapping
 * flushes only this CPU's TLB; callers batch the cross-CPU flush. */
int arch_map_page(uptr va, u64 phys);
u64 arch_unmap_page(uptr va);
void arch_flush_tlb_local(void);
bool arch_address_mapped(uptr va);

/* Inter-processor interrupts. The arch code offers ARCH_NR_IPIS of them,
 * numbered from 0; the kernel says what each one does (kernel/ipi.h names
 * them), and the handler runs in interrupt context on the target CPU. */
#define ARCH_NR_IPIS	4
void arch_set_ipi_handler(unsigned int ipi, void (*handler)(void));
void arch_send_ipi(unsigned int cpu, unsigned int ipi);
void arch_send_ipi_all_others(unsigned int ipi);
/* Stop every other CPU with an NMI: for panic. */
void arch_stop_other_cpus(void);
/* Ask a CPU for its RIP and backtrace through an NMI (stall warnings). */
void arch_backtrace_cpu(unsigned int cpu);
/* An NMI of no known reason to every online CPU, this one included: what
 * QEMU's monitor sends, and what asks for the hang report. */
void arch_nmi_every_cpu(void);

/* Boot, in the order kmain() calls them. */
void arch_early_init(u64 boot_magic, u64 boot_info_phys);
void arch_memory_init(void);
void arch_cpu_init(void);
/* Start the APs; returns how many CPUs run (the boot CPU counted), each
 * of which will join the online set in secondary_cpu_main(). */
unsigned int arch_smp_boot(void);

/* CPU hotplug: the outgoing CPU parks for good (timer stopped,
 * interrupts off); arch_cpu_start() brings a parked CPU back through the
 * boot path into secondary_cpu_main(). False if it did not check in. */
__noreturn void arch_cpu_park(void);
bool arch_cpu_start(unsigned int cpu);
/* This CPU's timer interrupt, periodic at hz (nohz=off)... */
void arch_timer_start(void);
/* ...or one-shot (the tickless kernel, kernel/sched/tick.c): start it
 * disarmed, then arm it for a moment of clock_ns(), or disarm it. A
 * moment already past interrupts at once. */
void arch_clockevent_start(void);
const char *arch_clockevent_name(void);
void arch_clockevent_program(u64 deadline_ns);
void arch_clockevent_cancel(void);
__noreturn void arch_call_on_stack(uptr stack_top, void (*fn)(void));

/* Threads: switch stacks, and lay out a new thread's first stack so
 * that switching to it calls entry(arg). */
void arch_context_switch(uptr *save_sp, uptr load_sp);
uptr arch_thread_stack_init(uptr stack_top, void (*entry)(void *), void *arg);

/* Console byte I/O (COM1). Arriving input calls console_input_arrived()
 * (kernel/main.h), so that a reader can sleep instead of polling. */
void arch_console_putc(char c);
int arch_console_getc(void);

/* Leave QEMU through isa-debug-exit with status (code << 1) | 1; halts
 * if the device is absent. */
__noreturn void arch_exit_emulator(u8 code);
__noreturn void arch_reboot(void);
__noreturn void arch_poweroff(void);

/* Print a frame-pointer backtrace starting at the given frame; returns
 * the lines printed. It stops, and says why, at a frame that leaves its
 * stack: it never faults, whatever the stack holds. */
int arch_dump_backtrace(uptr rbp, uptr rip);
/* Print where a switched-out thread stopped, from its saved stack
 * pointer; as safe as arch_dump_backtrace() if the thread runs again. */
int arch_dump_thread_backtrace(uptr saved_sp);
/* Print the current call chain. */
void arch_dump_stack(void);
/* Store up to max return addresses of the current call chain, the
 * innermost skip callers above this call left out; returns how many.
 * Never faults (as arch_dump_backtrace()). */
unsigned int arch_save_stack_trace(uptr *entries, unsigned int max,
				   unsigned int skip);
/* One line of a backtrace for a code address: " [<addr>] name+off/size". */
void arch_print_code_address(uptr ip);

#endif
