/*
 * Frame-pointer backtraces. The kernel is built with
 * -fno-omit-frame-pointer, so every frame starts with the caller's RBP and
 * the return address above it; the entry code sets RBP to 0 to end the
 * chain.
 *
 * A backtrace is printed when something has already gone wrong (a panic,
 * a stall, an NMI), so the frame chain may be garbage: the walk must end,
 * never fault. It first finds the stack the starting frame is on (a
 * thread's guarded stack, one of this CPU's IST stacks, or the boot
 * stack), and follows a frame pointer only while the whole frame lies on
 * that stack, above the previous one. Every read is then of mapped
 * memory, whatever the stack holds.
 */
#include "arch.h"
#include "gdt.h"
#include "kernel/ksyms.h"
#include "kernel/mm/kstack.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"

#define BACKTRACE_MAX_DEPTH	32
#define FRAME_SIZE		(2 * sizeof(uptr))

extern const u8 boot_stack_bottom[], boot_stack_top[];

static void print_frame(uptr rip)
{
	uptr offset, size;
	const char *name = ksym_lookup(rip, &offset, &size);

	if (name)
		pr_emerg(" [<%016lx>] %s+%#lx/%#lx\n", rip, name, offset, size);
	else
		pr_emerg(" [<%016lx>] ?\n", rip);
}

/* The stack that holds addr, as [*lo, *hi); false if none we know. */
static bool stack_bounds(uptr addr, uptr *lo, uptr *hi)
{
	if (kstack_bounds(addr, lo, hi))
		return true;
	if (gdt_ist_bounds(this_cpu_id(), addr, lo, hi))
		return true;
	if (addr >= (uptr)boot_stack_bottom && addr < (uptr)boot_stack_top) {
		*lo = (uptr)boot_stack_bottom;
		*hi = (uptr)boot_stack_top;
		return true;
	}
	return false;
}

/*
 * Follow the frame-pointer chain from rbp, calling visit() with each
 * return address until it returns false. Where the chain leaves its
 * stack, the walk stops; with say_why, it prints why.
 */
static void walk_frames(uptr rbp, bool (*visit)(uptr ret, void *ctx),
			void *ctx, bool say_why)
{
	uptr lo, hi;
	int depth = 0;

	if (!rbp)
		return;
	if (!stack_bounds(rbp, &lo, &hi)) {
		if (say_why)
			pr_emerg(" (frame pointer %016lx is on no known stack; "
				 "stopped)\n", rbp);
		return;
	}
	while (depth++ < BACKTRACE_MAX_DEPTH) {
		uptr next, ret;

		if ((rbp & 7) || rbp < lo || rbp + FRAME_SIZE > hi) {
			if (say_why)
				pr_emerg(" (frame pointer %016lx leaves its "
					 "stack [%016lx, %016lx); stopped)\n",
					 rbp, lo, hi);
			return;
		}
		next = ((uptr *)rbp)[0];
		ret = ((uptr *)rbp)[1];
		/* Return addresses point after the call; step back into it
		 * so the line names the calling function. */
		if (!ret || !visit(ret - 1, ctx) || !next)
			return;
		if (next <= rbp) {
			if (say_why)
				pr_emerg(" (frame pointer %016lx does not "
					 "climb; stopped)\n", next);
			return;
		}
		rbp = next;
	}
}

static bool print_and_count(uptr ip, void *ctx)
{
	print_frame(ip);
	++*(int *)ctx;
	return true;
}

int arch_dump_backtrace(uptr rbp, uptr rip)
{
	int depth = 1;

	print_frame(rip);
	walk_frames(rbp, print_and_count, &depth, true);
	return depth;
}

struct saved_trace {
	uptr *entries;
	unsigned int n, max, skip;
};

static bool save_entry(uptr ip, void *ctx)
{
	struct saved_trace *t = ctx;

	if (t->skip) {
		t->skip--;
		return true;
	}
	t->entries[t->n++] = ip;
	return t->n < t->max;
}

unsigned int arch_save_stack_trace(uptr *entries, unsigned int max,
				   unsigned int skip)
{
	struct saved_trace t = { entries, 0, max, skip };

	walk_frames((uptr)__builtin_frame_address(0), save_entry, &t, false);
	return t.n;
}

void arch_print_code_address(uptr ip)
{
	print_frame(ip);
}

/* A switched-out thread: arch_context_switch() left its callee-saved
 * registers on its stack, RBP sixth and the return address above it
 * (switch.S). The thread may be switched in while we read, so the frame
 * is checked like any other: at worst the lines are stale, never a
 * fault. */
int arch_dump_thread_backtrace(uptr saved_sp)
{
	uptr lo, hi;
	const uptr *frame = (const uptr *)saved_sp;

	if (!stack_bounds(saved_sp, &lo, &hi) || (saved_sp & 7) ||
	    saved_sp + 7 * sizeof(uptr) > hi) {
		pr_emerg(" (saved stack pointer %016lx is on no known stack)\n",
			 saved_sp);
		return 0;
	}
	return arch_dump_backtrace(frame[5], frame[6]);
}

void arch_dump_stack(void)
{
	uptr rbp;

	asm volatile("movq %%rbp, %0" : "=r"(rbp));
	arch_dump_backtrace(rbp, (uptr)arch_dump_stack);
}
