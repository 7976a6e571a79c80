/*
 * The backtrace walker never faults, whatever the stack holds: the panic
 * report, the stall warning and the NMI backtrace all walk frames that
 * may be garbage. Each test plants a corrupt frame chain on this thread's
 * stack and checks that the walk stops where it should.
 */
#include "arch.h"
#include "kernel/mm/kstack.h"
#include "kernel/test/ktest.h"

/* A frame as the walker reads it: the caller's RBP, then the return
 * address. */
struct frame {
	uptr next;
	uptr ret;
};

static uptr some_code(void)
{
	return (uptr)some_code + 1;
}

/* A frame pointer that climbs off the top of this stack: into the next
 * slot's guard page, where the old walker faulted (an AP's idle thread
 * at -smp 64 and 255). The walk prints the planted frame and stops. */
KTEST(smoke, backtrace_stops_at_frame_leaving_its_stack)
{
	struct frame f;
	uptr lo, hi;

	KASSERT_TRUE(kstack_bounds((uptr)&f, &lo, &hi));
	f.next = hi + 64;
	f.ret = some_code();
	KEXPECT_EQ(arch_dump_backtrace((uptr)&f, some_code()), 2);
}

/* A starting frame pointer on no stack at all: nothing is read. */
KTEST(smoke, backtrace_stops_at_frame_on_no_stack)
{
	KEXPECT_EQ(arch_dump_backtrace(ARCH_DIRECT_MAP_BASE + 0x1000,
				       some_code()), 1);
	KEXPECT_EQ(arch_dump_backtrace(0xdead0000beef0000ul, some_code()), 1);
}

/* A chain that loops back down the stack would walk for ever. */
KTEST(smoke, backtrace_stops_at_frame_going_down)
{
	struct frame f[2];

	f[1].next = (uptr)&f[0];
	f[1].ret = some_code();
	f[0].next = (uptr)&f[1];
	f[0].ret = some_code();
	KEXPECT_EQ(arch_dump_backtrace((uptr)&f[0], some_code()), 3);
}
