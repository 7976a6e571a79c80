/*
 * The kernel's inter-processor interrupts. The arch code offers a few
 * numbered IPIs and knows nothing of what they are for; each subsystem
 * registers the handler of its own at boot with arch_set_ipi_handler().
 */
#ifndef KERNEL_IPI_H
#define KERNEL_IPI_H

#include "arch.h"

enum kernel_ipi {
	IPI_RESCHEDULE,		/* sched: look at your run queue */
	IPI_CALL_FUNCTION,	/* sched/smp_call.c: run a function */
	IPI_RCU_EXPEDITE,	/* rcu/exp.c: report a quiescent state */
	NR_KERNEL_IPIS,
};

static_assert(NR_KERNEL_IPIS <= ARCH_NR_IPIS, "more IPIs than the arch offers");

#endif
