/*
 * Grace-period sequence numbers, as both engines count them (engine.h)
 * and SRCU counts its own.
 */
#ifndef KERNEL_RCU_SEQ_H
#define KERNEL_RCU_SEQ_H

#include "lib/types.h"

/* Grace-period sequence numbers: the low bit is set while a grace period
 * is in progress, so gp n runs from 2n-1 to 2n. Wrap-safe comparison. */
static inline bool rcu_seq_done(unsigned long now, unsigned long target)
{
	return (long)(now - target) >= 0;
}

/* The number of the grace period running at `seq`, or of the last one
 * ended: grace period n runs from 2n-1 to 2n. For messages and traces. */
static inline unsigned long rcu_gp_number(unsigned long seq)
{
	return (seq + 1) >> 1;
}

/* The value of gp_seq at which a full grace period begun after `now`
 * will have ended: the next one if none is running, else the one after
 * the current. */
static inline unsigned long rcu_seq_snap(unsigned long now)
{
	return (now + 3) & ~1ul;
}

#endif
