/*
 * The local APIC: this CPU's interrupt controller, timer and IPI sender.
 * Two access modes behind one set of operations: xAPIC (MMIO registers,
 * xapic.c) and x2APIC (MSRs, x2apic.c), chosen once at boot by CPUID.
 */
#ifndef ARCH_LAPIC_H
#define ARCH_LAPIC_H

#include "lib/types.h"

/* Register offsets in xAPIC MMIO terms; x2APIC uses MSR 0x800 + off/16. */
#define LAPIC_ID		0x020
#define LAPIC_EOI		0x0b0
#define LAPIC_SVR		0x0f0
#define LAPIC_ICR_LOW		0x300
#define LAPIC_ICR_HIGH		0x310
#define LAPIC_LVT_TIMER		0x320
#define LAPIC_LVT_LINT0		0x350
#define LAPIC_LVT_LINT1		0x360
#define LAPIC_LVT_ERROR		0x370
#define LAPIC_TIMER_INITIAL	0x380
#define LAPIC_TIMER_CURRENT	0x390
#define LAPIC_TIMER_DIVIDE	0x3e0

#define ICR_FIXED		(0u << 8)
#define ICR_NMI			(4u << 8)
#define ICR_INIT		(5u << 8)
#define ICR_STARTUP		(6u << 8)
#define ICR_PENDING		(1u << 12)
#define ICR_ASSERT		(1u << 14)
#define ICR_LEVEL		(1u << 15)
#define ICR_ALL_BUT_SELF	(3u << 18)

struct lapic_ops {
	const char *name;
	void (*enable)(void);
	u32 (*read)(u32 reg);
	void (*write)(u32 reg, u32 value);
	u32 (*id)(void);
	/* Send an IPI: low is the ICR low word (vector, mode, shorthand). */
	void (*send_icr)(u32 apic_id, u32 low);
};

extern const struct lapic_ops xapic_ops;
extern const struct lapic_ops x2apic_ops;

/* IA32_APIC_BASE (MSR_APIC_BASE): the LAPIC on, and in x2APIC mode. */
#define APIC_BASE_ENABLE	(1ull << 11)
#define APIC_BASE_X2APIC	(1ull << 10)

/* Boot CPU: choose the mode and find the MMIO base. */
void lapic_choose_mode(u64 mmio_phys);
const char *lapic_mode_name(void);
u32 lapic_id_cpuid_leaf(void);
u32 lapic_initial_id(void);
void lapic_init_cpu(void);
u32 lapic_id(void);
void lapic_eoi(void);
void lapic_send_ipi(u32 apic_id, u8 vector);
void lapic_send_nmi(u32 apic_id);
void lapic_send_init(u32 apic_id);
void lapic_send_startup(u32 apic_id, u8 page);

/* Periodic timer: calibrate once on the boot CPU, start on every CPU. */
void lapic_timer_calibrate(u64 tsc_hz);
void lapic_timer_start(unsigned int hz, u8 vector);
void lapic_timer_stop(void);

/* One-shot timer (tickless kernel): choose the mode once on the boot
 * CPU, start it on each CPU, then arm it for a TSC value or disarm it. */
void lapic_oneshot_choose(void);
const char *lapic_oneshot_name(void);
void lapic_oneshot_start(u8 vector);
void lapic_oneshot_program(u64 deadline_tsc);
void lapic_oneshot_cancel(void);

/* For xapic.c: the MMIO mapping. */
extern volatile u32 *xapic_mmio;

#endif
