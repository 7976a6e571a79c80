/*
 * Interrupt and exception entry. One small stub per vector pushes a zero
 * where the CPU pushes no error code, then the vector number, and joins
 * the common path, which saves every general register into a
 * struct trap_frame (trap.h) and calls trap_dispatch(frame).
 */
	.text

/* Vectors for which the CPU pushes an error code. */
#define HAS_ERROR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || \
		      (v) == 21 || (v) == 29 || (v) == 30)

	.macro isr_stub v
	.align 16
isr_stub_\v:
	.if !HAS_ERROR(\v)
	pushq $0
	.endif
	pushq $\v
	jmp isr_common
	.endm

	.altmacro
	.set vec, 0
	.rept 256
	isr_stub %vec
	.set vec, vec + 1
	.endr

isr_common:
	pushq %rax
	pushq %rbx
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %rbp
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	cld
	movq %rsp, %rdi
	call trap_dispatch
	.global trap_return
trap_return:
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rbp
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rbx
	popq %rax
	addq $16, %rsp		/* vector and error code */
	iretq

	.section .rodata
	.align 8
	.global isr_stub_table
	.macro stub_address v
	.quad isr_stub_\v
	.endm
isr_stub_table:
	.set vec, 0
	.rept 256
	stub_address %vec
	.set vec, vec + 1
	.endr
