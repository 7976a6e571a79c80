/*
 * The tick, and stopping it in idle (Linux's CONFIG_NO_HZ_IDLE).
 *
 * With nohz=off every CPU's timer interrupts hz times a second, idle or
 * not, as it always did here. By default each CPU instead has a one-shot
 * clock event (arch_clockevent_*, TSC-deadline where the CPU has it) and
 * programs it itself:
 *
 *   - A CPU running threads takes its tick as before: each tick programs
 *     the next one, a period later on the same grid (tick_interrupt()).
 *     The scheduler's time slices and balancing, RCU's tick work and the
 *     timers all still run from it.
 *   - A CPU about to halt in its idle loop asks what it will need next
 *     (tick_idle_stop()): its first timer, and RCU's answer from
 *     rcu_needs_cpu(), the longest RCU lets it sleep (0: keep ticking;
 *     the tree engine says 4 ticks while the CPU holds callbacks, so a
 *     callback waits at most that long past its grace period to be
 *     advanced). If that is further off than its next tick, the tick
 *     stops and the clock event is set for that moment, or for nothing.
 *   - Whatever wakes it (that event, an IPI, a device) runs its handler;
 *     the idle loop then either halts again, reprogramming, or leaves
 *     for a thread and restarts the tick (tick_idle_restart()).
 *
 * Time never comes from counting ticks: clock_ns() reads the TSC. So
 * nothing but this file knows whether ticks were skipped, and work that
 * must happen while a CPU sleeps is a timer, or an IPI to that CPU.
 *
 * All of a CPU's state here is its own, touched with interrupts off on
 * that CPU; others read it only for statistics and the hang report
 * (READ_ONCE, paired with the WRITE_ONCE stores here).
 */
#include "tick.h"
#include "internal.h"
#include "timer.h"
#include "kernel/cmdline.h"
#include "kernel/entry.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/rcu/hooks.h"
#include "kernel/time.h"

struct tick_cpu {
	bool stopped;		/* in idle, tick off */
	u64 next_tick_ns;	/* while ticking: when the next tick is due */
	u64 programmed_ns;	/* the clock event's moment; 0 = none */
	/* While stopped: when RCU's work is next due, set once after each
	 * timer interrupt (which runs it) and kept across other wake-ups,
	 * so that IPIs coming faster than RCU's limit cannot keep pushing
	 * it back. 0 = none set. */
	u64 rcu_wake_ns;
	u64 stopped_at_ns;
	u64 ticks_at_stop;	/* percpu->ticks when it stopped */
	u64 skipped;		/* ticks not taken while stopped */
	u64 stops;
} __aligned(CACHE_LINE);

static DEFINE_PERCPU_ARRAY(struct tick_cpu, tick_cpus);

bool nohz_enabled = true;
CMDLINE_BOOL("nohz", nohz_enabled,
	     "0/off = every CPU takes hz ticks a second, idle or not");

static void program(struct tick_cpu *tc, u64 when_ns)
{
	WRITE_ONCE(tc->programmed_ns, when_ns);
	arch_clockevent_program(when_ns);
}

/* The first tick after now on the grid of next_tick_ns, so a late tick
 * (a vCPU the host did not run) does not pile up interrupts. */
static u64 next_on_grid(u64 next_tick_ns, u64 now)
{
	u64 period = tick_period_ns();

	if (next_tick_ns > now)
		return next_tick_ns;
	return now + period - (now - next_tick_ns) % period;
}

/**
 * tick_start_cpu - start this CPU's tick, periodic or one-shot
 *
 * Context: each CPU as it comes online (boot or cpu_up()), interrupts
 * off. cpu0 also says which mode runs: the boot banner.
 */
void tick_start_cpu(void)
{
	struct tick_cpu *tc = &tick_cpus[this_cpu_id()];

	if (this_cpu_id() == 0)
		pr_info("tick: %s, %u Hz%s%s\n",
			nohz_enabled ? "tickless idle (nohz=on)" :
				       "periodic (nohz=off)", hz,
			nohz_enabled ? ", clock event: " : "",
			nohz_enabled ? arch_clockevent_name() : "");
	if (!nohz_enabled) {
		arch_timer_start();
		return;
	}
	WRITE_ONCE(tc->stopped, false);
	WRITE_ONCE(tc->next_tick_ns, clock_ns() + tick_period_ns());
	arch_clockevent_start();
	program(tc, tc->next_tick_ns);
}

/**
 * tick_interrupt - the timer interrupt of every CPU
 *
 * A ticking CPU first sets its next tick, so that a handler that runs
 * long cannot lose it. On a stopped one the event is spent: its idle
 * loop, which runs next, programs the next one, even for the same
 * moment (the one-shot count is rounded, so it may fire a little before
 * the timer it was set for is due). Then the tick's work (timer_tick()):
 * timers, scheduler, RCU.
 */
void tick_interrupt(void)
{
	struct tick_cpu *tc = &tick_cpus[this_cpu_id()];

	if (nohz_enabled && !tc->stopped) {
		WRITE_ONCE(tc->next_tick_ns,
			   next_on_grid(tc->next_tick_ns + tick_period_ns(),
					clock_ns()));
		program(tc, tc->next_tick_ns);
	} else if (nohz_enabled) {
		WRITE_ONCE(tc->programmed_ns, 0);
	}
	/* timer_tick() runs RCU's work, ticking or not: a moment set by an
	 * idle pass that kept the tick (tick_idle_stop()) is spent too, or
	 * once past it would keep this CPU from ever stopping its tick. */
	WRITE_ONCE(tc->rcu_wake_ns, 0);
	timer_tick();
}

/* The soonest this idle CPU must wake: its first timer, or RCU's next
 * tick, rcu_sleep_ns after the last one; U64_MAX for never. */
static u64 next_event_ns(struct tick_cpu *tc, u64 now, u64 rcu_sleep_ns)
{
	u64 next = timer_next_expiry();

	if (rcu_sleep_ns == U64_MAX) {
		WRITE_ONCE(tc->rcu_wake_ns, 0);
		return next;
	}
	if (!tc->rcu_wake_ns)
		WRITE_ONCE(tc->rcu_wake_ns, now + rcu_sleep_ns);
	return MIN(next, tc->rcu_wake_ns);
}

/**
 * tick_idle_stop - stop this CPU's tick before it halts, if it may
 *
 * Context: the idle loop, interrupts off until its halt, so nothing can
 * queue a timer here between the look at the timers and the programming
 * (an interrupt that adds one ends the halt, and the loop comes back).
 * Work from another CPU arrives by IPI, which the halt also ends on.
 */
void tick_idle_stop(void)
{
	struct tick_cpu *tc = &tick_cpus[this_cpu_id()];
	u64 now, rcu_sleep_ns, next;

	if (!nohz_enabled)
		return;
	rcu_sleep_ns = rcu_needs_cpu();
	if (rcu_sleep_ns == 0) {
		tick_idle_restart();
		return;
	}
	now = clock_ns();
	next = next_event_ns(tc, now, rcu_sleep_ns);
	/* Due before the tick that comes anyway: the tick serves it. */
	if (!tc->stopped && next <= tc->next_tick_ns)
		return;
	if (!tc->stopped) {
		WRITE_ONCE(tc->stopped, true);
		WRITE_ONCE(tc->stops, tc->stops + 1);
		WRITE_ONCE(tc->stopped_at_ns, now);
		WRITE_ONCE(tc->ticks_at_stop, this_cpu()->ticks);
	}
	if (next == U64_MAX) {
		WRITE_ONCE(tc->programmed_ns, 0);
		arch_clockevent_cancel();
	} else if (next != tc->programmed_ns) {
		program(tc, next);
	}
}

/* Ticks skipped so far, the current stop included; from any CPU. The
 * fields may be read halfway through a stop or restart: a figure off by
 * one stop, never a wrong state. */
static u64 skipped_so_far(unsigned int cpu, const struct tick_cpu *tc)
{
	u64 skipped = READ_ONCE(tc->skipped), would_have, taken;

	if (!READ_ONCE(tc->stopped))
		return skipped;
	would_have = (clock_ns() - READ_ONCE(tc->stopped_at_ns)) /
		     tick_period_ns();
	taken = READ_ONCE(cpu_area(cpu)->ticks) - READ_ONCE(tc->ticks_at_stop);
	return skipped + (would_have > taken ? would_have - taken : 0);
}

/**
 * tick_idle_restart - restart a stopped tick: the CPU leaves idle
 *
 * Context: the idle loop, interrupts off, before it switches to a thread
 * (or when RCU wants the tick back). Counts the ticks the stop saved.
 */
void tick_idle_restart(void)
{
	unsigned int cpu = this_cpu_id();
	struct tick_cpu *tc = &tick_cpus[cpu];

	if (!nohz_enabled || !tc->stopped)
		return;
	WRITE_ONCE(tc->skipped, skipped_so_far(cpu, tc));
	WRITE_ONCE(tc->stopped, false);
	WRITE_ONCE(tc->rcu_wake_ns, 0);
	WRITE_ONCE(tc->next_tick_ns, clock_ns() + tick_period_ns());
	program(tc, tc->next_tick_ns);
}

void tick_cpu_stats(unsigned int cpu, struct tick_cpu_stats *out)
{
	const struct tick_cpu *tc = &tick_cpus[cpu];

	out->taken = READ_ONCE(cpu_area(cpu)->ticks);
	out->skipped = skipped_so_far(cpu, tc);
	out->stops = READ_ONCE(tc->stops);
	out->stopped = READ_ONCE(tc->stopped);
	out->programmed_ns = READ_ONCE(tc->programmed_ns);
	out->next_tick_ns = READ_ONCE(tc->next_tick_ns);
	out->rcu_wake_ns = READ_ONCE(tc->rcu_wake_ns);
}
