/* Stopping the machine when something is fatally wrong. */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include "lib/compiler.h"

/* Formats the reason, prints a backtrace and ends as panic_end() does. */
__printf(1, 2) __noreturn void panic(const char *fmt, ...);

/* The two halves, for callers that print their own report (traps):
 * panic_begin() makes this CPU the only one reporting (false if another
 * CPU got there first), stops the others and frees the console;
 * panic_end() leaves QEMU with the panic status under exit=1, else halts. */
bool panic_begin(void);
__noreturn void panic_end(void);

/* Whether exit=1 was given: leave QEMU at the end rather than halt. */
extern bool exit_when_done;

#define BUG_ON(cond)							\
	do {								\
		if (unlikely(cond))					\
			panic("BUG: %s at %s:%d", #cond, __FILE__,	\
			      __LINE__);				\
	} while (0)

#endif
