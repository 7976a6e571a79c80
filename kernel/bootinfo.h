/*
 * What the boot loader told us, copied out of its own structures before
 * any of its memory can be reused: the RAM map, the command line and
 * where the ACPI tables are.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include "lib/types.h"

#define BOOT_MAX_REGIONS	128
#define BOOT_CMDLINE_MAX	1024

enum mem_type {
	MEM_USABLE = 1,
	MEM_RESERVED = 2,
	MEM_ACPI_RECLAIMABLE = 3,
	MEM_ACPI_NVS = 4,
	MEM_BAD = 5,
};

struct mem_region {
	u64 base;
	u64 length;
	u32 type;
};

struct boot_info {
	struct mem_region regions[BOOT_MAX_REGIONS];
	unsigned int nr_regions;
	char cmdline[BOOT_CMDLINE_MAX];
	u64 rsdp_phys;		/* 0 if the loader gave no RSDP */
	u8 rsdp_copy[36];	/* the loader's copy (v1: 20 bytes, v2: 36) */
	bool rsdp_v2;
};

extern struct boot_info boot_info;

#endif
