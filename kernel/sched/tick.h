/*
 * The tick: periodic with nohz=off, else stopped while a CPU idles
 * (tick.c explains the design).
 */
#ifndef KERNEL_SCHED_TICK_H
#define KERNEL_SCHED_TICK_H

#include "lib/types.h"

extern bool nohz_enabled;

struct tick_cpu_stats {
	u64 taken;		/* timer interrupts taken */
	u64 skipped;		/* ticks a periodic timer would have added */
	u64 stops;		/* times the tick stopped */
	bool stopped;		/* stopped now */
	u64 programmed_ns;	/* the clock event's moment; 0 = none */
	u64 next_tick_ns;	/* while ticking: the next tick's moment */
	u64 rcu_wake_ns;	/* while stopped: RCU's next; 0 = none */
};

void tick_start_cpu(void);
void tick_idle_stop(void);
void tick_idle_restart(void);
void tick_cpu_stats(unsigned int cpu, struct tick_cpu_stats *out);

#endif
