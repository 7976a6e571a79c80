/* NMIs: stopping CPUs for a panic, and backtraces on request. */
#ifndef ARCH_NMI_H
#define ARCH_NMI_H

#include "trap.h"

void nmi_handle(struct trap_frame *frame);
void nmi_request_stop(unsigned int cpu);
void nmi_request_backtrace(unsigned int cpu);
void nmi_request_wake(unsigned int cpu);

#endif
