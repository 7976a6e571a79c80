/*
 * A race window between the steps of an RCU list helper (lib/rculist.h,
 * lib/rculist_nulls.h): right after each store that publishes an entry
 * or unlinks one, before the helper's remaining stores. A helper whose
 * steps are in the wrong order (an entry reachable before its links are
 * written, say) then leaves it that way long enough for a concurrent
 * reader to see it. The user of lib/ defines the two symbols: the kernel
 * holds its debug build's RACE_RCULIST window open there
 * (race.windows=), the host tests do nothing. Closed, a window costs one
 * load and a branch not taken; the kernel's non-debug build, which has
 * no windows, compiles it away.
 */
#ifndef LIB_RCULIST_WINDOW_H
#define LIB_RCULIST_WINDOW_H

#include "compiler.h"
#include "types.h"

/* Set once at boot, before any helper runs; never changes after. */
extern bool rcu_list_windows_open;
void rcu_list_window_hold(void);

static __always_inline void rcu_list_window(void)
{
#if !defined(KERNEL_DEBUG) || KERNEL_DEBUG
	if (unlikely(rcu_list_windows_open))
		rcu_list_window_hold();
#endif
}

#endif
