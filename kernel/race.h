/*
 * Race windows: places on update paths where a concurrent reader or
 * updater can slip in, marked so that the debug build can hold them open.
 *
 * race_window(RACE_X) costs one predictable branch while the windows are
 * closed (the default), and nothing at all in the non-debug build. With
 * race.windows=all (or a comma list of the names below) each marked spot
 * now and then spins for a few microseconds, or, where the caller may
 * sleep, yields the CPU, so that an interleaving that a correct kernel
 * survives by a margin of nanoseconds happens many times a second; where
 * the caller may sleep, a window sometimes lasts a tick, long enough for
 * a grace period to end inside it. The
 * torture and the dcache suite run with them in make test.
 *
 * A test may instead arm one window to run an action of its own there,
 * once (race_window_arm()): a race that random windows only make likely
 * then happens on every run, at every CPU count and however busy the
 * host.
 */
#ifndef KERNEL_RACE_H
#define KERNEL_RACE_H

#include "lib/compiler.h"
#include "lib/types.h"

enum race_window {
	RACE_QS_REPORT,		/* rcu: between noticing a quiescent state
				 * (or an idle CPU) and reporting it */
	RACE_CB_ADVANCE,	/* rcu: between reading gp_seq and advancing
				 * the callback segments with it */
	RACE_GP_START,		/* rcu: a grace period begun in some nodes of
				 * the tree and not yet in the others */
	RACE_GP_REQUEST,	/* rcu: a grace-period request between its
				 * lock-free check of gp_seq_needed and its
				 * check under the lock */
	RACE_GP_REQUEST_WAKE,	/* rcu: a grace-period request stored, the GP
				 * thread not yet woken */
	RACE_EXP_SCAN,		/* rcu: the expedited scan, between reading a
				 * CPU's idle counter and acting on it */
	RACE_BARRIER_CALL,	/* rcu: rcu_barrier(), before it asks every
				 * online CPU to queue its callback */
	RACE_KFREE_FLUSH,	/* rcu: kfree_rcu()'s flush, between taking a
				 * CPU's open block and clearing its slot */
	RACE_SRCU_LOCK,		/* srcu: a reader between reading the bank
				 * and counting itself in it */
	RACE_PREEMPT_DEQUEUE,	/* preemptible rcu: a reader leaving its
				 * leaf's list, between each two steps
				 * (unlinked, reported, unboosted) */
	/* The dcache's free path, d_kill(): one window between each two
	 * steps, so that a bug that puts any step out of order (queueing
	 * an entry before it is unhashed, say) leaves a window between the
	 * two, wherever its author put the step. */
	RACE_DCACHE_KILL,	/* dcache: children gone, still hashed */
	RACE_DCACHE_UNHASH,	/* dcache: an entry marked dead, still hashed */
	RACE_DCACHE_UNLINKED,	/* dcache: off its chain, its seq still odd */
	RACE_DCACHE_UNHASHED,	/* dcache: unhashed, still on its parent's
				 * children list and the LRU */
	RACE_DCACHE_FREE,	/* dcache: unhashed, before call_rcu() */
	RACE_DCACHE_QUEUED,	/* dcache: queued; its grace period may end
				 * here */
	/* Rename, d_move(): the same between its steps. */
	RACE_DCACHE_RENAME,	/* dcache: a moving entry off every chain */
	RACE_DCACHE_RENAMED,	/* dcache: new name and parent set, old name
				 * not yet queued for freeing */
	RACE_DCACHE_NAME_QUEUED, /* dcache: old name queued, the entry not
				  * yet on its new chain */
	RACE_DCACHE_REHASHED,	/* dcache: on its new chain, its seq and
				 * rename_seq still odd */
	RACE_DCACHE_WALK,	/* dcache: a lock-free walk standing on an
				 * entry, between two hops */
	RACE_DCACHE_CHAIN,	/* dcache: a lock-free lookup standing on
				 * an entry of a chain, before its next */
	RACE_DCACHE_NAME,	/* dcache: a lock-free walk holding an
				 * entry's name, between loading it and
				 * comparing it */
	RACE_RCULIST,		/* lib/rculist.h: a list helper between the
				 * store that publishes or unlinks an entry
				 * and its remaining stores */
	NR_RACE_WINDOWS,
};

/* Whether race.windows= opened any window (fixed at boot). */
extern bool race_windows_open;
/* race_window()'s one switch: windows open, or an action armed. */
extern bool race_windows_active;

void race_window_hold(enum race_window w);
/* Reads race.windows=; boot, right after the command line. */
void race_windows_init(void);

static __always_inline void race_window(enum race_window w)
{
	/* Pairs with the WRITE_ONCE()s of race_window_arm() and
	 * race_window_disarm(); no order is needed, since only the thread
	 * that armed the action runs it (race.c). */
	if (KERNEL_DEBUG && unlikely(READ_ONCE(race_windows_active)))
		race_window_hold(w);
}

/**
 * race_window_arm - run an action once at a window, for a test
 * @w: the window
 * @nth: run it on the calling thread's nth pass through @w (from 1)
 * @fn: the action, called with @arg in place of holding the window
 * @arg: passed to @fn
 *
 * Debug build, tests only: it puts a change exactly between two steps
 * of the code under test (a lock-free walk between two hops, say), where
 * a random window would put it only now and then. Only the calling
 * thread's passes count and run @fn, so other threads passing @w are not
 * disturbed. @fn runs inside whatever the code holds at @w (a read-side
 * section, a lock), so it must not sleep. One action at a time; the
 * caller disarms it with race_window_disarm() before returning.
 *
 * Context: thread context.
 * Return: true if armed; false, with one line saying why, in the
 * non-debug build (its windows are compiled out) or if an action is
 * armed already.
 */
bool race_window_arm(enum race_window w, unsigned int nth,
		     void (*fn)(void *arg), void *arg);

/**
 * race_window_disarm - drop the action race_window_arm() armed
 *
 * Context: the thread that armed it.
 * Return: whether the action ran (a test whose action never ran tested
 * nothing).
 */
bool race_window_disarm(void);

/* How often each window was held open since boot, for reports. */
unsigned long race_window_count(enum race_window w);
const char *race_window_name(enum race_window w);

#endif
