/* Running a function on other CPUs, through an IPI, and waiting for it. */
#ifndef KERNEL_SMP_CALL_H
#define KERNEL_SMP_CALL_H

#include "lib/types.h"

typedef void (*smp_call_fn)(void *arg);

/* Run fn(arg) on every online CPU (this one too) and return when all have
 * finished. Sleeps while another call is in progress, so it must be
 * called from a thread that may sleep, with interrupts enabled: a CPU
 * waiting with them off could not answer another CPU's call. */
void smp_call_function_all(smp_call_fn fn, void *arg);

/* Mark a CPU online or offline (CPU hotplug), never during a call. */
void smp_call_set_online(unsigned int cpu, bool online);

/* Called from the IPI handler. */
void smp_call_function_interrupt(void);

#endif
