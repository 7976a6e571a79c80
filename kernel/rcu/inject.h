/*
 * rcu.inject=: plant a realistic RCU bug (debug build only), so that the
 * torture test and the model check can show they catch it.
 */
#ifndef KERNEL_RCU_INJECT_H
#define KERNEL_RCU_INJECT_H

#include "lib/types.h"

enum rcu_injected_bug {
	RCU_BUG_NONE,
	RCU_BUG_FORGET_CPU,	/* a grace period leaves out the last CPU */
	RCU_BUG_EARLY_ADVANCE,	/* callbacks tagged one grace period early */
	RCU_BUG_IDLE_BARRIER,	/* no full barrier on idle exit */
	RCU_BUG_NO_NUDGE,	/* holdouts are never sent the nudge IPI */
	RCU_BUG_DROP_OFFLINE_CBS, /* an offline CPU's callbacks are dropped */
	RCU_BUG_OFFLINE_IN_MASKS, /* an offline CPU stays in the tree */
};

extern enum rcu_injected_bug rcu_injected;

static inline bool rcu_bug(enum rcu_injected_bug b)
{
	return KERNEL_DEBUG && rcu_injected == b;
}

void rcu_inject_init(void);

#endif
