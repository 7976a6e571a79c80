/*
 * Frame-pointer backtraces. The kernel is built with
 * -fno-omit-frame-pointer, so every frame starts with the caller's RBP and
 * the return address above it; the entry code sets RBP to 0 to end the
 * chain. A frame pointer that leaves the kernel's half of the address
 * space, or goes downward, ends the walk instead of faulting.
 */
#include "arch.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"

#define BACKTRACE_MAX_DEPTH	32
#define KERNEL_SPACE_START	0xffff800000000000ul

static void print_frame(uptr rip)
{
	uptr offset, size;
	const char *name = ksym_lookup(rip, &offset, &size);

	if (name)
		pr_emerg(" [<%016lx>] %s+%#lx/%#lx\n", rip, name, offset, size);
	else
		pr_emerg(" [<%016lx>] ?\n", rip);
}

void arch_dump_backtrace(uptr rbp, uptr rip)
{
	int depth;

	print_frame(rip);
	for (depth = 0; depth < BACKTRACE_MAX_DEPTH; depth++) {
		uptr next, ret;

		if (rbp < KERNEL_SPACE_START || (rbp & 7))
			return;
		next = ((uptr *)rbp)[0];
		ret = ((uptr *)rbp)[1];
		if (!ret)
			return;
		/* Return addresses point after the call; step back into it
		 * so the line names the calling function. */
		print_frame(ret - 1);
		if (next <= rbp)
			return;
		rbp = next;
	}
}

void arch_dump_stack(void)
{
	uptr rbp;

	asm volatile("movq %%rbp, %0" : "=r"(rbp));
	arch_dump_backtrace(rbp, (uptr)arch_dump_stack);
}
