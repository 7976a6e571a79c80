/*
 * The hang report's verdict on a CPU's first timer (hang_timer_lost(),
 * kernel/sched/hang_report.c): a lost wake-up is named only where
 * nothing will run the timer. The report itself prints from an NMI at a
 * hang, which no passing boot has; tests/harness-test plants one and
 * reads it. Here the verdict is asked of each kind of state, made up.
 */
#include "kernel/sched/hang_report.h"
#include "kernel/test/ktest.h"
#include "kernel/time.h"

#define NOW_NS		(100 * NSEC_PER_SEC)
#define OVERDUE_NS	(NOW_NS - 50 * NSEC_PER_MSEC)

struct timer_case {
	const char *what;
	bool halted;
	u64 expires_ns, event_ns;
	bool lost;
};

static const struct timer_case timer_cases[] = {
	{ "halted, timer overdue, no clock event (cancelled when its list "
	  "was empty: the kick of timer_add_on() lost)",
	  true, OVERDUE_NS, 0, true },
	{ "halted, timer overdue, clock event set for later",
	  true, OVERDUE_NS, NOW_NS + NSEC_PER_SEC, true },
	{ "halted, timer overdue, clock event set for the timer (late: "
	  "the host did not run the vCPU)",
	  true, OVERDUE_NS, OVERDUE_NS, false },
	{ "halted, timer overdue, clock event set before the timer",
	  true, OVERDUE_NS, OVERDUE_NS - NSEC_PER_MSEC, false },
	{ "halted, timer not yet due, no clock event",
	  true, NOW_NS + NSEC_PER_MSEC, 0, false },
	{ "running a thread, timer overdue, no clock event (it ticks)",
	  false, OVERDUE_NS, 0, false },
};

KTEST(hang_report, names_a_timer_lost_only_when_nothing_will_run_it)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(timer_cases); i++) {
		const struct timer_case *c = &timer_cases[i];
		bool lost = hang_timer_lost(c->halted, c->expires_ns,
					    c->event_ns, NOW_NS);

		if (lost != c->lost)
			KTEST_FAIL("%s: hang_timer_lost() says %s, expected %s",
				   c->what, lost ? "lost" : "not lost",
				   c->lost ? "lost" : "not lost");
	}
}
