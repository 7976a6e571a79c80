/*
 * The timers suite's torture (test_timer_torture.c) and its slots, each
 * one timer with its accounting (test_timer_torture_slot.c).
 *
 * Every timer the torture arms is a slot's. A slot is armed by one owner
 * (a worker, or the driver for its last shots), owes `expected` fires
 * (one, and one more for each rearm its callback was asked for), and is
 * settled by its owner with timer_cancel(), which also waits out a
 * callback running on another CPU, before the slot is armed again. The
 * slots live in static memory and are all settled before the test ends,
 * so no callback can run on memory that is gone.
 */
#ifndef TESTS_KERNEL_TEST_TIMER_TORTURE_H
#define TESTS_KERNEL_TEST_TIMER_TORTURE_H

#include "kernel/sched/timer.h"
#include "kernel/test/ktest.h"
#include "kernel/time.h"
#include "lib/random.h"

struct tt_slot {
	struct timer timer;
	struct prng rng;	/* the callback's, for its rearm deadlines */
	char name[24];		/* for reports: "worker 3 slot 1" */
	unsigned int from_cpu;	/* the CPU the owner armed it from */
	int target;		/* timer_add_on()'s CPU, -1 for timer_add() */
	u64 deadline;		/* of the arming pending now */
	unsigned int expected;	/* fires owed */
	/* Written by the callback under its CPU's timer lock; read by the
	 * owner and the final check (READ_ONCE), done with acquire. */
	unsigned int fires;
	u64 fired_ns;
	unsigned int fired_cpu;
	bool done;		/* the last fire owed has happened */
	bool armed;		/* the owner's: a fire while false is a bug */
	/* The first wrong thing seen of this slot, sticky; the details
	 * are written by whoever claimed it (cmpxchg on `bad`). */
	const char *bad;
	u64 bad_deadline, bad_now;
	unsigned int bad_cpu, bad_fires, bad_expected, bad_from;
	int bad_target;
};

/* Deadlines: 0 to TT_MAX_DELAY_NS ahead, one in eight up to 1 ms past. */
#define TT_MAX_DELAY_NS		(3 * NSEC_PER_MSEC)

/* What happened to the slots: armed, settled, and how. */
struct tt_counts {
	unsigned long local, remote, past, rearms;
	unsigned long fired, cancelled, cancel_missed;
};

void tt_slot_arm(struct tt_slot *s, int target, u64 deadline,
		 unsigned int rearms, struct tt_counts *c);
/* Settle an armed slot: free it if it is done, or with `cancel`, cancel
 * it whatever its state. */
void tt_slot_settle(struct tt_slot *s, bool cancel, struct tt_counts *c);
void tt_slot_mark_bad(struct tt_slot *s, const char *what, u64 now);
u64 tt_pick_deadline(struct prng *r, u64 now);

/*
 * The final accounting over n slots: wait (a bounded number of sleeps)
 * until each armed slot is done, then report on the test every slot
 * still missing and every wrong fire, and settle them all. Returns the
 * number of slots that went wrong.
 */
unsigned int tt_check_all(struct ktest_context *t, struct tt_slot *slots,
			  unsigned int n, struct tt_counts *c);

#endif
