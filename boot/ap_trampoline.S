/*
 * The AP trampoline. An application processor wakes from its STARTUP IPI
 * in 16-bit real mode at TRAMPOLINE_PHYS (vector 0x08: CS = 0x0800,
 * IP = 0). smp.c copies this code there and fills the parameter block at
 * its end: the page tables to use (the boot tables, which still identity
 * map low memory), the tables of APIC ids and stacks, and the C entry
 * point. The code goes 16 -> 32 -> 64 bit on the boot tables, moves to
 * the trampoline's alias in the kernel window (KERNEL_VMA + phys, mapped
 * by both sets of tables), switches to the kernel's page tables and only
 * then touches memory of its own.
 *
 * Every AP runs this at once (smp.c starts them in parallel), so the
 * block names no AP: each reads its own APIC id with CPUID (the leaf
 * the block names: 0xb's EDX, or 1's EBX bits 31:24), finds its index
 * in the id table, and takes the stack of that index. A CPU in no slot,
 * or in one without a stack (the boot CPU's), halts here, having written
 * nothing: it can run on no other CPU's stack.
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
	movabsq $(KERNEL_VMA + ABS(ap_trampoline_params)), %rsi
	movq 8(%rsi), %rax		/* param_kernel_cr3 */
	movq %rax, %cr3
	movl 56(%rsi), %eax		/* param_id_leaf */
	xorl %ecx, %ecx
	cpuid				/* keeps %rsi */
	cmpl $0xb, 56(%rsi)
	je 1f
	movl %ebx, %edx
	shrl $24, %edx
1:	movq 32(%rsi), %r8		/* param_apic_ids: u32 each */
	movq 48(%rsi), %rcx		/* param_nr_cpus */
	xorl %edi, %edi
2:	cmpq %rcx, %rdi
	je no_slot
	cmpl (%r8,%rdi,4), %edx
	je 3f
	incq %rdi
	jmp 2b
3:	movq 16(%rsi), %r8		/* param_stack_tops: u64 each */
	movq (%r8,%rdi,8), %rsp
	testq %rsp, %rsp
	jz no_slot
	xorl %ebp, %ebp			/* ends the backtrace */
	/* A zero return address, as if called: the entry finds the stack
	 * aligned as the ABI has it after a call, and a backtrace ends on
	 * it instead of reading the word above the stack's top. %rdi is
	 * the CPU's index, the entry's argument. */
	pushq $0
	jmpq *24(%rsi)			/* param_entry */
no_slot:
	cli
	hlt
	jmp no_slot

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
param_stack_tops: .quad 0	/* +16 */
param_entry:	.quad 0		/* +24 */
param_apic_ids:	.quad 0		/* +32 */
param_efer:	.quad 0		/* +40: extra EFER bits */
param_nr_cpus:	.quad 0		/* +48 */
param_id_leaf:	.quad 0		/* +56 */
ap_trampoline_end:
