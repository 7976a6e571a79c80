/*
 * Exceptions and interrupt dispatch.
 *
 * An exception in the kernel is always a bug: it becomes a panic report
 * with the vector, the error code, CR2 for a page fault, every register
 * and a backtrace. Interrupts go to the handler registered for their
 * vector; on the way out, an interrupt that arrived in preemptible code
 * while a reschedule is pending switches threads (kernel preemption).
 */
#include "cpu.h"
#include "gdt.h"
#include "lapic.h"
#include "nmi.h"
#include "paging.h"
#include "trap.h"
#include "kernel/entry.h"
#include "kernel/mm/kstack.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"

/* How far RSP may be from a guard-page fault for it to be an overflow:
 * a frame of up to two pages allocated at once. */
#define OVERFLOW_REACH	(2 * ARCH_PAGE_SIZE)

#define VECTOR_PAGE_FAULT	14
#define VECTOR_DOUBLE_FAULT	8
#define VECTOR_NMI		2

#define PF_PRESENT	(1u << 0)
#define PF_WRITE	(1u << 1)
#define PF_USER		(1u << 2)
#define PF_RESERVED	(1u << 3)
#define PF_FETCH	(1u << 4)

static irq_handler_t irq_handlers[256];

static const char *const exception_names[32] = {
	[0] = "#DE divide error",
	[1] = "#DB debug",
	[2] = "NMI",
	[3] = "#BP breakpoint",
	[4] = "#OF overflow",
	[5] = "#BR bound range",
	[6] = "#UD invalid opcode",
	[7] = "#NM device not available",
	[8] = "#DF double fault",
	[10] = "#TS invalid TSS",
	[11] = "#NP segment not present",
	[12] = "#SS stack fault",
	[13] = "#GP general protection",
	[14] = "#PF page fault",
	[16] = "#MF x87 floating point",
	[17] = "#AC alignment check",
	[18] = "#MC machine check",
	[19] = "#XM SIMD floating point",
	[20] = "#VE virtualization",
	[21] = "#CP control protection",
};

const char *trap_vector_name(unsigned int vector)
{
	if (vector < 32 && exception_names[vector])
		return exception_names[vector];
	if (vector < 32)
		return "reserved exception";
	return "interrupt";
}

void irq_register(unsigned int vector, irq_handler_t handler)
{
	irq_handlers[vector] = handler;
}

static void print_registers(const struct trap_frame *f)
{
	pr_emerg("RIP: %016llx  RSP: %016llx  RFLAGS: %08llx\n",
		 f->rip, f->rsp, f->rflags);
	pr_emerg("RAX: %016llx  RBX: %016llx  RCX: %016llx\n",
		 f->rax, f->rbx, f->rcx);
	pr_emerg("RDX: %016llx  RSI: %016llx  RDI: %016llx\n",
		 f->rdx, f->rsi, f->rdi);
	pr_emerg("RBP: %016llx  R8:  %016llx  R9:  %016llx\n",
		 f->rbp, f->r8, f->r9);
	pr_emerg("R10: %016llx  R11: %016llx  R12: %016llx\n",
		 f->r10, f->r11, f->r12);
	pr_emerg("R13: %016llx  R14: %016llx  R15: %016llx\n",
		 f->r13, f->r14, f->r15);
	pr_emerg("CS: %04llx  SS: %04llx  CR0: %016llx  CR3: %016llx  "
		 "CR4: %016llx\n", f->cs, f->ss, read_cr0(), read_cr3(),
		 read_cr4());
}

static void describe_page_fault(const struct trap_frame *f, u64 cr2)
{
	pr_emerg("CR2: %016llx (%s %s, %s mode%s%s)\n", cr2,
		 f->error & PF_FETCH ? "instruction fetch from" :
		 f->error & PF_WRITE ? "write to" : "read from",
		 f->error & PF_PRESENT ? "a protected page" : "an unmapped page",
		 f->error & PF_USER ? "user" : "kernel",
		 f->error & PF_RESERVED ? ", reserved bit set" : "",
		 cr2 < ARCH_PAGE_SIZE ? ", NULL pointer dereference" : "");
}

/* A fault on a guard page means a stack overflowed; on a double fault,
 * CR2 still holds the address of the page fault that could not be
 * delivered because the stack was gone. */
/*
 * A fault in a stack's guard page is an overflow only if the stack
 * pointer was there too: a stack grows into its guard a push or a frame
 * at a time. A read through a wild pointer that happens to land in some
 * guard page is not one, and is named for what it is.
 */
static void check_stack_overflow(u64 cr2, u64 rsp)
{
	const char *owner = kstack_guard_owner(cr2);

	if (!owner)
		return;
	if (rsp + OVERFLOW_REACH >= cr2 && rsp <= cr2 + OVERFLOW_REACH)
		pr_emerg("kernel stack overflow: %016llx is in the guard page "
			 "below the stack of %s\n", cr2, owner);
	else
		pr_emerg("wild access: %016llx is in the guard page below the "
			 "stack of %s, but RSP %016llx is nowhere near it: not "
			 "an overflow\n", cr2, owner, rsp);
}

/* The full report for a fatal trap, then the generic panic ending. */
__noreturn void trap_panic(struct trap_frame *f, const char *why)
{
	u64 cr2 = read_cr2();

	if (!panic_begin())
		arch_halt_forever();
	pr_emerg("Kernel panic - not syncing: %s: vector %llu (%s), "
		 "error code %#llx, on cpu%u\n", why ? why : "fatal exception",
		 f->vector, trap_vector_name(f->vector), f->error,
		 this_cpu_id());
	if (f->vector == VECTOR_PAGE_FAULT)
		describe_page_fault(f, cr2);
	if (f->vector == VECTOR_DOUBLE_FAULT)
		pr_emerg("CR2: %016llx (the last page fault)\n", cr2);
	if (f->vector == VECTOR_PAGE_FAULT || f->vector == VECTOR_DOUBLE_FAULT)
		check_stack_overflow(cr2, f->rsp);
	print_registers(f);
	pr_emerg("Call Trace:\n");
	arch_dump_backtrace(f->rbp, f->rip);
	panic_end();
}

static void handle_irq(struct trap_frame *f)
{
	irq_handler_t handler = irq_handlers[f->vector];

	irq_enter();
	if (handler)
		handler(f);
	else if (f->vector != VECTOR_SPURIOUS)
		pr_warn("unexpected interrupt vector %llu on cpu%u; ignored\n",
			f->vector, this_cpu_id());
	if (f->vector != VECTOR_SPURIOUS)
		lapic_eoi();
	irq_exit(f->rflags & RFLAGS_IF);
}

/*
 * A write to KASAN's shadow that faulted on a translation this CPU kept
 * from before another CPU gave that shadow a page of its own (a new
 * thread's stack): the read-only shared page, or a table since replaced.
 * Making an entry writable needs no TLB flush on other CPUs, because the
 * fault itself drops the stale translation (Intel SDM 4.10.4.3); the
 * write is then simply retried.
 */
static bool spurious_shadow_fault(const struct trap_frame *f)
{
	u64 cr2 = read_cr2();

	return KERNEL_KASAN && f->vector == VECTOR_PAGE_FAULT &&
	       (f->error & PF_WRITE) &&
	       cr2 >= ARCH_KASAN_SHADOW_START && cr2 < ARCH_KASAN_SHADOW_END &&
	       paging_address_writable(cr2);
}

void trap_dispatch(struct trap_frame *f)
{
	if (f->vector == VECTOR_NMI) {
		nmi_handle(f);
		return;
	}
	if (spurious_shadow_fault(f))
		return;
	if (f->vector < 32)
		trap_panic(f, NULL);
	handle_irq(f);
}
