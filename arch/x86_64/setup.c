/*
 * The x86-64 side of boot, in the order kmain() calls it: first the
 * console, per-CPU area and exception handling (so every later failure is
 * reported), then the kernel's page tables, then the CPU's timers and
 * interrupt controllers; the APs last.
 */
#include "acpi.h"
#include "cpu.h"
#include "gdt.h"
#include "ioapic.h"
#include "lapic.h"
#include "multiboot2.h"
#include "paging.h"
#include "pic.h"
#include "pit.h"
#include "smp.h"
#include "trap.h"
#include "uart.h"
#include "arch.h"
#include "kernel/entry.h"
#include "kernel/init.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/time.h"

#define CPUID_1_ECX_HYPERVISOR	(1u << 31)
#define TSC_SPREAD_WARN_PPM	10000	/* 1 % */

/* CPUID leaf 1, ECX bit 31: reserved on real CPUs, set by hypervisors
 * (QEMU's TCG sets it too). */
bool arch_under_hypervisor(void)
{
	return cpuid(1, 0).ecx & CPUID_1_ECX_HYPERVISOR;
}

__init void arch_early_init(u64 boot_magic, u64 boot_info_phys)
{
	percpu_init_cpu(0);
	uart_init();
	gdt_init_cpu(0);
	idt_init();
	idt_load();
	pic_disable();
	multiboot2_parse((u32)boot_magic,
			 (const void *)(boot_info_phys + ARCH_KERNEL_VMA));
}

__init void arch_memory_init(void)
{
	paging_init();
}

static void timer_interrupt(struct trap_frame *f)
{
	(void)f;
	tick_interrupt();
}

static void uart_interrupt(struct trap_frame *f)
{
	(void)f;
	uart_irq();
}

__init void arch_cpu_init(void)
{
	const char *source;
	u64 tsc_hz, spread_ppm;

	acpi_init(lapic_initial_id());
	nr_cpus = acpi.nr_cpus;		/* the CPUs to start, at most MAX_CPUS */
	lapic_choose_mode(acpi.lapic_phys);
	lapic_init_cpu();
	acpi.apic_ids[0] = lapic_id();
	tsc_hz = tsc_measure_hz(&source, &spread_ppm);
	clock_init(tsc_hz);
	pr_info("tsc: %llu.%03llu MHz, measured against %s (spread %llu.%02llu "
		"%%)\n", tsc_hz / 1000000, tsc_hz / 1000 % 1000, source,
		spread_ppm / 10000, spread_ppm / 100 % 100);
	if (spread_ppm > TSC_SPREAD_WARN_PPM)
		pr_warn("tsc: the measurements disagree by more than 1 %%: "
			"every time this boot prints may be that far off\n");
	lapic_timer_calibrate(tsc_hz);
	lapic_oneshot_choose();
	irq_register(VECTOR_TIMER, timer_interrupt);
	irq_register(VECTOR_IRQ_BASE + UART_IRQ, uart_interrupt);
	smp_register_ipis();
	if (ioapic_route_irq(UART_IRQ, VECTOR_IRQ_BASE + UART_IRQ,
			     acpi.apic_ids[0]) == 0)
		uart_enable_rx_irq();
}

void arch_timer_start(void)
{
	lapic_timer_start(hz, VECTOR_TIMER);
}

void arch_clockevent_start(void)
{
	lapic_oneshot_start(VECTOR_TIMER);
}

const char *arch_clockevent_name(void)
{
	return lapic_oneshot_name();
}

void arch_clockevent_program(u64 deadline_ns)
{
	lapic_oneshot_program(clock_ns_to_tsc(deadline_ns));
}

void arch_clockevent_cancel(void)
{
	lapic_oneshot_cancel();
}

__init unsigned int arch_smp_boot(void)
{
	return smp_boot_aps();
}

/* Continue on another stack; the boot stack is never returned to. */
__noreturn void arch_call_on_stack(uptr stack_top, void (*fn)(void))
{
	asm volatile("movq %0, %%rsp\n\t"
		     "xorl %%ebp, %%ebp\n\t"
		     "callq *%1\n\t"
		     "ud2"
		     : : "r"(stack_top), "r"(fn) : "memory");
	__builtin_unreachable();
}

extern const char arch_thread_start[];

/* The frame arch_context_switch() pops: r15, r14, r13 (arg), r12 (entry),
 * rbx, rbp, then the return address. */
uptr arch_thread_stack_init(uptr stack_top, void (*entry)(void *), void *arg)
{
	u64 *sp = (u64 *)stack_top;

	/* After the ret, %rsp = stack_top; the call there pushes 8 bytes,
	 * giving entry the ABI's alignment (rsp + 8 a multiple of 16). */
	*--sp = (u64)arch_thread_start;
	*--sp = 0;			/* rbp */
	*--sp = 0;			/* rbx */
	*--sp = (u64)entry;		/* r12 */
	*--sp = (u64)arg;		/* r13 */
	*--sp = 0;			/* r14 */
	*--sp = 0;			/* r15 */
	return (uptr)sp;
}
