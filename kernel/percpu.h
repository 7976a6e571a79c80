/*
 * Per-CPU state. Each CPU has one struct percpu, found through its GS base,
 * holding the few fields that hot paths touch in a single instruction
 * (preempt_count, need_resched, the current thread). Larger per-CPU state
 * of a subsystem lives in that subsystem's own array indexed by cpu id
 * (percpu_array.h), each element on its own cache line.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "arch.h"
#include "lib/compiler.h"
#include "lib/types.h"
#include "percpu_array.h"

/* The most CPUs the kernel runs on (the Makefile's MAX_CPUS, 4096 unless
 * set): those beyond are left unstarted. Per-CPU arrays cost the CPUs
 * present (percpu_array.h), cpumasks MAX_CPUS bits. */
#ifndef MAX_CPUS
#define MAX_CPUS	4096
#endif
#define CACHE_LINE	64

struct thread;

struct percpu {
	struct percpu *self;		/* %gs:0, so this_cpu() is one load */
	u32 cpu;			/* dense index, 0 = boot CPU */
	u32 preempt_count;		/* > 0: this CPU may not switch threads */
	u32 need_resched;		/* set by the tick or a wake-up */
	u32 irq_depth;			/* hard-interrupt nesting */
	/* rcu_read_lock() depth: the debug build's, and always with
	 * preemptible RCU, where it belongs to the running thread: the
	 * switch saves it and the next thread's special bits with the
	 * thread (kernel/rcu/preempt/), so the fast path stays one
	 * instruction on this CPU's area. */
	u32 rcu_nesting;
	u32 rcu_unlock_special;		/* preemptible RCU: RCU_SPECIAL_* */
	u64 rcu_lock_ip;		/* debug build: where the outermost
					 * rcu_read_lock() was */
	struct thread *current;
	u32 online;
	u64 ticks;			/* timer interrupts taken */
	u64 idle_ns;			/* time spent in the idle loop */
} __aligned(CACHE_LINE);

DECLARE_PERCPU_ARRAY(struct percpu, percpu_areas);
extern unsigned int nr_cpus;		/* CPUs found in the MADT */
extern unsigned int nr_cpus_online;

#define PERCPU_OFF(field)	offsetof(struct percpu, field)

static __always_inline struct percpu *this_cpu(void)
{
	return (struct percpu *)arch_percpu_read64(PERCPU_OFF(self));
}

static __always_inline unsigned int this_cpu_id(void)
{
	return arch_percpu_read32(PERCPU_OFF(cpu));
}

static inline struct percpu *cpu_area(unsigned int cpu)
{
	return &percpu_areas[cpu];
}

#define for_each_online_cpu(c)						\
	for ((c) = 0; (c) < nr_cpus; (c)++)				\
		if (READ_ONCE(percpu_areas[c].online))

void percpu_init_cpu(unsigned int cpu);

#endif
