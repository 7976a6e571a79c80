/*
 * kmain(): the boot sequence, in order. The entry code (boot/entry.S) has
 * put us in 64-bit mode on the boot stack with the boot page tables.
 */
#include "bootinfo.h"
#include "cmdline.h"
#include "entry.h"
#include "init.h"
#include "panic.h"
#include "percpu.h"
#include "percpu_array.h"
#include "printk.h"
#include "race.h"
#include "time.h"
#include "arch.h"
#include "kernel/fs/dcache.h"
#include "kernel/mm/early_alloc.h"
#include "kernel/mm/kasan.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/rcu/hooks.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/srcu.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/smp_call.h"
#include "kernel/sched/spinlock.h"
#include "kernel/sched/tick.h"
#include "kernel/sched/timer.h"
#include "kernel/shell/shell.h"
#include "kernel/trace/trace.h"
#include "lib/atomic.h"

#define EXIT_STATUS_PASS	0
#define EXIT_STATUS_FAIL	1

extern const char __kernel_phys_end[];
extern const struct late_work __start_late_work[], __stop_late_work[];

static struct kstack init_stack;

bool run_late_work(void)
{
	const struct late_work *w;
	bool passed = true;

	for (w = __start_late_work; w < __stop_late_work; w++)
		passed &= w->fn();
	return passed;
}

/* Everything after the boot stack: the APs, the self-tests, the shell. */
static __noreturn void kernel_init(void)
{
	unsigned int started;
	bool passed;

	sched_init();
	sched_start_boot_cpu();
	tick_start_cpu();
	WRITE_ONCE(this_cpu()->online, 1);
	nr_cpus_online = 1;
	arch_irq_enable();
	started = arch_smp_boot();
	/* An AP that has checked in still has to reach the online set
	 * (secondary_cpu_main()); the host may not run it for a while. RCU
	 * and the per-CPU threads that follow are set up for the CPUs
	 * online, so wait for each one that started. */
	while (READ_ONCE(nr_cpus_online) < started)
		sleep_ms(1);
	pr_info("smp: %u of %u CPUs online\n", READ_ONCE(nr_cpus_online),
		nr_cpus);
	trace_init();		/* a ring for every CPU found */
	rcu_init();
	rcu_start_kthreads();
	srcu_start_kthread();
	dcache_init();

	/* crash=, the self-tests, the benchmarks (kernel/init.h). */
	passed = run_late_work();
	if (exit_when_done)
		arch_exit_emulator(passed ? EXIT_STATUS_PASS : EXIT_STATUS_FAIL);
	if (shell_enabled)
		shell_run();
	for (;;)
		sleep_ms(1000);
}

__init void kmain(u64 boot_magic, u64 boot_info_phys)
{
	arch_early_init(boot_magic, boot_info_phys);
	/* The boot CPU runs from here on: before it can idle or read. */
	rcu_cpu_starting();
	pr_info("Quiesce: an SMP kernel built around RCU\n");
	cmdline_parse(boot_info.cmdline);
	pr_info("cmdline: '%s'\n", cmdline_raw());
	race_windows_init();
	spinlock_choose_mode();
	rcu_choose_engine();
	early_alloc_init((u64)__kernel_phys_end);
	arch_memory_init();
	page_alloc_init();
	kasan_init();
	kmalloc_init();
	arch_cpu_init();
	/* nr_cpus is final (the MADT): the per-CPU arrays for that many,
	 * before anything touches another CPU's element. */
	percpu_arrays_alloc();
	rcu_setup();
	timer_init_cpus();
	if (kstack_alloc(&init_stack, "init") < 0)
		panic("no memory for the init stack");
	arch_call_on_stack(init_stack.top, kernel_init);
}

/* Each AP, at boot and whenever it comes back online (cpu_up()). */
__noreturn void secondary_cpu_main(void)
{
	/* Out of the extended quiescent state it parked in, if it did,
	 * before its first tick can run RCU's tick work. */
	rcu_cpu_starting();
	timer_cpu_online(this_cpu_id());
	tick_start_cpu();
	smp_call_set_online(this_cpu_id(), true);
	pr_info("online\n");
	sched_start_ap();
}
