/* Segment selectors and the per-CPU GDT/TSS. */
#ifndef ARCH_GDT_H
#define ARCH_GDT_H

#include "lib/types.h"

#define GDT_KERNEL_CODE	0x08
#define GDT_KERNEL_DATA	0x10
#define GDT_TSS		0x18
#define GDT_ENTRIES	5

/* Interrupt Stack Table slots (1-based in the IDT gate). */
#define IST_DOUBLE_FAULT	1
#define IST_NMI			2
#define IST_COUNT		2

void gdt_init_cpu(unsigned int cpu);
bool gdt_ist_bounds(unsigned int cpu, uptr addr, uptr *lo, uptr *hi);

#endif
