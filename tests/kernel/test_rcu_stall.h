/* What the rcu_stall suite's files share. */
#ifndef TESTS_KERNEL_TEST_RCU_STALL_H
#define TESTS_KERNEL_TEST_RCU_STALL_H

#include "lib/types.h"

/* Stall warnings printed since boot: expedited ones, or normal ones. */
u64 stalls_of(bool expedited);

#endif
