/*
 * The generic kernel's entry points for the arch code: where boot goes
 * once the arch set-up is done, and what every interrupt, timer tick and
 * console byte calls. arch/ calls these and nothing else of the kernel's
 * subsystems, so a port implements arch.h and calls entry.h.
 */
#ifndef KERNEL_ENTRY_H
#define KERNEL_ENTRY_H

#include "lib/compiler.h"
#include "lib/types.h"

__noreturn void kmain(u64 boot_magic, u64 boot_info_phys);
/* Where each AP goes once its arch set-up is done. */
__noreturn void secondary_cpu_main(void);

/* Around every hardware interrupt's handler (kernel/irq.c): irq_enter()
 * first, irq_exit() last, with interrupts still off. irq_exit() may
 * switch threads (kernel preemption) if the interrupted code had
 * interrupts on, which the caller says. */
void irq_enter(void);
void irq_exit(bool interrupted_irqs_on);

/* Every timer interrupt on every CPU (kernel/sched/tick.c). */
void tick_interrupt(void);
/* From the console's interrupt handler, when input has arrived. */
void console_input_arrived(void);

/* An NMI of no known reason, at ip: the outside (QEMU's monitor, at a
 * boot's timeout) asks what the kernel waits on (kernel/sched/
 * hang_report.c). From NMI context, on every CPU the NMI reached. */
void hang_report_nmi(uptr ip);

#endif
