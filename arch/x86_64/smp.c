/*
 * Starting the application processors, and the IPIs between CPUs.
 *
 * Start-up follows the Intel MP protocol for every AP at once, as
 * Linux's parallel bring-up (6.5) does: an INIT IPI to each AP, one
 * wait, then a STARTUP IPI to each (a second to each that has not
 * answered), without waiting for one AP before starting the next. One
 * at a time, the 200 us after each STARTUP and each AP's own way through
 * the trampoline added up with the CPUs. So that all can run the
 * trampoline together, its parameters name no AP: each finds its index
 * by its own APIC id in a table, and its stack in another, both filled
 * before the first STARTUP (boot/ap_trampoline.S).
 *
 * As in Linux, only the start is parallel: once checked in, each AP
 * halts until the BSP lets it come online, one after another. Coming
 * online takes locks that every CPU takes (the online set's among them),
 * and 127 APs spinning on them at -smp 128 on a 2-core host starved the
 * holder: they took 2.5 s where they checked in in 50 ms.
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
#include "kernel/mm/kmalloc.h"
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
	u64 stack_tops;		/* u64[nr_cpus]; 0: not to be started */
	u64 entry;
	u64 apic_ids;		/* u32[nr_cpus]: acpi.apic_ids */
	u64 efer;
	u64 nr_cpus;
	u64 id_leaf;		/* the CPUID leaf of the APIC id */
};

extern const u8 ap_trampoline_start[], ap_trampoline_end[];
extern const u8 ap_trampoline_params[];
extern u64 boot_pml4[];

static DEFINE_PERCPU_ARRAY(struct kstack, ap_stacks);
/*
 * The start of each AP, settled once: the AP checks in, or the BSP gives
 * it up, whichever comes first (a cmpxchg from AP_WAITING). Without it an
 * AP that checked in just as the BSP timed out went on into the kernel
 * while the BSP believed it dead. A checked-in AP then waits to be
 * released (AP_RELEASED), and says it goes (AP_RUNNING). Indexed by CPU,
 * sized at boot.
 */
enum ap_start { AP_WAITING, AP_CHECKED_IN, AP_GIVEN_UP, AP_RELEASED,
		AP_RUNNING };
static DEFINE_PERCPU_ARRAY(u32, start_states);
/* The trampoline's stack table, indexed by CPU, sized at boot: written
 * only while no AP is being started. */
static DEFINE_PERCPU_ARRAY(u64, stack_tops);
/* Check-ins so far: the BSP waits while this moves. */
static u32 nr_checked_in;

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

/*
 * Where a checked-in AP halts until released: the check, then hlt, with
 * interrupts off, so that only an NMI wakes it. The NMI that releases it
 * can come between the two and leave the hlt to sleep for ever: the
 * handler sends an AP it finds about to halt back to the check
 * (smp_release_nmi()), so that one NMI is enough. Resending instead
 * made a second NMI arrive with its reason already taken by the first:
 * a hang report at -smp 255.
 */
extern const u8 ap_wait_check[], ap_wait_hlt[];

static __noinline void ap_wait_release(const u32 *state)
{
	asm volatile(".globl ap_wait_check, ap_wait_hlt\n"
		     "ap_wait_check:\n\t"
		     "cmpl %1, %0\n\t"
		     "je 1f\n"
		     "ap_wait_hlt:\n\t"
		     "hlt\n\t"
		     "jmp ap_wait_check\n"
		     "1:"
		     : : "m"(*state), "i"(AP_RELEASED) : "memory");
}

/**
 * smp_release_nmi() - the release NMI's part, on the AP
 * @f: the NMI's frame
 *
 * An NMI that came before the hlt of ap_wait_release() returns to its
 * check instead, which sees the release.
 */
void smp_release_nmi(struct trap_frame *f)
{
	if (f->rip == (u64)ap_wait_hlt)
		f->rip = (u64)ap_wait_check;
}

/* The first C an AP runs, on the stack the trampoline found for it by
 * its own APIC id: cpu is this CPU's own index, whoever else starts. */
static __noreturn void ap_entry(u64 cpu)
{
	percpu_init_cpu(cpu);
	gdt_init_cpu(cpu);
	idt_load();
	lapic_init_cpu();
	/* Fully ordered (cmpxchg): pairs with the BSP's in give_up(); one
	 * of the two wins. An AP given up halts: a vCPU the host ran so
	 * late that the BSP gave up on it, and INIT did not stop (QEMU's
	 * TCG let one run on), wrote only its own per-CPU data. */
	if (cmpxchg(&start_states[cpu], AP_WAITING, AP_CHECKED_IN) !=
	    AP_WAITING)
		arch_halt_forever();
	atomic_fetch_add(&nr_checked_in, 1);
	/* Halted, not spinning, until release() says: its store, then
	 * the NMI; the asm's load pairs with that WRITE_ONCE. */
	ap_wait_release(&start_states[cpu]);
	WRITE_ONCE(start_states[cpu], AP_RUNNING);
	secondary_cpu_main();
}

/* Let a checked-in AP come online, and wait until it is, so that the
 * next comes online alone (see the top of this file). */
static void release(unsigned int cpu)
{
	/* The NMI is ordered after the store (send_icr); pairs with the
	 * AP's load in ap_wait_release(). */
	WRITE_ONCE(start_states[cpu], AP_RELEASED);
	nmi_request_wake(cpu);
	lapic_send_nmi(acpi.apic_ids[cpu]);
	while (!READ_ONCE(cpu_area(cpu)->online))
		arch_cpu_relax();
}

/* Give up an AP that has not checked in; false if it has meanwhile. */
static bool give_up(unsigned int cpu)
{
	u32 apic_id = acpi.apic_ids[cpu];

	/* Fully ordered (cmpxchg), against the AP's in ap_entry(). */
	if (cmpxchg(&start_states[cpu], AP_WAITING, AP_GIVEN_UP) != AP_WAITING)
		return false;
	/* INIT again, so that a vCPU the host was only slow to run waits
	 * for STARTUP, as if never started. */
	lapic_send_init(apic_id);
	pr_err("smp: cpu%u (APIC id %u) did not start\n", cpu, apic_id);
	return true;
}

/* A STARTUP IPI to each AP of first..end-1 that has a stack; again,
 * only to those not yet checked in. */
static void send_startups(unsigned int first, unsigned int end, bool again)
{
	unsigned int cpu;

	for (cpu = first; cpu < end; cpu++) {
		if (!stack_tops[cpu] ||
		    (again && READ_ONCE(start_states[cpu]) != AP_WAITING))
			continue;
		lapic_send_startup(acpi.apic_ids[cpu], TRAMPOLINE_PHYS >> 12);
	}
}

/*
 * Start the APs first..end-1 together: INIT to each, the wait once,
 * STARTUP to each, and a second to each not yet checked in. Then wait
 * while they check in: an AP is given up only after CHECK_IN_TIMEOUT_US
 * in which none did, since on a busy host the vCPUs get their turns one
 * after another. Then each that checked in comes online in turn.
 * Returns how many did.
 */
static unsigned int start_aps(unsigned int first, unsigned int end)
{
	unsigned int cpu, started = 0;
	u32 seen = READ_ONCE(nr_checked_in), now;
	u64 quiet = 0;

	for (cpu = first; cpu < end; cpu++)
		if (stack_tops[cpu])
			lapic_send_init(acpi.apic_ids[cpu]);
	udelay(INIT_DELAY_US);
	/* After INIT has stopped what an earlier start left running (a
	 * parked CPU, or one given up that ran on), which must not check
	 * in for this start; before the first STARTUP, which the AP's
	 * cmpxchg comes after (send_icr orders the IPI after these
	 * stores). A stack's top is set once, before any start. */
	for (cpu = first; cpu < end; cpu++)
		WRITE_ONCE(start_states[cpu], AP_WAITING);
	send_startups(first, end, false);
	udelay(STARTUP_DELAY_US);
	send_startups(first, end, true);
	for (cpu = first; cpu < end; cpu++) {
		while (stack_tops[cpu] &&
		       READ_ONCE(start_states[cpu]) == AP_WAITING) {
			now = READ_ONCE(nr_checked_in);
			quiet = now == seen ? quiet + 10 : 0;
			seen = now;
			if (quiet > CHECK_IN_TIMEOUT_US && give_up(cpu))
				break;
			udelay(10);
		}
	}
	for (cpu = first; cpu < end; cpu++) {
		if (READ_ONCE(start_states[cpu]) != AP_CHECKED_IN)
			continue;
		release(cpu);
		started++;
	}
	return started;
}

/* The trampoline in low memory, its parameters, and the tables it reads,
 * for nr_cpus CPUs. Each AP's stack is allocated once: one started
 * again (arch_cpu_start()) gets the same one, which its idle thread ran
 * on and left when it parked. */
static __init void prepare_start(void)
{
	struct trampoline_params *params = phys_to_virt(TRAMPOLINE_PHYS +
		(ap_trampoline_params - ap_trampoline_start));
	unsigned int cpu;

	for (cpu = 1; cpu < nr_cpus; cpu++) {
		if (kstack_alloc(&ap_stacks[cpu], "ap boot") < 0)
			pr_err("smp: no memory for cpu%u's stack; not "
			       "started\n", cpu);
		else
			stack_tops[cpu] = ap_stacks[cpu].top;
	}
	memcpy(phys_to_virt(TRAMPOLINE_PHYS), ap_trampoline_start,
	       ap_trampoline_end - ap_trampoline_start);
	params->boot_cr3 = virt_to_phys(boot_pml4);
	params->kernel_cr3 = read_cr3();
	params->efer = rdmsr(MSR_EFER) & EFER_NXE;
	params->stack_tops = (u64)stack_tops;
	params->apic_ids = (u64)acpi.apic_ids;
	params->nr_cpus = nr_cpus;
	params->id_leaf = lapic_id_cpuid_leaf();
	params->entry = (u64)ap_entry;
}

__init unsigned int smp_boot_aps(void)
{
	if (nr_cpus == 1)
		return 1;
	prepare_start();
	return 1 + start_aps(1, nr_cpus);
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
	return start_aps(cpu, cpu + 1) == 1;
}
