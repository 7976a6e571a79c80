/* What srcu.c and srcu_callbacks.c share. */
#ifndef KERNEL_RCU_SRCU_INTERNAL_H
#define KERNEL_RCU_SRCU_INTERNAL_H

#include "srcu.h"

/* Whether the grace period a cookie names has ended (acquire). */
bool srcu_gp_done(struct srcu_struct *ssp, unsigned long cookie);
/* Run grace periods of the domain until the cookie's has ended. */
void srcu_wait_for(struct srcu_struct *ssp, unsigned long cookie,
		   bool expedited);
/* Ask the srcu_gp thread for the grace period a cookie names. */
void srcu_request_gp(struct srcu_struct *ssp, unsigned long cookie);
/* Take a domain off the srcu_gp thread's list, and wait until the thread
 * is done with it: cleanup_srcu_struct(). */
void srcu_forget(struct srcu_struct *ssp);

#endif
