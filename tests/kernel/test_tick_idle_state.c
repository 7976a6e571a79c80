/*
 * The tick's idle state, white-box (kernel/sched/tick.c). A thread on the
 * last CPU makes the idle loop's calls itself, interrupts off between
 * them as there, halts as it does (sti; hlt) until the timer interrupt
 * comes, and checks the state that interrupt left (tick_cpu_stats()).
 *
 * After each timer interrupt, what it served is spent: RCU's wake-up
 * moment, even when an idle pass set it and kept the tick, and a stopped
 * CPU's clock event, even when it fired before its moment (the LAPIC's
 * one-shot count reaches a second at most). The idle loop runs again at
 * once and hides either: a stale moment only keeps the tick running
 * later, while RCU callbacks wait; an event taken for still armed lets
 * the CPU halt with none, and its timer waits for any other interrupt.
 * So these look at the state between the interrupt and the next pass,
 * which the black-box tests of test_tick.c cannot. Nothing else runs the
 * idle loop's calls meanwhile: this thread, runnable, keeps the idle
 * thread off the CPU, even when an interrupt preempts it.
 */
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu/hooks.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/tick.h"
#include "kernel/sched/timer.h"
#include "kernel/test/ktest.h"
#include "kernel/time.h"

/* Beyond the LAPIC's one-shot reach (a second): in that mode the event
 * fires before the timer it was set for. */
#define FAR_NS		(3 * NSEC_PER_SEC / 2)

static const char *const rcu_keeps_tick =
	"this RCU engine keeps an idle CPU's tick (rcu_needs_cpu() is 0)";

/* Halt until this CPU's timer interrupt has come, interrupts off between
 * the halts; other interrupts end a halt too, so the tick count tells. */
static void halt_until_timer_interrupt(void)
{
	u64 ticks = READ_ONCE(this_cpu()->ticks);

	while (READ_ONCE(this_cpu()->ticks) == ticks) {
		arch_idle_wait();	/* sti; hlt */
		arch_irq_disable();
	}
}

static void do_nothing(void *unused)
{
	(void)unused;
}

static void complete_arg(void *arg)
{
	complete(arg);
}

/* Run fn(arg), idle passes made by hand, on the last online CPU, and
 * wait for them; false, the test skipped or failed, if they could not
 * run or *skip says why they did not. */
static bool run_passes(struct ktest_context *t, void (*fn)(void *),
		       void *arg, const char *const *skip)
{
	struct thread *th;

	if (!nohz_enabled) {
		t->skip_reason = "nohz=off: no idle pass stops the tick";
		return false;
	}
	th = thread_create_on(fn, arg, "tick_idle_passes", nr_cpus_online - 1);
	if (!th) {
		KTEST_FAIL("no memory for the thread of the idle passes");
		return false;
	}
	thread_join(th);
	t->skip_reason = *skip;
	return !*skip;
}

struct kept_pass {
	const char *skip;
	struct tick_cpu_stats kept, after;
};

static struct rcu_head held_head;
static struct completion held_invoked;

/*
 * An idle pass with a callback held (RCU lets the CPU sleep a few ticks)
 * and a timer due with the next tick, which serves it: the pass keeps
 * the tick, yet sets RCU's wake-up moment. The tick that follows
 * runs RCU's work, so it must spend that moment; one left set would be
 * in the past by the next idle pass, and each pass from then on would
 * take it for due and keep the tick, as long as callbacks are held.
 */
static void keep_tick_with_rcu_moment(void *arg)
{
	struct kept_pass *r = arg;
	struct timer due = { .fn = do_nothing };
	unsigned int cpu = this_cpu_id();
	unsigned long flags = arch_irq_save();

	init_completion(&held_invoked);
	/* Interrupts off from here: the callback is held until the halt. */
	call_rcu(&held_head, complete_arg, &held_invoked);
	if (!rcu_needs_cpu()) {
		r->skip = rcu_keeps_tick;
	} else {
		/* Not "now": with the tick overdue (interrupts off since
		 * its moment), a pass rightly stops it for a later timer. */
		tick_cpu_stats(cpu, &r->kept);
		timer_add(&due, r->kept.next_tick_ns);
		tick_idle_stop();
		tick_cpu_stats(cpu, &r->kept);
		halt_until_timer_interrupt();
		tick_cpu_stats(cpu, &r->after);
		timer_cancel(&due);
	}
	arch_irq_restore(flags);
	wait_for_completion(&held_invoked);
}

KTEST(tick, rcu_wake_moment_spent_by_a_kept_tick)
{
	struct kept_pass r = { 0 };

	if (!run_passes(t, keep_tick_with_rcu_moment, &r, &r.skip))
		return;
	/* What the pass did: kept the tick, RCU's moment set. */
	KEXPECT_FALSE(r.kept.stopped);
	KEXPECT_NE(r.kept.rcu_wake_ns, 0ull);
	KEXPECT_EQ(r.after.rcu_wake_ns, 0ull);
}

struct stopped_passes {
	const char *skip;
	u64 expires_ns, fired_ns;
	/* Timer interrupts of the stopped tick, and those before the
	 * moment their event was set for. */
	unsigned int stopped_interrupts, early;
	/* programmed_ns found right after a stopped tick's interrupt. */
	u64 unspent_ns;
};

static void far_timer_fired(void *arg)
{
	struct stopped_passes *r = arg;

	WRITE_ONCE(r->fired_ns, clock_ns());
}

/*
 * Idle passes, as the idle loop makes them, until a timer FAR_NS ahead
 * has run: each stops the tick and sets the clock event for the first
 * thing due, the timer or RCU's moment. After each interrupt of the
 * stopped tick the event must be spent (programmed_ns 0), so that the
 * next pass sets it again; one still marked armed after firing early
 * would not be, and the CPU would halt with no event at all.
 */
static void stop_tick_until_far_timer(void *arg)
{
	struct stopped_passes *r = arg;
	struct timer far = { .fn = far_timer_fired, .arg = r };
	unsigned int cpu = this_cpu_id();
	unsigned long flags = arch_irq_save();
	struct tick_cpu_stats s;
	u64 armed_ns;

	r->expires_ns = clock_ns() + FAR_NS;
	timer_add(&far, r->expires_ns);
	/* fired_ns is written by the timer's callback, on this CPU. */
	while (!READ_ONCE(r->fired_ns)) {
		tick_idle_stop();
		tick_cpu_stats(cpu, &s);
		if (!s.stopped && !rcu_needs_cpu()) {
			r->skip = rcu_keeps_tick;
			break;
		}
		armed_ns = s.programmed_ns;
		halt_until_timer_interrupt();
		if (!s.stopped)		/* a timer due before the next tick */
			continue;
		r->stopped_interrupts++;
		r->early += clock_ns() < armed_ns;
		tick_cpu_stats(cpu, &s);
		if (s.programmed_ns) {
			r->unspent_ns = s.programmed_ns;
			break;
		}
	}
	tick_idle_restart();
	timer_cancel(&far);
	arch_irq_restore(flags);
}

KTEST(tick, stopped_clock_event_spent_when_it_fires)
{
	struct stopped_passes r = { 0 };

	if (!run_passes(t, stop_tick_until_far_timer, &r, &r.skip))
		return;
	console_printf("    # %u interrupts of the stopped tick, %u of them "
		       "before their event's moment\n", r.stopped_interrupts,
		       r.early);
	KEXPECT_GT(r.stopped_interrupts, 0u);
	KEXPECT_EQ(r.unspent_ns, 0ull);
	KEXPECT_GE(r.fired_ns, r.expires_ns);
}
