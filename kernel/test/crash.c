/* The crash= option and the basic fault kinds. */
#include "crash.h"
#include "arch.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/mm/kstack.h"
#include "lib/string.h"

extern const struct crash_kind __start_crash_kinds[];
extern const struct crash_kind __stop_crash_kinds[];

static char crash_request[32];
CMDLINE_STRING("crash", crash_request,
	       "deliberate fault after boot: pf, ud, ... (see crash.c)");

/* Not sanitized: the sanitizer would report the NULL write first, and
 * this must reach the CPU to test the page-fault report. */
__attribute__((no_sanitize("undefined"))) static void crash_page_fault(void)
{
	volatile int *null = NULL;

	*null = 1;
}
CRASH_KIND("pf", "write through a NULL pointer", crash_page_fault);

/* The compiler's own trap instruction: an invalid opcode on x86 (ud2),
 * without this file knowing which. */
static void crash_invalid_opcode(void)
{
	__builtin_trap();
}
CRASH_KIND("ud", "execute the compiler's trap instruction (an invalid opcode)",
	   crash_invalid_opcode);

/* A read of a guard page that is not an overflow: RSP is nowhere near. */
static void crash_wild_guard_read(void)
{
	uptr lo = 0, hi;
	u64 here = 0;

	if (!kstack_bounds((uptr)&here, &lo, &hi))
		pr_err("crash: this thread's stack is no kernel stack\n");
	here = *(volatile u64 *)(lo - ARCH_PAGE_SIZE / 2);
}
CRASH_KIND("wild_guard", "read a stack's guard page through a wild pointer",
	   crash_wild_guard_read);

/* Each frame keeps a buffer live, so the recursion really uses stack. */
static volatile int recursion_limit = 1 << 30;

static int __attribute__((noinline)) recurse_deeply(int depth)
{
	volatile char pad[256];

	pad[depth & 255] = (char)depth;
	if (depth >= recursion_limit)
		return pad[0];
	return recurse_deeply(depth + 1) + pad[depth & 255];
}

static void crash_stack_overflow(void)
{
	recurse_deeply(0);
}
CRASH_KIND("stack", "overflow the kernel stack into its guard page",
	   crash_stack_overflow);

/* crash=NAME, before the self-tests. Returns only if the kind did not
 * crash, or does not exist: the run has failed then. */
static bool crash_run_requested(void)
{
	const struct crash_kind *k;

	if (!crash_request[0])
		return true;
	for (k = __start_crash_kinds; k < __stop_crash_kinds; k++) {
		if (strcmp(k->name, crash_request) == 0) {
			pr_warn("crash: %s, as crash=%s asks\n", k->what,
				k->name);
			k->fn();
			if (k->warns)
				return true;
			pr_err("crash: crash=%s did not crash\n", k->name);
			return false;
		}
	}
	pr_err("crash: unknown kind '%s'; expected one of:\n", crash_request);
	for (k = __start_crash_kinds; k < __stop_crash_kinds; k++)
		pr_err("crash:   %s: %s\n", k->name, k->what);
	return false;
}
LATE_WORK(LATE_WORK_CRASH, crash_run_requested);
