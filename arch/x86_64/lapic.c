/*
 * Local APIC set-up, timer and IPIs, in whichever mode lapic_choose_mode()
 * picked. The timer is calibrated once against the TSC (itself measured
 * against the PIT) on the boot CPU; every CPU's APIC timer runs at the
 * same bus frequency, so the APs reuse the figure.
 *
 * The timer runs in one of two ways. Periodic (nohz=off): it counts down
 * from 1/hz and reloads itself. One-shot, for the tickless kernel
 * (kernel/sched/tick.c): each CPU programs the next moment it needs an
 * interrupt, either as a TSC value (TSC-deadline mode, where CPUID offers
 * it: the deadline is exact and survives a vCPU descheduled by the host)
 * or as a count of timer ticks from now (one-shot mode, rounded to the
 * divided bus clock).
 */
#include "lapic.h"
#include "cpu.h"
#include "trap.h"
#include "arch.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/time.h"

#define SVR_ENABLE		(1u << 8)
#define LVT_MASKED		(1u << 16)
#define LVT_DELIVER_NMI		(4u << 8)
#define LVT_TIMER_PERIODIC	(1u << 17)
#define LVT_TIMER_TSC_DEADLINE	(2u << 17)
#define CPUID_1_ECX_TSC_DEADLINE (1u << 24)
#define TIMER_DIVIDE_BY_16	0x3
#define CALIBRATION_MS		10

static const struct lapic_ops *ops;
static u64 timer_hz;		/* APIC timer counts per second, divided */

static bool x2apic_allowed = true;
CMDLINE_BOOL("x2apic", x2apic_allowed,
	     "0 = use xAPIC MMIO even where the CPU has x2APIC");

static bool tsc_deadline_allowed = true;
static bool use_tsc_deadline;
CMDLINE_BOOL("tsc_deadline", tsc_deadline_allowed,
	     "0 = one-shot APIC timer even where the CPU has TSC-deadline");

/* x2APIC where the CPU has it, unless x2apic=0; but the firmware hands
 * over in x2APIC mode where APIC ids go above 254 (SeaBIOS does at
 * -smp 256 and up), and xAPIC's MMIO would then reach nothing: with
 * x2apic=0 at -smp 288 the boot triple-faulted starting the APs. */
__init void lapic_choose_mode(u64 mmio_phys)
{
	bool has_x2apic = cpuid(1, 0).ecx & (1u << 21);
	bool firmware_x2apic = rdmsr(MSR_APIC_BASE) & APIC_BASE_X2APIC;

	if (firmware_x2apic && !x2apic_allowed)
		pr_warn("lapic: x2apic=0 not followed: the firmware handed "
			"over in x2APIC mode (APIC ids above 254)\n");
	if (has_x2apic && (x2apic_allowed || firmware_x2apic)) {
		ops = &x2apic_ops;
	} else {
		ops = &xapic_ops;
		xapic_mmio = phys_to_virt(mmio_phys);
	}
}

const char *lapic_mode_name(void)
{
	return ops->name;
}

/**
 * lapic_id_cpuid_leaf() - the CPUID leaf that gives this CPU's APIC id
 *
 * Leaf 0xb's EDX holds the whole 32-bit x2APIC id where the leaf exists
 * (a zero EBX says it does not); leaf 1 has the initial id in EBX bits
 * 31:24, 8 bits only, and QEMU overflows its count of logical CPUs (bits
 * 23:16) into them above 255 CPUs: at -smp 256 the boot CPU read id 1
 * there, took CPU 1 for itself, and sent itself INIT. The AP trampoline
 * reads the same leaf, before any LAPIC is set up.
 *
 * Return: 0xb or 1.
 */
u32 lapic_id_cpuid_leaf(void)
{
	if (cpuid_max_leaf(0) >= 0xb && cpuid(0xb, 0).ebx)
		return 0xb;
	return 1;
}

/**
 * lapic_initial_id() - this CPU's APIC id from CPUID
 *
 * The id the MADT lists, readable in either mode and before the LAPIC is
 * enabled: ACPI needs the boot CPU's before the mode is chosen.
 *
 * Return: the APIC id.
 */
u32 lapic_initial_id(void)
{
	if (lapic_id_cpuid_leaf() == 0xb)
		return cpuid(0xb, 0).edx;
	return cpuid(1, 0).ebx >> 24;
}

/* LINT1 delivers an NMI on every CPU, not only on the boot CPU as the
 * firmware leaves it: QEMU's monitor command `nmi` (tests/boot, at a
 * timeout) raises LINT1 on each vCPU, and the hang report wants each
 * CPU's place. */
void lapic_init_cpu(void)
{
	ops->enable();
	ops->write(LAPIC_SVR, SVR_ENABLE | VECTOR_SPURIOUS);
	ops->write(LAPIC_LVT_LINT0, LVT_MASKED);
	ops->write(LAPIC_LVT_LINT1, LVT_DELIVER_NMI);
	ops->write(LAPIC_LVT_ERROR, LVT_MASKED);
	ops->write(LAPIC_LVT_TIMER, LVT_MASKED);
}

u32 lapic_id(void)
{
	return ops->id();
}

void lapic_eoi(void)
{
	ops->write(LAPIC_EOI, 0);
}

void lapic_send_ipi(u32 apic_id, u8 vector)
{
	ops->send_icr(apic_id, ICR_FIXED | ICR_ASSERT | vector);
}

void lapic_send_nmi(u32 apic_id)
{
	ops->send_icr(apic_id, ICR_NMI | ICR_ASSERT);
}

void lapic_send_init(u32 apic_id)
{
	ops->send_icr(apic_id, ICR_INIT | ICR_ASSERT | ICR_LEVEL);
}

void lapic_send_startup(u32 apic_id, u8 page)
{
	ops->send_icr(apic_id, ICR_STARTUP | ICR_ASSERT | page);
}

/* Count APIC timer ticks over CALIBRATION_MS of TSC time. */
__init void lapic_timer_calibrate(u64 tsc_hz)
{
	u64 start, wait = tsc_hz / 1000 * CALIBRATION_MS;
	u32 elapsed;

	ops->write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_16);
	ops->write(LAPIC_LVT_TIMER, LVT_MASKED);
	ops->write(LAPIC_TIMER_INITIAL, 0xffffffff);
	start = arch_read_tsc();
	while (arch_read_tsc() - start < wait)
		arch_cpu_relax();
	elapsed = 0xffffffff - ops->read(LAPIC_TIMER_CURRENT);
	ops->write(LAPIC_TIMER_INITIAL, 0);
	timer_hz = (u64)elapsed * 1000 / CALIBRATION_MS;
	pr_info("lapic: %s, timer %llu kHz (divided by 16)\n", ops->name,
		timer_hz / 1000);
}

/* Mask the timer and stop its count (and its deadline): a CPU about to
 * park, or one changing modes. */
void lapic_timer_stop(void)
{
	ops->write(LAPIC_LVT_TIMER, LVT_MASKED);
	ops->write(LAPIC_TIMER_INITIAL, 0);
	if (use_tsc_deadline)
		wrmsr(MSR_TSC_DEADLINE, 0);
}

void lapic_timer_start(unsigned int hz, u8 vector)
{
	u64 count = timer_hz / hz;

	ops->write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_16);
	ops->write(LAPIC_LVT_TIMER, LVT_TIMER_PERIODIC | vector);
	ops->write(LAPIC_TIMER_INITIAL, count ? (u32)count : 1);
}

/* Boot CPU, once: TSC-deadline where CPUID offers it and tsc_deadline=
 * allows it, the one-shot count otherwise. */
__init void lapic_oneshot_choose(void)
{
	use_tsc_deadline = tsc_deadline_allowed &&
			   (cpuid(1, 0).ecx & CPUID_1_ECX_TSC_DEADLINE);
}

const char *lapic_oneshot_name(void)
{
	return use_tsc_deadline ? "LAPIC TSC-deadline" : "LAPIC one-shot";
}

/* Each CPU: the timer unmasked in its one-shot mode, with nothing armed
 * (a deadline of 0 and a count of 0 both mean none). */
void lapic_oneshot_start(u8 vector)
{
	lapic_timer_stop();
	ops->write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_16);
	ops->write(LAPIC_LVT_TIMER, vector | (use_tsc_deadline ?
					      LVT_TIMER_TSC_DEADLINE : 0));
}

/*
 * Interrupt this CPU once the TSC reaches deadline_tsc. A deadline
 * already past fires at once: TSC-deadline mode does that itself (the
 * SDM: a value below the current TSC raises the interrupt immediately),
 * and the one-shot count is never less than 1, since a count of 0 would
 * stop the timer and lose the event.
 */
void lapic_oneshot_program(u64 deadline_tsc)
{
	s64 delta = (s64)(deadline_tsc - arch_read_tsc());
	u64 count;

	if (use_tsc_deadline) {
		wrmsr(MSR_TSC_DEADLINE, deadline_tsc);
		return;
	}
	/* At most a second ahead, which fits the 32-bit count and keeps
	 * the product in 64 bits; the interrupt then comes early, and the
	 * idle loop that woke programs the rest. */
	if (delta > (s64)clock_tsc_hz())
		delta = (s64)clock_tsc_hz();
	count = delta <= 0 ? 1 : (u64)delta * timer_hz / clock_tsc_hz();
	if (count == 0)
		count = 1;
	ops->write(LAPIC_TIMER_INITIAL, (u32)count);
}

/* Disarm without masking: the next program() needs no LVT write. */
void lapic_oneshot_cancel(void)
{
	if (use_tsc_deadline)
		wrmsr(MSR_TSC_DEADLINE, 0);
	else
		ops->write(LAPIC_TIMER_INITIAL, 0);
}
