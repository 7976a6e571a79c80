/*
 * panic(): the one way the kernel stops on a fatal error. The first CPU
 * to panic stops the others with an NMI (so they cannot keep changing
 * state or hold the console), prints its report with the console lock
 * forced if need be, and either leaves QEMU (exit=1, for the test
 * harness) or halts where a person can read the report.
 */
#include "panic.h"
#include "cmdline.h"
#include "percpu.h"
#include "printk.h"
#include "arch.h"
#include "lib/atomic.h"
#include "lib/format.h"

#define EXIT_STATUS_PANIC	2

bool exit_when_done;
CMDLINE_BOOL("exit", exit_when_done,
	     "1 = leave QEMU after the self-tests, their result as status");

static int panicking = -1;

bool panic_begin(void)
{
	int me = percpu_areas[0].self ? (int)this_cpu_id() : 0;

	arch_irq_disable();
	/* The first CPU to claim panicking reports; the claim is a locked
	 * instruction, so two CPUs can never both see -1. */
	if (cmpxchg(&panicking, -1, me) != -1)
		return false;	/* another CPU reports, or a fault inside our report */
	console_enter_panic_mode();
	arch_stop_other_cpus();
	return true;
}

__noreturn void panic_end(void)
{
	pr_emerg("---[ end Kernel panic ]---\n");
	if (exit_when_done)
		arch_exit_emulator(EXIT_STATUS_PANIC);
	arch_halt_forever();
}

void panic(const char *fmt, ...)
{
	va_list ap;
	char msg[256];

	if (!panic_begin())
		arch_halt_forever();
	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_emerg("Kernel panic - not syncing: %s (cpu%u)\n", msg,
		 percpu_areas[0].self ? this_cpu_id() : 0);
	pr_emerg("Call Trace:\n");
	arch_dump_stack();
	panic_end();
}
