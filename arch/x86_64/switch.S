/*
 * arch_context_switch(uptr *save_sp, uptr load_sp): the one place a CPU
 * changes threads. It saves the callee-saved registers on the old stack,
 * stores the stack pointer in *save_sp, loads load_sp and pops the new
 * thread's registers; `ret` then resumes wherever that thread last called
 * arch_context_switch(), or, for a new thread, at arch_thread_start.
 * Caller-saved registers need no saving: the C caller assumes them lost.
 */
	.text
	.global arch_context_switch
arch_context_switch:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret

/* A new thread's first `ret` lands here, with its entry in %r12 and its
 * thread pointer in %r13 (set up by arch_thread_stack_init). */
	.global arch_thread_start
arch_thread_start:
	movq %r13, %rdi
	xorl %ebp, %ebp		/* ends the backtrace */
	callq *%r12
	ud2
