/*
 * RCU's hooks into the scheduler, the idle loop and interrupt entry: the
 * places where a CPU tells RCU it is quiescent (rcu_tree.c explains).
 */
#ifndef KERNEL_RCU_HOOKS_H
#define KERNEL_RCU_HOOKS_H

/* Once per pass through schedule() on this CPU: a quiescent state. */
void rcu_note_context_switch(void);
/* The idle loop is about to halt / has woken: an extended quiescent state. */
void rcu_idle_enter(void);
void rcu_idle_exit(void);
/* Outermost interrupt entry and exit, which may interrupt idle. */
void rcu_irq_enter(void);
void rcu_irq_exit(void);
/* Every timer tick on every CPU. */
void rcu_tick(void);

#endif
