/*
 * x2APIC mode: LAPIC registers as MSRs 0x800 + offset/16, a 32-bit APIC
 * id, and a single 64-bit ICR write that cannot be torn.
 */
#include "cpu.h"
#include "lapic.h"

#define X2APIC_MSR_BASE		0x800

static u32 x2apic_read(u32 reg)
{
	return (u32)rdmsr(X2APIC_MSR_BASE + reg / 16);
}

static void x2apic_write(u32 reg, u32 value)
{
	wrmsr(X2APIC_MSR_BASE + reg / 16, value);
}

static void x2apic_enable(void)
{
	wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | APIC_BASE_ENABLE |
			     APIC_BASE_X2APIC);
}

static u32 x2apic_id(void)
{
	return x2apic_read(LAPIC_ID);
}

static void x2apic_send_icr(u32 apic_id, u32 low)
{
	/* WRMSR to the ICR is not serializing; the mfence keeps earlier
	 * stores (the data the IPI announces) ahead of the IPI, as the SDM
	 * advises for x2APIC. Pairs with the handler's reads. */
	asm volatile("mfence" : : : "memory");
	wrmsr(X2APIC_MSR_BASE + LAPIC_ICR_LOW / 16,
	      ((u64)apic_id << 32) | low);
}

const struct lapic_ops x2apic_ops = {
	.name = "x2APIC",
	.enable = x2apic_enable,
	.read = x2apic_read,
	.write = x2apic_write,
	.id = x2apic_id,
	.send_icr = x2apic_send_icr,
};
