/*
 * Starting the application processors, and the IPIs between CPUs.
 *
 * Start-up follows the Intel MP protocol: an INIT IPI to every AP, a
 * wait, then to each AP in turn a STARTUP IPI (twice if it has not
 * answered) pointing at the trampoline. One trampoline parameter block
 * serves all APs, so each is started only after the previous one has
 * read its parameters and checked in.
 */
#include "smp.h"
#include "acpi.h"
#include "cpu.h"
#include "gdt.h"
#include "lapic.h"
#include "nmi.h"
#include "trap.h"
#include "arch.h"
#include "kernel/entry.h"
#include "kernel/init.h"
#include "kernel/mm/kstack.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/string.h"

#define TRAMPOLINE_PHYS		0x8000
/* Intel's MP specification asks 10 ms after INIT and 200 us after each
 * STARTUP; QEMU needs neither, real CPUs do. */
#define INIT_DELAY_US		10000
#define STARTUP_DELAY_US	200
/* An AP the host has not run for this long is given up: long, since at
 * -smp 32 on a loaded 2-core host a vCPU can wait a good while for its
 * first turn (Linux waits 10 s). */
#define CHECK_IN_TIMEOUT_US	2000000

/* Mirrors the parameter block at the end of boot/ap_trampoline.S. */
struct trampoline_params {
	u64 boot_cr3;
	u64 kernel_cr3;
	u64 stack;
	u64 entry;
	u64 cpu;
	u64 efer;
};

extern const u8 ap_trampoline_start[], ap_trampoline_end[];
extern const u8 ap_trampoline_params[];
extern u64 boot_pml4[];

static struct kstack ap_stacks[MAX_CPUS];
/*
 * The start of one AP, settled once: the AP checks in, or the BSP gives it
 * up, whichever comes first (a cmpxchg from AP_WAITING). Without it an AP
 * that checked in just as the BSP timed out went on into the kernel while
 * the BSP, believing it dead, went on to the next AP.
 */
enum ap_start { AP_WAITING, AP_CHECKED_IN, AP_GIVEN_UP };
static u32 ap_start_state;
static u32 ap_starting;		/* the CPU that ap_start_state is about */

/* What each IPI does, as the kernel registered it. */
static void (*ipi_handlers[ARCH_NR_IPIS])(void);

bool arch_percpu_ready(void)
{
	return rdmsr(MSR_GS_BASE) != 0;
}

void arch_set_percpu_base(void *base)
{
	wrmsr(MSR_GS_BASE, (u64)base);
}

u32 arch_cpu_hw_id(unsigned int cpu)
{
	return acpi.apic_ids[cpu];
}

void arch_send_ipi(unsigned int cpu, unsigned int ipi)
{
	lapic_send_ipi(acpi.apic_ids[cpu], VECTOR_IPI_BASE + ipi);
}

void arch_send_ipi_all_others(unsigned int ipi)
{
	unsigned int cpu, me = this_cpu_id();

	for_each_online_cpu(cpu)
		if (cpu != me)
			arch_send_ipi(cpu, ipi);
}

void arch_stop_other_cpus(void)
{
	unsigned int cpu, me = this_cpu_id();

	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		nmi_request_stop(cpu);
		lapic_send_nmi(acpi.apic_ids[cpu]);
	}
}

void arch_backtrace_cpu(unsigned int cpu)
{
	nmi_request_backtrace(cpu);
	lapic_send_nmi(acpi.apic_ids[cpu]);
}

void arch_nmi_every_cpu(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		lapic_send_nmi(acpi.apic_ids[cpu]);
}

/* The first C an AP runs, on the stack smp_boot_aps() gave it. */
static __noreturn void ap_entry(u64 cpu)
{
	/* A vCPU given up that INIT did not stop, then started on the
	 * next AP's parameters (QEMU's TCG let one run on, and it took
	 * cpu3's place while cpu3 halted): not the CPU they are for. It
	 * stops before it writes that CPU's per-CPU data. */
	if (lapic_initial_id() != acpi.apic_ids[cpu])
		arch_halt_forever();
	percpu_init_cpu(cpu);
	gdt_init_cpu(cpu);
	idt_load();
	lapic_init_cpu();
	/* Check in after reading the trampoline parameters: the BSP reuses
	 * them for the next AP once it sees this. Fully ordered (cmpxchg):
	 * pairs with the BSP's in start_ap(). An AP given up halts. */
	if (READ_ONCE(ap_starting) != cpu ||
	    cmpxchg(&ap_start_state, AP_WAITING, AP_CHECKED_IN) != AP_WAITING)
		arch_halt_forever();
	secondary_cpu_main();
}

/* STARTUP IPIs until the AP checks in. The stack is allocated once: an
 * AP that is started again (arch_cpu_start()) gets the same one, which
 * its idle thread ran on and left when it parked. */
static bool start_ap(unsigned int cpu)
{
	struct trampoline_params *params = phys_to_virt(TRAMPOLINE_PHYS +
		(ap_trampoline_params - ap_trampoline_start));
	u32 apic_id = acpi.apic_ids[cpu];
	u64 waited;

	if (!ap_stacks[cpu].top && kstack_alloc(&ap_stacks[cpu], "ap boot") < 0) {
		pr_err("smp: no memory for cpu%u's stack; not started\n", cpu);
		return false;
	}
	/* Before the parameters, and in this order (x86 keeps stores in
	 * order): an AP of an earlier start that still runs reads another
	 * CPU here in ap_entry() and halts; pairs with its READ_ONCE and
	 * cmpxchg. */
	WRITE_ONCE(ap_starting, cpu);
	WRITE_ONCE(ap_start_state, AP_WAITING);
	params->boot_cr3 = virt_to_phys(boot_pml4);
	params->kernel_cr3 = read_cr3();
	params->efer = rdmsr(MSR_EFER) & EFER_NXE;
	params->stack = ap_stacks[cpu].top;
	params->entry = (u64)ap_entry;
	params->cpu = cpu;
	lapic_send_startup(apic_id, TRAMPOLINE_PHYS >> 12);
	udelay(STARTUP_DELAY_US);
	if (READ_ONCE(ap_start_state) != AP_CHECKED_IN)
		lapic_send_startup(apic_id, TRAMPOLINE_PHYS >> 12);
	for (waited = 0; READ_ONCE(ap_start_state) != AP_CHECKED_IN;
	     waited += 10) {
		/* Fully ordered (cmpxchg), against the AP's: one wins. */
		if (waited > CHECK_IN_TIMEOUT_US &&
		    cmpxchg(&ap_start_state, AP_WAITING, AP_GIVEN_UP) ==
			    AP_WAITING) {
			/* INIT again, so that a vCPU the host was only slow
			 * to run waits for STARTUP, as if never started. */
			lapic_send_init(apic_id);
			pr_err("smp: cpu%u (APIC id %u) did not start\n", cpu,
			       apic_id);
			return false;
		}
		udelay(10);
	}
	return true;
}

__init unsigned int smp_boot_aps(void)
{
	unsigned int cpu, started = 1;

	nr_cpus = acpi.nr_cpus;
	if (nr_cpus == 1)
		return 1;
	memcpy(phys_to_virt(TRAMPOLINE_PHYS), ap_trampoline_start,
	       ap_trampoline_end - ap_trampoline_start);
	for (cpu = 1; cpu < nr_cpus; cpu++)
		lapic_send_init(acpi.apic_ids[cpu]);
	udelay(INIT_DELAY_US);
	for (cpu = 1; cpu < nr_cpus; cpu++)
		started += start_ap(cpu);
	return started;
}

/* Every IPI vector lands here and calls what the kernel registered. */
static void ipi_interrupt(struct trap_frame *f)
{
	void (*handler)(void) =
		READ_ONCE(ipi_handlers[f->vector - VECTOR_IPI_BASE]);

	if (handler)
		handler();
}

void arch_set_ipi_handler(unsigned int ipi, void (*handler)(void))
{
	if (ipi >= ARCH_NR_IPIS)
		panic("arch_set_ipi_handler: IPI %u, expected below %u", ipi,
		      ARCH_NR_IPIS);
	WRITE_ONCE(ipi_handlers[ipi], handler);
}

void smp_register_ipis(void)
{
	unsigned int ipi;

	for (ipi = 0; ipi < ARCH_NR_IPIS; ipi++)
		irq_register(VECTOR_IPI_BASE + ipi, ipi_interrupt);
}

/*
 * CPU hotplug. A CPU going offline parks here for good, on its own idle
 * thread's stack: its timer stopped, interrupts off, halted. Only INIT
 * takes it out (an NMI only ends one hlt), and INIT resets it, so
 * arch_cpu_start() sends INIT and the STARTUP IPIs again, and it comes
 * back through the trampoline as at boot. The boot CPU never goes
 * offline, so the IOAPIC routes (the UART's goes to cpu0) never move.
 */
__noreturn void arch_cpu_park(void)
{
	lapic_timer_stop();
	arch_halt_forever();
}

bool arch_cpu_start(unsigned int cpu)
{
	lapic_send_init(acpi.apic_ids[cpu]);
	udelay(INIT_DELAY_US);
	return start_ap(cpu);
}
