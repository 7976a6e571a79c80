/*
 * Local APIC set-up, timer and IPIs, in whichever mode lapic_choose_mode()
 * picked. The timer is calibrated once against the TSC (itself measured
 * against the PIT) on the boot CPU; every CPU's APIC timer runs at the
 * same bus frequency, so the APs reuse the figure.
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
#define LVT_TIMER_PERIODIC	(1u << 17)
#define TIMER_DIVIDE_BY_16	0x3
#define CALIBRATION_MS		10

static const struct lapic_ops *ops;
static u64 timer_hz;		/* APIC timer counts per second, divided */

static bool x2apic_allowed = true;
CMDLINE_BOOL("x2apic", x2apic_allowed,
	     "0 = use xAPIC MMIO even where the CPU has x2APIC");

__init void lapic_choose_mode(u64 mmio_phys)
{
	bool has_x2apic = cpuid(1, 0).ecx & (1u << 21);

	if (has_x2apic && x2apic_allowed) {
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

void lapic_init_cpu(void)
{
	ops->enable();
	ops->write(LAPIC_SVR, SVR_ENABLE | VECTOR_SPURIOUS);
	ops->write(LAPIC_LVT_LINT0, LVT_MASKED);
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

/* Mask the timer and stop its count: a CPU about to park. */
void lapic_timer_stop(void)
{
	ops->write(LAPIC_LVT_TIMER, LVT_MASKED);
	ops->write(LAPIC_TIMER_INITIAL, 0);
}

void lapic_timer_start(unsigned int hz, u8 vector)
{
	u64 count = timer_hz / hz;

	ops->write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_16);
	ops->write(LAPIC_LVT_TIMER, LVT_TIMER_PERIODIC | vector);
	ops->write(LAPIC_TIMER_INITIAL, count ? (u32)count : 1);
}
