/*
 * Just enough ACPI: from the RSDP (GRUB's copy) to the RSDT or XSDT, then
 * the MADT for the CPUs, IOAPICs and legacy IRQ overrides, and the FADT
 * plus the \_S5 object of the DSDT for power-off. Table layouts follow
 * the ACPI specification; every table's checksum is verified.
 */
#include "acpi.h"
#include "arch.h"
#include "kernel/bootinfo.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/unaligned.h"

struct sdt_header {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 creator_id;
	u32 creator_revision;
} __packed;

#define MADT_LAPIC		0
#define MADT_IOAPIC		1
#define MADT_OVERRIDE		2
#define MADT_LAPIC_ADDRESS	5
#define MADT_X2APIC		9
#define MADT_PCAT_COMPAT	1u
#define LAPIC_ENABLED		1u
#define LAPIC_ONLINE_CAPABLE	2u

#define FADT_DSDT		40
#define FADT_PM1A_CONTROL	64
#define FADT_X_DSDT		140

struct acpi_info acpi;

static bool checksum_ok(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;
	size_t i;

	for (i = 0; i < len; i++)
		sum += b[i];
	return sum == 0;
}

static const struct sdt_header *table_at(u64 phys)
{
	const struct sdt_header *h = phys_to_virt(phys);

	if (!phys || !checksum_ok(h, h->length))
		return NULL;
	return h;
}

/* Walk the RSDT (32-bit pointers) or XSDT (64-bit) for a signature. */
static const struct sdt_header *find_table(const char *sig)
{
	const u8 *rsdp = boot_info.rsdp_copy;
	u64 root_phys;
	const struct sdt_header *root;
	size_t entry_size, n, i;

	if (boot_info.rsdp_v2 && get_unaligned_u64(rsdp + 24)) {
		root_phys = get_unaligned_u64(rsdp + 24);
		entry_size = 8;
	} else {
		root_phys = get_unaligned_u32(rsdp + 16);
		entry_size = 4;
	}
	root = table_at(root_phys);
	if (!root)
		return NULL;
	n = (root->length - sizeof(*root)) / entry_size;
	for (i = 0; i < n; i++) {
		const u8 *e = (const u8 *)(root + 1) + i * entry_size;
		u64 phys = entry_size == 8 ? get_unaligned_u64(e)
					   : get_unaligned_u32(e);
		const struct sdt_header *t = table_at(phys);

		if (t && memcmp(t->signature, sig, 4) == 0)
			return t;
	}
	return NULL;
}

/* Linux's nr_cpus=: the CPUs the kernel takes, the boot CPU included;
 * the MADT's others are ignored as those beyond MAX_CPUS are. */
static unsigned int cpu_limit = MAX_CPUS;
CMDLINE_UINT("nr_cpus", cpu_limit, 1, MAX_CPUS,
	     "start at most this many CPUs (Linux's nr_cpus=)");

static void add_cpu(u32 apic_id, u32 flags, u32 boot_apic_id)
{
	if (!(flags & LAPIC_ENABLED)) {
		acpi.nr_disabled++;
		return;
	}
	if (apic_id == boot_apic_id)
		return;		/* already in slot 0 */
	if (acpi.nr_cpus == cpu_limit) {
		acpi.nr_ignored++;	/* said once, by acpi_init() */
		return;
	}
	acpi.apic_ids[acpi.nr_cpus++] = apic_id;
}

/* Whether the MADT lists any CPU in a Processor Local APIC entry. */
static bool madt_has_lapic_cpus(const u8 *p, const u8 *end)
{
	for (; p + 2 <= end && p[1] >= 2; p += p[1])
		if (p[0] == MADT_LAPIC)
			return true;
	return false;
}

/*
 * CPUs come in two entries: Processor Local APIC (type 0, an 8-bit id)
 * and Processor Local x2APIC (type 9, length 16: the 32-bit id at bytes
 * 4-7, flags at 8-11), where firmware lists ids from 255 up. As Linux
 * does, a type 0 id of 0xff and a type 9 id of ~0 name no CPU, and a
 * type 9 entry below 255 is ignored where type 0 entries exist: ACPI
 * 6.5 gives those ids to type 0, and firmware that lists a CPU in both
 * would otherwise have it started twice.
 */
static void parse_madt(const struct sdt_header *madt, u32 boot_apic_id)
{
	const u8 *p = (const u8 *)madt + sizeof(*madt);
	const u8 *end = (const u8 *)madt + madt->length;
	bool has_lapic_cpus = madt_has_lapic_cpus(p + 8, end);
	u32 id;

	acpi.lapic_phys = get_unaligned_u32(p);
	acpi.have_8259 = get_unaligned_u32(p + 4) & MADT_PCAT_COMPAT;
	for (p += 8; p + 2 <= end && p[1] >= 2; p += p[1]) {
		switch (p[0]) {
		case MADT_LAPIC:
			if (p[3] != 0xff)
				add_cpu(p[3], get_unaligned_u32(p + 4),
					boot_apic_id);
			break;
		case MADT_X2APIC:
			id = get_unaligned_u32(p + 4);
			if (p[1] >= 16 && id != ~0u &&
			    (id >= 0xff || !has_lapic_cpus))
				add_cpu(id, get_unaligned_u32(p + 8),
					boot_apic_id);
			break;
		case MADT_IOAPIC:
			if (acpi.nr_ioapics < ACPI_MAX_IOAPICS) {
				struct acpi_ioapic *io =
					&acpi.ioapics[acpi.nr_ioapics++];

				io->id = p[2];
				io->phys = get_unaligned_u32(p + 4);
				io->gsi_base = get_unaligned_u32(p + 8);
			}
			break;
		case MADT_OVERRIDE:
			if (acpi.nr_overrides < ACPI_MAX_OVERRIDES) {
				struct acpi_override *o =
					&acpi.overrides[acpi.nr_overrides++];

				o->irq = p[3];
				o->gsi = get_unaligned_u32(p + 4);
				o->flags = get_unaligned_u16(p + 8);
			}
			break;
		case MADT_LAPIC_ADDRESS:
			acpi.lapic_phys = get_unaligned_u64(p + 4);
			break;
		}
	}
}

/*
 * \_S5 in the DSDT's AML is a Name of a Package whose first element is
 * SLP_TYPa: NameOp '_S5_' PackageOp PkgLength NumElements then a
 * ByteConst (0x0a nn) or a bare Zero/One. That is all we need of AML.
 */
static void find_s5(const struct sdt_header *dsdt)
{
	const u8 *p = (const u8 *)(dsdt + 1);
	const u8 *end = (const u8 *)dsdt + dsdt->length;

	for (; p + 8 < end; p++) {
		if (memcmp(p, "_S5_", 4) != 0 || p[4] != 0x12)
			continue;
		p += 5;
		p += ((*p & 0xc0) >> 6) + 1;	/* PkgLength */
		p++;				/* NumElements */
		if (*p == 0x0a)
			p++;
		acpi.slp_typ_s5 = *p;
		acpi.s5_known = true;
		return;
	}
}

static void parse_fadt(const struct sdt_header *fadt)
{
	const u8 *f = (const u8 *)fadt;
	u64 dsdt = get_unaligned_u32(f + FADT_DSDT);
	const struct sdt_header *d;

	acpi.pm1a_control = (u16)get_unaligned_u32(f + FADT_PM1A_CONTROL);
	if (fadt->length >= FADT_X_DSDT + 8 && get_unaligned_u64(f + FADT_X_DSDT))
		dsdt = get_unaligned_u64(f + FADT_X_DSDT);
	d = table_at(dsdt);
	if (d)
		find_s5(d);
}

__init void acpi_init(u32 boot_apic_id)
{
	const struct sdt_header *madt, *fadt;

	acpi.apic_ids[0] = boot_apic_id;
	acpi.nr_cpus = 1;
	acpi.lapic_phys = 0xfee00000;
	if (!boot_info.rsdp_phys ||
	    !checksum_ok(boot_info.rsdp_copy, 20)) {
		pr_warn("acpi: no valid RSDP from the boot loader; running on "
			"the boot CPU only\n");
		return;
	}
	madt = find_table("APIC");
	if (madt)
		parse_madt(madt, boot_apic_id);
	else
		pr_warn("acpi: no MADT; running on the boot CPU only\n");
	fadt = find_table("FACP");
	if (fadt)
		parse_fadt(fadt);
	pr_info("acpi: ACPI %s, %u CPUs enabled (%u disabled), %u IOAPICs, "
		"%u IRQ overrides\n", boot_info.rsdp_v2 ? "2.0+" : "1.0",
		acpi.nr_cpus + acpi.nr_ignored, acpi.nr_disabled,
		acpi.nr_ioapics, acpi.nr_overrides);
	if (acpi.nr_ignored)
		pr_warn("acpi: %u of %u enabled CPUs ignored, never started: "
			"the kernel takes at most %u (%s)\n", acpi.nr_ignored,
			acpi.nr_cpus + acpi.nr_ignored, cpu_limit,
			cpu_limit < MAX_CPUS ? "nr_cpus=" : "MAX_CPUS");
}
