/* xAPIC mode: LAPIC registers as 32-bit MMIO at 16-byte strides. */
#include "cpu.h"
#include "lapic.h"
#include "arch.h"


volatile u32 *xapic_mmio;

static u32 xapic_read(u32 reg)
{
	return xapic_mmio[reg / 4];
}

static void xapic_write(u32 reg, u32 value)
{
	xapic_mmio[reg / 4] = value;
}

static void xapic_enable(void)
{
	wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | APIC_BASE_ENABLE);
}

static u32 xapic_id(void)
{
	return xapic_read(LAPIC_ID) >> 24;
}

/* The ICR is two registers; writing the low half sends. Interrupts stay
 * off in between so that an IPI sent from a handler cannot change the
 * destination under us. */
static void xapic_send_icr(u32 apic_id, u32 low)
{
	unsigned long flags = arch_irq_save();

	while (xapic_read(LAPIC_ICR_LOW) & ICR_PENDING)
		arch_cpu_relax();
	xapic_write(LAPIC_ICR_HIGH, apic_id << 24);
	xapic_write(LAPIC_ICR_LOW, low);
	while (xapic_read(LAPIC_ICR_LOW) & ICR_PENDING)
		arch_cpu_relax();
	arch_irq_restore(flags);
}

const struct lapic_ops xapic_ops = {
	.name = "xAPIC",
	.enable = xapic_enable,
	.read = xapic_read,
	.write = xapic_write,
	.id = xapic_id,
	.send_icr = xapic_send_icr,
};
