/*
 * Boot-only code, and the work kernel_init() runs once the kernel is up.
 *
 * __init marks a function that runs once, at boot: the linker gathers
 * such functions in their own range of .text (__init_text_start to
 * __init_text_end), so a reader sees at once what runs only at boot.
 *
 * LATE_WORK(order, fn) registers bool fn(void) to run after every
 * subsystem is up and before the shell: the crash tests, the self-tests
 * and the benchmarks, which live outside the core (kernel/test,
 * kernel/bench) and register themselves here, so the boot sequence names
 * none of them. They run in increasing order; each returns false if what
 * it ran failed, and with exit=1 the run's result leaves QEMU as the exit
 * status.
 */
#ifndef KERNEL_INIT_H
#define KERNEL_INIT_H

#include "lib/compiler.h"
#include "lib/types.h"

#define __init		__section(".init.text")

struct late_work {
	const char *name;
	bool (*fn)(void);
};

#define LATE_WORK(order, f)						\
	static const struct late_work __late_work_##f			\
	__used __section("late_work." #order) __aligned(8) = {		\
		.name = #f, .fn = f,					\
	}

#define LATE_WORK_CRASH		1	/* crash=: a deliberate fault */
#define LATE_WORK_SELFTEST	2	/* ktest=: the self-tests */
#define LATE_WORK_BENCH		3	/* bench=: the benchmarks */
#define LATE_WORK_TRACE		4	/* trace=: the event trace's dump */

/* Run every LATE_WORK in order; false if any failed. */
bool run_late_work(void);

#endif
