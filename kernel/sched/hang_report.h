/* The hang report (hang_report.c); arch/ reaches it through entry.h. */
#ifndef KERNEL_SCHED_HANG_REPORT_H
#define KERNEL_SCHED_HANG_REPORT_H

#include "lib/types.h"

/* NMIs that asked for a report since boot, counted on each CPU before
 * its NMI returns: an NMI is a wake-up too, and a test that waits for a
 * lost one can tell that such an NMI ended its wait. */
u64 hang_report_nmis(void);
/* Print the hang report now: for a watchdog of the kernel's own. */
void hang_report_request(void);
/* The report's verdict on a CPU's first timer: nothing will run it. */
bool hang_timer_lost(bool halted, u64 expires_ns, u64 event_ns, u64 now);

#endif
