/* What the rcu_preempt suite's files share. */
#ifndef TESTS_KERNEL_TEST_RCU_PREEMPT_H
#define TESTS_KERNEL_TEST_RCU_PREEMPT_H

#include "lib/types.h"

/* Whether the leaf of cpu has a reader on its list (under its lock). */
bool leaf_has_reader(unsigned int cpu);

#endif
