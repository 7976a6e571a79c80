#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"

KTEST(smoke, arithmetic)
{
	KEXPECT_EQ(1 + 1, 2);
}

KTEST_EACH_CPU(smoke, each_cpu)
{
	KEXPECT_EQ((int)this_cpu_id(), t->cpu);
	sleep_ms(5);
}
