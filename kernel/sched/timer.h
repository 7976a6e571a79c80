/*
 * Timers: a function called from the timer interrupt of the CPU the timer
 * was added on (this one, or the one timer_add_on() names), once the
 * clock passes its expiry. Resolution is one tick
 * while that CPU ticks; an idle CPU with its tick stopped programs its
 * clock event for its first timer (tick.c). The
 * function runs with interrupts off and that CPU's timer lock held, so
 * it must be short (waking a thread is the usual job).
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include "lib/list.h"
#include "lib/types.h"

struct timer {
	u64 expires_ns;
	void (*fn)(void *arg);
	void *arg;
	struct list_head link;
	unsigned int cpu;
	bool pending;
};

void timer_init_cpus(void);
void timer_add(struct timer *t, u64 expires_ns);
void timer_add_on(struct timer *t, u64 expires_ns, unsigned int cpu);
void timer_run_expired(void);
u64 timer_next_expiry(void);
/* The tick's work: timers, then the scheduler's and RCU's. */
void timer_tick(void);
/* Take t off its list unless it fired already; true if it was pending.
 * After it returns, t's function is not running and will not run. */
bool timer_cancel(struct timer *t);
/* From t's own callback only (the timer lock is held there): run it again
 * at expires_ns, on the same CPU. A periodic timer is one that rearms. */
void timer_rearm(struct timer *t, u64 expires_ns);
/* CPU hotplug: the timers of an outgoing CPU move to cpu `to`. */
void timer_migrate_away(unsigned int cpu, unsigned int to);
void timer_cpu_online(unsigned int cpu);
/* What the hang report shows of a pending timer. */
struct timer_peek {
	u64 expires_ns;
	void (*fn)(void *arg);
	void *arg;
};

/* The first max timers pending on cpu, soonest first, into out; returns
 * how many are pending in all, or -1 if its timer lock stayed busy.
 * Takes the lock only if it is free soon: from NMI context. */
int timer_peek_pending(unsigned int cpu, struct timer_peek *out,
		       unsigned int max);
/* Run fn(arg) under the timer lock of the CPU that owns t. */
void timer_with_lock(struct timer *t, void (*fn)(void *arg), void *arg);

#endif
