/*
 * The first code that runs: GRUB jumps here in 32-bit protected mode with
 * paging off, EAX = the multiboot2 magic and EBX = the physical address of
 * the boot information. We have no stack and cannot trust GRUB's GDT.
 *
 * We build page tables that map the first 1 GiB twice (identity, so the next
 * instruction after enabling paging still exists, and at KERNEL_VMA, where
 * the rest of the kernel is linked), enter long mode and jump to C. The
 * identity map is dropped later by paging_init(); the AP trampoline reuses
 * these tables for its own switch to long mode.
 */
#define KERNEL_VMA	0xffffffff80000000
#define PHYS(sym)	((sym) - KERNEL_VMA)

#define PTE_PRESENT	0x1
#define PTE_WRITE	0x2
#define PTE_HUGE	0x80

#define CR0_PG		(1 << 31)
#define CR0_WP		(1 << 16)
#define CR4_PAE		(1 << 5)
#define MSR_EFER	0xc0000080
#define EFER_LME	(1 << 8)
#define COM1		0x3f8

	.section .boot.text, "ax"
	.code32
	.global boot_entry32
boot_entry32:
	cli
	cld
	movl %eax, %edi			/* multiboot2 magic: kmain's 1st argument */
	movl %ebx, %esi			/* info address: kmain's 2nd argument */
	movl $PHYS(boot_stack_top), %esp

	/* Long mode needs CPUID leaf 0x80000001 EDX bit 29. */
	movl $0x80000000, %eax
	cpuid
	cmpl $0x80000001, %eax
	jb no_long_mode
	movl $0x80000001, %eax
	cpuid
	testl $(1 << 29), %edx
	jz no_long_mode

	/* PD: 512 entries of 2 MiB pages covering 0..1 GiB. */
	movl $PHYS(boot_pd), %ebx
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $(PTE_PRESENT | PTE_WRITE | PTE_HUGE), %eax
	movl %eax, (%ebx, %ecx, 8)
	movl $0, 4(%ebx, %ecx, 8)
	incl %ecx
	cmpl $512, %ecx
	jne 1b

	/* Both PDPTs point at the one PD; PML4[0] and PML4[511] at the PDPTs. */
	movl $(PHYS(boot_pd) + PTE_PRESENT + PTE_WRITE), %eax
	movl %eax, PHYS(boot_pdpt_low)
	movl %eax, PHYS(boot_pdpt_high) + 510 * 8
	movl $(PHYS(boot_pdpt_low) + PTE_PRESENT + PTE_WRITE), %eax
	movl %eax, PHYS(boot_pml4)
	movl $(PHYS(boot_pdpt_high) + PTE_PRESENT + PTE_WRITE), %eax
	movl %eax, PHYS(boot_pml4) + 511 * 8

	movl %cr4, %eax
	orl $CR4_PAE, %eax
	movl %eax, %cr4
	movl $PHYS(boot_pml4), %eax
	movl %eax, %cr3
	movl $MSR_EFER, %ecx
	rdmsr
	orl $EFER_LME, %eax
	wrmsr
	movl %cr0, %eax
	orl $(CR0_PG | CR0_WP), %eax
	movl %eax, %cr0

	lgdt boot_gdt_ptr
	ljmp $0x08, $boot_entry64

no_long_mode:
	movl $no_long_mode_msg, %esi
2:	lodsb
	testb %al, %al
	jz 3f
	movw $COM1, %dx
	outb %al, %dx
	jmp 2b
3:	hlt
	jmp 3b

	.code64
boot_entry64:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movabsq $boot_high64, %rax
	jmp *%rax

	.section .boot.data, "aw"
	.align 16
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit code, ring 0 */
	.quad 0x00cf92000000ffff	/* 0x10: data, ring 0 */
boot_gdt_end:
	.global boot_gdt_ptr
boot_gdt_ptr:
	.short boot_gdt_end - boot_gdt - 1
	.long boot_gdt
no_long_mode_msg:
	.asciz "quiesce: this CPU has no long mode (x86-64); cannot boot\r\n"

	.text
boot_high64:
	movabsq $boot_stack_top, %rsp
	xorl %ebp, %ebp			/* ends the frame-pointer backtrace */
#if KERNEL_KASAN
	/* Before any C function poisons its stack frame's shadow. */
	call arch_kasan_early_init
#endif
	call kmain
4:	cli
	hlt
	jmp 4b

	.bss
	.align 4096
	.global boot_pml4
boot_pml4:	.skip 4096
boot_pdpt_low:	.skip 4096
boot_pdpt_high:	.skip 4096
boot_pd:	.skip 4096
	.global boot_stack_bottom
boot_stack_bottom:
	.skip 16384
	.global boot_stack_top
boot_stack_top:
