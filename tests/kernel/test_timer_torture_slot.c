/*
 * The timer torture's slots (test_timer_torture.h): arming one, its
 * callback, which judges each fire as it happens (never before its
 * deadline, never unarmed, never more often than owed), settling it, and
 * the final account, which waits for the last deadlines and names every
 * timer that went wrong.
 */
#include "test_timer_torture.h"
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/tick.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/format.h"

/* The final wait: sleeps of TT_WAIT_MS, at most TT_WAITS_MAX of them,
 * and fewer when a missing timer is seen where nothing will ever run it
 * TT_STUCK_WAITS times in a row (tt_why_stuck()). The first bound only
 * stops a hang before the test's watchdog does; the second is how a
 * lost wake-up is caught, by state, not by lateness. */
#define TT_WAIT_MS		2
#define TT_WAITS_MAX		5000u
#define TT_STUCK_WAITS		250u
#define TT_REPORT_MAX		8u

void tt_slot_mark_bad(struct tt_slot *s, const char *what, u64 now)
{
	/* The first claim wins; its details are read after the run. */
	if (cmpxchg(&s->bad, NULL, what) != NULL)
		return;
	s->bad_deadline = READ_ONCE(s->deadline);
	s->bad_now = now;
	s->bad_cpu = this_cpu_id();
	s->bad_fires = READ_ONCE(s->fires);
	s->bad_expected = s->expected;
	s->bad_from = s->from_cpu;
	s->bad_target = s->target;
}

u64 tt_pick_deadline(struct prng *r, u64 now)
{
	if (prng_below(r, 8) == 0)
		return now - prng_below(r, NSEC_PER_MSEC);
	return now + prng_below(r, TT_MAX_DELAY_NS + 1);
}

/* The callback, on the CPU whose list held the timer, under its lock. */
static void tt_fire(void *arg)
{
	struct tt_slot *s = arg;
	unsigned int fires = s->fires + 1;
	u64 now = clock_ns();

	if (!READ_ONCE(s->armed))
		tt_slot_mark_bad(s, "fired while not armed (after it was "
				 "cancelled, or after its last fire)", now);
	else if (now < s->deadline)
		tt_slot_mark_bad(s, "fired before its deadline", now);
	else if (fires > s->expected)
		tt_slot_mark_bad(s, "fired more often than it was armed",
				 now);
	WRITE_ONCE(s->fires, fires);
	WRITE_ONCE(s->fired_ns, now);
	WRITE_ONCE(s->fired_cpu, this_cpu_id());
	if (fires < s->expected) {
		WRITE_ONCE(s->deadline, tt_pick_deadline(&s->rng, now));
		timer_rearm(&s->timer, s->deadline);
		return;
	}
	/* Release: the fields above before the owner sees the slot done;
	 * pairs with the acquires in tt_slot_settle() and tt_look(). */
	smp_store_release(&s->done, true);
}

void tt_slot_arm(struct tt_slot *s, int target, u64 deadline,
		 unsigned int rearms, struct tt_counts *c)
{
	s->timer.fn = tt_fire;
	s->timer.arg = s;
	s->target = target;
	s->from_cpu = this_cpu_id();
	s->expected = 1 + rearms;
	WRITE_ONCE(s->deadline, deadline);
	WRITE_ONCE(s->fires, 0);
	WRITE_ONCE(s->done, false);
	WRITE_ONCE(s->armed, true);
	c->rearms += rearms;
	c->past += deadline <= clock_ns();
	/* The timer lock taken here publishes the fields above to the
	 * callback, which runs under that lock (or, moved by a CPU going
	 * down, under a lock taken after it). */
	if (target < 0) {
		c->local++;
		timer_add(&s->timer, deadline);
	} else {
		c->remote++;
		timer_add_on(&s->timer, deadline, (unsigned int)target);
	}
}

void tt_slot_settle(struct tt_slot *s, bool cancel, struct tt_counts *c)
{
	bool done = smp_load_acquire(&s->done);

	if (!READ_ONCE(s->armed) || (!done && !cancel))
		return;
	/* Also waits out the callback if it runs now on another CPU. */
	if (timer_cancel(&s->timer)) {
		if (done)
			tt_slot_mark_bad(s, "still pending after its last fire",
					 clock_ns());
		c->cancelled++;
	} else {
		if (!smp_load_acquire(&s->done) ||
		    READ_ONCE(s->fires) != s->expected)
			tt_slot_mark_bad(s, "neither pending nor fired as often "
					 "as it was armed", clock_ns());
		c->fired++;
		c->cancel_missed += cancel;
	}
	WRITE_ONCE(s->armed, false);
}

struct tt_where {
	struct tt_slot *slot;
	unsigned int cpu;
	bool pending, done;
	u64 expires_ns;
};

static void tt_where_locked(void *arg)
{
	struct tt_where *w = arg;

	w->cpu = w->slot->timer.cpu;
	w->pending = w->slot->timer.pending;
	w->expires_ns = w->slot->timer.expires_ns;
	/* Acquire: see the callback's fields if it was the last fire; pairs
	 * with the release in tt_fire(). */
	w->done = smp_load_acquire(&w->slot->done);
}

/* An armed slot's state, read under the lock of the list that holds it,
 * so that a fire is seen either not begun or finished. */
static void tt_look(struct tt_slot *s, struct tt_where *w)
{
	w->slot = s;
	timer_with_lock(&s->timer, tt_where_locked, w);
}

/*
 * Why a missing timer can never fire, or NULL while it still may. A CPU
 * that idles with its tick stopped has its clock event set for its first
 * timer (tick.c); one set for later, or for nothing, with no kick pending
 * (a kick sets need_resched before its IPI) means it will sleep past a
 * due timer for as long as nothing else wakes it: a lost wake-up. Each
 * state here also passes, for a moment, while a CPU takes an event or a
 * kick is on its way; the caller asks for it many times in a row.
 */
static const char *tt_why_stuck(const struct tt_where *w, u64 now,
				struct tick_cpu_stats *ts)
{
	tick_cpu_stats(w->cpu, ts);
	if (!w->pending)
		return "neither pending nor fired: dropped from its list";
	if (cpu_is_parked(w->cpu))
		return "pending on a CPU that is offline";
	if (w->expires_ns > now)
		return NULL;
	if (ts->stopped &&
	    (!ts->programmed_ns || ts->programmed_ns > w->expires_ns) &&
	    !READ_ONCE(cpu_area(w->cpu)->need_resched))
		return "its CPU idles with its tick stopped, its clock event "
		       "set for later or none, and no kick pending: a lost "
		       "wake-up";
	return NULL;
}

/* Missing slots now; *stuck says whether one of them can never fire. */
static unsigned int tt_missing(struct tt_slot *slots, unsigned int n,
			       bool *stuck)
{
	struct tick_cpu_stats ts;
	unsigned int i, missing = 0;
	struct tt_where w;

	*stuck = false;
	for (i = 0; i < n; i++) {
		if (!READ_ONCE(slots[i].armed))
			continue;
		tt_look(&slots[i], &w);
		if (w.done)
			continue;
		missing++;
		*stuck |= tt_why_stuck(&w, clock_ns(), &ts) != NULL;
	}
	return missing;
}

/* "worker 3 slot 1, armed from cpu2 with timer_add_on() for cpu1" */
static void tt_describe(const struct tt_slot *s, unsigned int from,
			int target, char *buf, size_t size)
{
	if (target < 0)
		ksnprintf(buf, size, "%s, armed with timer_add() on cpu%u",
			  s->name, from);
	else
		ksnprintf(buf, size, "%s, armed from cpu%u with timer_add_on() "
			  "for cpu%d", s->name, from, target);
}

/* False if it fired after all, since the last look. */
static bool tt_report_missing(struct ktest_context *t, struct tt_slot *s)
{
	char what[96], event[32] = "none";
	struct tick_cpu_stats ts;
	const char *why;
	struct tt_where w;
	u64 now;

	tt_look(s, &w);
	if (w.done)
		return false;
	now = clock_ns();
	why = tt_why_stuck(&w, now, &ts);
	if (ts.programmed_ns)
		ksnprintf(event, sizeof(event), "at %llu ns", ts.programmed_ns);
	tt_describe(s, s->from_cpu, s->target, what, sizeof(what));
	KTEST_FAIL("timer lost: %s, due at %llu ns, now %llu ns (%llu us "
		   "past due), fired %u of %u times; on cpu%u (tick %s, clock "
		   "event %s): %s", what, w.expires_ns, now,
		   now > w.expires_ns ? (now - w.expires_ns) / 1000 : 0,
		   READ_ONCE(s->fires), s->expected, w.cpu,
		   ts.stopped ? "stopped" : "running", event,
		   why ? why : "its CPU looked able to run it");
	return true;
}

static void tt_report_bad(struct ktest_context *t, struct tt_slot *s)
{
	char what[96];

	tt_describe(s, s->bad_from, s->bad_target, what, sizeof(what));
	KTEST_FAIL("timer wrong: %s: %s, seen on cpu%u at %llu ns, deadline "
		   "%llu ns, after %u of %u fires", what, s->bad, s->bad_cpu,
		   s->bad_now, s->bad_deadline, s->bad_fires, s->bad_expected);
}

unsigned int tt_check_all(struct ktest_context *t, struct tt_slot *slots,
			  unsigned int n, struct tt_counts *c)
{
	unsigned int i, waits, stuck_waits = 0, missing = 0, wrong = 0;
	bool stuck;

	for (waits = 0; waits < TT_WAITS_MAX; waits++) {
		missing = tt_missing(slots, n, &stuck);
		stuck_waits = stuck ? stuck_waits + 1 : 0;
		if (!missing || stuck_waits >= TT_STUCK_WAITS)
			break;
		sleep_ms(TT_WAIT_MS);
	}
	for (i = 0; i < n; i++) {
		struct tt_slot *s = &slots[i];

		if (READ_ONCE(s->armed) && !smp_load_acquire(&s->done) &&
		    (wrong >= TT_REPORT_MAX || tt_report_missing(t, s)))
			wrong++;
		tt_slot_settle(s, true, c);
	}
	for (i = 0; i < n; i++) {
		if (!READ_ONCE(slots[i].bad))
			continue;
		if (wrong++ < TT_REPORT_MAX)
			tt_report_bad(t, &slots[i]);
	}
	if (wrong > TT_REPORT_MAX)
		KTEST_FAIL("and %u more timers wrong (%u missing after %u "
			   "waits of %u ms)", wrong - TT_REPORT_MAX, missing,
			   waits, TT_WAIT_MS);
	return wrong;
}
