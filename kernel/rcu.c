/*
 * The RCU hooks, empty until the RCU core is written (issue 4): the
 * scheduler and idle loop already call them where the core needs to be
 * told of quiescent states.
 */
#include "rcu.h"

void rcu_note_context_switch(void)
{
}

void rcu_idle_enter(void)
{
}

void rcu_idle_exit(void)
{
}

void rcu_tick(void)
{
}

void rcu_expedited_ipi_handler(void)
{
}
