/*
 * The IDT: one gate per vector, each pointing at its stub in isr.S. It is
 * the same for every CPU, so one table serves all. Double fault and NMI
 * run on their own IST stacks (gdt.c) so they work even on a broken stack.
 */
#include "gdt.h"
#include "trap.h"
#include "kernel/init.h"
#include "lib/compiler.h"

struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_high;
	u32 reserved;
} __packed;

struct idt_ptr {
	u16 limit;
	u64 base;
} __packed;

#define GATE_INTERRUPT	0x8e	/* present, ring 0, 64-bit interrupt gate */
#define VECTOR_NMI	2
#define VECTOR_DF	8

extern const u64 isr_stub_table[256];
static struct idt_gate idt[256] __aligned(16);

__init void idt_init(void)
{
	unsigned int v;

	for (v = 0; v < 256; v++) {
		u64 addr = isr_stub_table[v];

		idt[v].offset_low = addr & 0xffff;
		idt[v].selector = GDT_KERNEL_CODE;
		idt[v].ist = 0;
		idt[v].type_attr = GATE_INTERRUPT;
		idt[v].offset_mid = (addr >> 16) & 0xffff;
		idt[v].offset_high = addr >> 32;
		idt[v].reserved = 0;
	}
	idt[VECTOR_DF].ist = IST_DOUBLE_FAULT;
	idt[VECTOR_NMI].ist = IST_NMI;
}

void idt_load(void)
{
	struct idt_ptr ptr = { sizeof(idt) - 1, (u64)idt };

	asm volatile("lidt %0" : : "m"(ptr));
}
