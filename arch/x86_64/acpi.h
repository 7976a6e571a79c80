/* The ACPI tables we read: the MADT (CPUs, IOAPICs, IRQ overrides). */
#ifndef ARCH_ACPI_H
#define ARCH_ACPI_H

#include "kernel/percpu.h"
#include "lib/types.h"

#define ACPI_MAX_IOAPICS	8
#define ACPI_MAX_OVERRIDES	16

struct acpi_ioapic {
	u8 id;
	u32 phys;
	u32 gsi_base;
};

/* A legacy ISA IRQ wired to another global system interrupt. */
struct acpi_override {
	u8 irq;
	u32 gsi;
	u16 flags;	/* polarity and trigger mode, MPS INTI flags */
};

struct acpi_info {
	u64 lapic_phys;
	u32 apic_ids[MAX_CPUS];	/* enabled CPUs, boot CPU first */
	unsigned int nr_cpus;
	unsigned int nr_disabled;	/* listed but not enabled */
	unsigned int nr_ignored;	/* enabled, beyond MAX_CPUS */
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	unsigned int nr_ioapics;
	struct acpi_override overrides[ACPI_MAX_OVERRIDES];
	unsigned int nr_overrides;
	bool have_8259;		/* MADT says a legacy PIC is present */
	u16 pm1a_control;	/* FADT: for ACPI S5 power-off */
	u16 slp_typ_s5;		/* from \_S5 in the DSDT */
	bool s5_known;
};

extern struct acpi_info acpi;

/* Parse the tables; boot_apic_id goes first in apic_ids. */
void acpi_init(u32 boot_apic_id);

#endif
