/* The register frame isr.S saves on every interrupt and exception. */
#ifndef ARCH_TRAP_H
#define ARCH_TRAP_H

#include "lib/compiler.h"
#include "lib/types.h"

struct trap_frame {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error;
	u64 rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

/* Vectors above the exceptions. */
#define VECTOR_IRQ_BASE		0x20	/* legacy IRQ n is 0x20 + n via IOAPIC */
#define VECTOR_TIMER		0x40
#define VECTOR_IPI_BASE		0xf0	/* ARCH_NR_IPIS vectors from here */
#define VECTOR_SPURIOUS		0xff

typedef void (*irq_handler_t)(struct trap_frame *frame);

void idt_init(void);
void idt_load(void);
void irq_register(unsigned int vector, irq_handler_t handler);
void trap_dispatch(struct trap_frame *frame);
const char *trap_vector_name(unsigned int vector);
__noreturn void trap_panic(struct trap_frame *frame, const char *why);

#endif
