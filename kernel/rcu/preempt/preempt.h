/* What the files of the preemptible flavour share (see blocked.c). */
#ifndef KERNEL_RCU_PREEMPT_PREEMPT_H
#define KERNEL_RCU_PREEMPT_PREEMPT_H

#include "kernel/rcu/flavour.h"
#include "kernel/sched/sched.h"

/* Why a thread's outermost rcu_read_unlock() takes the slow path: its
 * bits in percpu.rcu_unlock_special (the running thread's). */
#define RCU_SPECIAL_BLOCKED	1u	/* queued on a leaf's list */

/* Queue the running thread t, switched out inside a reader on cpu, on
 * the CPU's leaf; take it off again. Interrupts off. */
void rcu_preempt_queue_reader(struct thread *t, unsigned int cpu);
void rcu_preempt_dequeue_reader(struct thread *t);

/* Readers queued since boot, for the statistics (leaf locks). */
extern u64 rcu_preempt_blocked_total;

#endif
