/*
 * NMIs reach a CPU even with interrupts off, so they are how a panicking
 * CPU stops the others and how a stall warning asks a stuck CPU where it
 * is. The reason is a per-CPU flag set before the NMI is sent. An NMI
 * with no reason set comes from outside (QEMU's `nmi`, on LINT1): the
 * kernel's hang report.
 */
#include "nmi.h"
#include "smp.h"
#include "kernel/entry.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "lib/atomic.h"

enum nmi_reason { NMI_STOP = 1, NMI_BACKTRACE = 2, NMI_WAKE = 4 };

static DEFINE_PERCPU_ARRAY(u32, nmi_reasons);

void nmi_request_stop(unsigned int cpu)
{
	atomic_fetch_or(&nmi_reasons[cpu], NMI_STOP);
}

void nmi_request_backtrace(unsigned int cpu)
{
	atomic_fetch_or(&nmi_reasons[cpu], NMI_BACKTRACE);
}

/* An AP started and waiting with interrupts off for its turn to come
 * online (smp.c) wakes only from an NMI: this one does nothing else. */
void nmi_request_wake(unsigned int cpu)
{
	atomic_fetch_or(&nmi_reasons[cpu], NMI_WAKE);
}

void nmi_handle(struct trap_frame *f)
{
	unsigned int cpu;
	u32 reasons;

	/* From outside, early in boot: no CPU number to read yet, and no
	 * request of ours can be pending. */
	if (!arch_percpu_ready())
		return;
	cpu = this_cpu_id();
	/* The flag was set (a locked RMW) before the sender's ICR write;
	 * this exchange sees it. */
	reasons = xchg(&nmi_reasons[cpu], 0);

	if (reasons & NMI_BACKTRACE) {
		pr_emerg("NMI backtrace for cpu%u:\n", cpu);
		arch_dump_backtrace(f->rbp, f->rip);
	}
	if (reasons & NMI_WAKE)
		smp_release_nmi(f);
	if (reasons & NMI_STOP) {
		WRITE_ONCE(this_cpu()->online, 0);
		arch_halt_forever();
	}
	if (!reasons)
		hang_report_nmi(f->rip);
}
