/*
 * The exact grace-period oracle: a check, made when a grace period is
 * over, that no read-side section that began before the grace period was
 * asked for is still running.
 *
 * Readers register each outermost section (oracle_reader_begin/end), in
 * threads and in interrupt handlers; an updater takes a stamp just before
 * it asks for a grace period (oracle_stamp) and, once the grace period is
 * over (its callback runs, synchronize_rcu() returns, a polled cookie
 * reads as complete), calls oracle_check(stamp, ...). Unlike the pipe
 * counts, which look only at what a reader holds when its section ends,
 * every wait is checked against every live reader.
 */
#ifndef KERNEL_RCU_TORTURE_ORACLE_H
#define KERNEL_RCU_TORTURE_ORACLE_H

#include "lib/types.h"

/* Inside the read lock, nesting counted; in reader thread number
 * `reader` (each has a slot), or with ORACLE_IRQ in an interrupt handler
 * (each CPU has a slot for those). */
#define ORACLE_MAX_READERS	256
#define ORACLE_IRQ		(~0u)
void oracle_reader_begin(unsigned int reader);
void oracle_reader_end(unsigned int reader);

/* Just before asking for a grace period; the value to check against. */
unsigned long oracle_stamp(void);

/*
 * Once the grace period asked for after oracle_stamp() is over: false,
 * after an error line naming the CPU, the section's start and what, if a
 * section that began before the stamp is still running.
 */
bool oracle_check(unsigned long stamp, const char *what);

/* Checks made and violations found since oracle_reset(). */
struct oracle_counts {
	unsigned long checks;
	unsigned long violations;
};
void oracle_reset(void);
void oracle_get_counts(struct oracle_counts *out);

#endif
