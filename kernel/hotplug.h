/*
 * CPU hotplug: any CPU but the boot CPU can go offline and come back while
 * the kernel runs. An outgoing CPU moves its threads and timers away,
 * reports its last quiescent state to RCU and parks for good; a surviving
 * CPU takes its RCU callbacks. An incoming CPU starts through the boot
 * trampoline again, into its own idle thread. One change at a time.
 */
#ifndef KERNEL_HOTPLUG_H
#define KERNEL_HOTPLUG_H

#include "lib/compiler.h"
#include "lib/types.h"

/* Thread context, may sleep. 0, or -EINVAL for the boot CPU, -ENODEV for
 * a CPU that does not exist, -EBUSY for one already in that state, -EIO
 * for a CPU that did not start. */
int cpu_down(unsigned int cpu);
int cpu_up(unsigned int cpu);

/* The outgoing CPU's last steps, from its idle thread, interrupts off. */
__noreturn void cpu_die_here(void);

/* Whether cpu has parked and not been started again: diagnostics, a
 * lock-free snapshot. */
bool cpu_is_parked(unsigned int cpu);

struct hotplug_stats {
	u64 downs, ups;			/* changes made */
	u64 last_down_ns, last_up_ns;	/* how long the last of each took */
};
void hotplug_get_stats(struct hotplug_stats *out);

#endif
