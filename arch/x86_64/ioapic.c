/*
 * IOAPIC routing for the one legacy device interrupt we use, the UART.
 * A legacy IRQ maps to a global system interrupt (GSI) unless the MADT
 * overrides it; the IOAPIC whose range holds the GSI gets a redirection
 * entry naming the vector and the destination CPU.
 */
#include "ioapic.h"
#include "acpi.h"
#include "arch.h"
#include "kernel/printk.h"

#define IOREGSEL		0x00
#define IOWIN			0x10
#define IOAPIC_VERSION		0x01
#define IOAPIC_REDIR(n)		(0x10 + 2 * (n))
#define REDIR_MASKED		(1u << 16)
#define REDIR_LEVEL		(1u << 15)
#define REDIR_ACTIVE_LOW	(1u << 13)
#define INTI_POLARITY_MASK	0x3
#define INTI_ACTIVE_LOW		0x3
#define INTI_TRIGGER_MASK	0xc
#define INTI_LEVEL		0xc

static u32 ioapic_read(volatile u32 *base, u32 reg)
{
	base[IOREGSEL / 4] = reg;
	return base[IOWIN / 4];
}

static void ioapic_write(volatile u32 *base, u32 reg, u32 value)
{
	base[IOREGSEL / 4] = reg;
	base[IOWIN / 4] = value;
}

int ioapic_route_irq(unsigned int irq, u8 vector, u32 dest_apic_id)
{
	u32 gsi = irq, low;
	u16 flags = 0;
	unsigned int i;

	for (i = 0; i < acpi.nr_overrides; i++) {
		if (acpi.overrides[i].irq == irq) {
			gsi = acpi.overrides[i].gsi;
			flags = acpi.overrides[i].flags;
		}
	}
	for (i = 0; i < acpi.nr_ioapics; i++) {
		const struct acpi_ioapic *io = &acpi.ioapics[i];
		volatile u32 *base = phys_to_virt(io->phys);
		u32 entries = ((ioapic_read(base, IOAPIC_VERSION) >> 16) & 0xff)
			      + 1;

		if (gsi < io->gsi_base || gsi >= io->gsi_base + entries)
			continue;
		low = vector;
		if ((flags & INTI_POLARITY_MASK) == INTI_ACTIVE_LOW)
			low |= REDIR_ACTIVE_LOW;
		if ((flags & INTI_TRIGGER_MASK) == INTI_LEVEL)
			low |= REDIR_LEVEL;
		ioapic_write(base, IOAPIC_REDIR(gsi - io->gsi_base) + 1,
			     dest_apic_id << 24);
		ioapic_write(base, IOAPIC_REDIR(gsi - io->gsi_base), low);
		return 0;
	}
	pr_warn("ioapic: no IOAPIC serves IRQ %u (GSI %u); it stays off\n",
		irq, gsi);
	return -1;
}
