/* Boot entry points shared between the generic kernel and the arch code. */
#ifndef KERNEL_MAIN_H
#define KERNEL_MAIN_H

#include "lib/types.h"
#include "lib/compiler.h"

__noreturn void kmain(u64 boot_magic, u64 boot_info_phys);
/* Where each AP goes once its arch set-up is done. */
__noreturn void secondary_cpu_main(void);
/* Called by the arch code on every timer interrupt. */
void timer_tick(void);
/* Called by the arch code, from its interrupt handler, when console
 * input has arrived. */
void console_input_arrived(void);

#endif
