/*
 * The AP trampoline. An application processor wakes from its STARTUP IPI
 * in 16-bit real mode at TRAMPOLINE_PHYS (vector 0x08: CS = 0x0800,
 * IP = 0). smp.c copies this code there and fills the parameter block at
 * its end: the page tables to use (the boot tables, which still identity
 * map low memory), the stack, the C entry point and the CPU's index.
 * The code goes 16 -> 32 -> 64 bit on the boot tables, moves to the
 * trampoline's alias in the kernel window (KERNEL_VMA + phys, mapped by
 * both sets of tables), switches to the kernel's page tables and only
 * then touches its stack, which only the kernel's tables map.
 *
 * Every address is computed relative to TRAMPOLINE_PHYS, since the code
 * runs at a different place than it was linked.
 */
#define TRAMPOLINE_PHYS	0x8000
#define KERNEL_VMA	0xffffffff80000000
#define REL(sym)	((sym) - ap_trampoline_start)
#define ABS(sym)	(TRAMPOLINE_PHYS + REL(sym))

#define CR0_PE		1
#define CR0_PG		(1 << 31)
#define CR0_WP		(1 << 16)
#define CR4_PAE		(1 << 5)
#define MSR_EFER	0xc0000080
#define EFER_LME	(1 << 8)

	.section .rodata
	.global ap_trampoline_start, ap_trampoline_end, ap_trampoline_params
	.code16
ap_trampoline_start:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	lgdtl REL(tramp_gdt_ptr)
	movl %cr0, %eax
	orl $CR0_PE, %eax
	movl %eax, %cr0
	ljmpl $0x08, $ABS(tramp32)

	.code32
tramp32:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl %cr4, %eax
	orl $CR4_PAE, %eax
	movl %eax, %cr4
	movl ABS(param_boot_cr3), %eax
	movl %eax, %cr3
	movl $MSR_EFER, %ecx
	rdmsr
	orl $EFER_LME, %eax
	orl ABS(param_efer), %eax	/* NXE, if the kernel's tables use NX */
	wrmsr
	movl %cr0, %eax
	orl $(CR0_PG | CR0_WP), %eax
	movl %eax, %cr0
	ljmpl $0x18, $ABS(tramp64)

	.code64
tramp64:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movabsq $(KERNEL_VMA + ABS(tramp_high)), %rax
	jmp *%rax
tramp_high:
	movabsq $(KERNEL_VMA + ABS(ap_trampoline_params)), %rbx
	movq 8(%rbx), %rax		/* param_kernel_cr3 */
	movq %rax, %cr3
	movq 16(%rbx), %rsp		/* param_stack */
	movq 32(%rbx), %rdi		/* param_cpu */
	xorl %ebp, %ebp			/* ends the backtrace */
	/* A zero return address, as if called: the entry finds the stack
	 * aligned as the ABI has it after a call, and a backtrace ends on
	 * it instead of reading the word above the stack's top. */
	pushq $0
	jmpq *24(%rbx)			/* param_entry */

	.align 16
tramp_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* 0x08: 32-bit code */
	.quad 0x00cf92000000ffff	/* 0x10: data */
	.quad 0x00af9a000000ffff	/* 0x18: 64-bit code */
tramp_gdt_end:
tramp_gdt_ptr:
	.short tramp_gdt_end - tramp_gdt - 1
	.long ABS(tramp_gdt)

	.align 8
ap_trampoline_params:
param_boot_cr3:	.quad 0		/* +0 */
param_kernel_cr3: .quad 0	/* +8 */
param_stack:	.quad 0		/* +16 */
param_entry:	.quad 0		/* +24 */
param_cpu:	.quad 0		/* +32 */
param_efer:	.quad 0		/* +40: extra EFER bits */
ap_trampoline_end:
