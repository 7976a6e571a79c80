/*
 * Reading the multiboot2 information GRUB leaves us: a list of tags after
 * an 8-byte header, each 8-byte aligned. We keep the memory map, the
 * command line and the ACPI RSDP (GRUB copies the RSDP itself into the
 * "old" or "new" ACPI tag, so we keep that copy).
 */
#include "multiboot2.h"
#include "kernel/bootinfo.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define MB2_BOOTLOADER_MAGIC	0x36d76289

#define TAG_END		0
#define TAG_CMDLINE	1
#define TAG_MMAP	6
#define TAG_ACPI_OLD	14
#define TAG_ACPI_NEW	15

struct mb2_tag {
	u32 type;
	u32 size;
};

struct mb2_mmap_entry {
	u64 base;
	u64 length;
	u32 type;
	u32 reserved;
};

struct boot_info boot_info;

static void read_mmap(const struct mb2_tag *tag)
{
	const u8 *p = (const u8 *)tag + 16;	/* after entry_size/version */
	u32 entry_size = *(const u32 *)((const u8 *)tag + 8);
	const u8 *end = (const u8 *)tag + tag->size;

	for (; p + entry_size <= end; p += entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;
		struct mem_region *r;

		if (boot_info.nr_regions == BOOT_MAX_REGIONS) {
			pr_warn("multiboot2: more than %d memory regions; the "
				"rest are ignored\n", BOOT_MAX_REGIONS);
			return;
		}
		r = &boot_info.regions[boot_info.nr_regions++];
		r->base = e->base;
		r->length = e->length;
		r->type = e->type;
	}
}

static void read_rsdp(const struct mb2_tag *tag, bool v2)
{
	size_t len = tag->size - 8;

	/* Prefer the new (ACPI 2.0+) copy when GRUB gives both. */
	if (boot_info.rsdp_v2 && !v2)
		return;
	memcpy(boot_info.rsdp_copy, (const u8 *)tag + 8,
	       MIN(len, sizeof(boot_info.rsdp_copy)));
	boot_info.rsdp_phys = 1;	/* present; acpi.c uses the copy */
	boot_info.rsdp_v2 = v2;
}

/* info points at the information structure through the boot mapping of
 * low memory (identity and KERNEL_VMA both still mapped). */
__init void multiboot2_parse(u32 magic, const void *info)
{
	const u8 *p = (const u8 *)info + 8;
	u32 total = *(const u32 *)info;
	const u8 *end = (const u8 *)info + total;

	if (magic != MB2_BOOTLOADER_MAGIC)
		panic("not booted by a multiboot2 loader (EAX = %#x, expected "
		      "%#x)", magic, MB2_BOOTLOADER_MAGIC);

	while (p + sizeof(struct mb2_tag) <= end) {
		const struct mb2_tag *tag = (const void *)p;

		if (tag->type == TAG_END)
			break;
		switch (tag->type) {
		case TAG_CMDLINE:
			strlcpy(boot_info.cmdline, (const char *)p + 8,
				sizeof(boot_info.cmdline));
			break;
		case TAG_MMAP:
			read_mmap(tag);
			break;
		case TAG_ACPI_OLD:
			read_rsdp(tag, false);
			break;
		case TAG_ACPI_NEW:
			read_rsdp(tag, true);
			break;
		}
		p += ALIGN_UP(tag->size, 8);
	}
	if (boot_info.nr_regions == 0)
		panic("multiboot2: the loader gave no memory map");
}
