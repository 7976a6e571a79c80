/* Per-CPU timer lists, sorted by expiry, and sleep_ms() built on them. */
#include "timer.h"
#include "internal.h"
#include "sched.h"
#include "spinlock.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/rcu/hooks.h"
#include "kernel/time.h"

struct timer_base {
	spinlock_t lock;
	struct list_head pending;	/* sorted, soonest first */
	/* Set by timer_rearm() from the callback now running: the tick
	 * must not look at the timer itself once its callback has
	 * returned (a sleeper's timer lives on a stack that may be gone),
	 * unless the callback asked to run again. */
	bool rearm_running;
	/* Its CPU is offline and its timers moved away (under the lock):
	 * timer_add_on() must not queue here, nothing would run them. */
	bool offline;
} __aligned(CACHE_LINE);

static DEFINE_PERCPU_ARRAY(struct timer_base, bases);

/* A planted lost wake-up, for the tests that must catch one (the hang
 * report, the timer torture): timer_add_on() forgets to kick. */
static bool lose_kick;
CMDLINE_BOOL("timer.lose_kick", lose_kick,
	     "debug: plant a lost wake-up: timer_add_on() does not kick an "
	     "idle CPU whose first timer it adds");

/* Every base but the boot CPU's starts offline: an AP marks its own
 * online as it starts (timer_cpu_online()), and one that never starts
 * (given up by the boot CPU) must not take timers nothing would run. */
__init void timer_init_cpus(void)
{
	unsigned int c;

	for (c = 0; c < nr_cpus; c++) {
		spin_lock_init(&bases[c].lock);
		INIT_LIST_HEAD(&bases[c].pending);
		bases[c].offline = c != 0;
	}
}

static void insert_sorted(struct timer_base *b, struct timer *t)
{
	struct timer *pos;

	list_for_each_entry(pos, &b->pending, link) {
		if (pos->expires_ns > t->expires_ns) {
			list_add_tail(&t->link, &pos->link);
			return;
		}
	}
	list_add_tail(&t->link, &b->pending);
}

/* Queue t on b, whose lock is held; true if it became b's first. */
static bool queue_locked(struct timer_base *b, struct timer *t,
			 unsigned int cpu, u64 expires_ns)
{
	t->expires_ns = expires_ns;
	WRITE_ONCE(t->cpu, cpu);
	t->pending = true;
	insert_sorted(b, t);
	return list_first_entry(&b->pending, struct timer, link) == t;
}

void timer_add(struct timer *t, u64 expires_ns)
{
	unsigned long flags = arch_irq_save();
	unsigned int cpu = this_cpu_id();
	struct timer_base *b = &bases[cpu];

	raw_spin_lock(&b->lock);
	queue_locked(b, t, cpu, expires_ns);
	raw_spin_unlock(&b->lock);
	arch_irq_restore(flags);
}

/**
 * timer_add_on - arm a timer on another CPU's list (Linux's add_timer_on())
 * @t: the timer, not pending
 * @expires_ns: when its function should run (clock_ns())
 * @cpu: the CPU whose timer interrupt runs it
 *
 * That CPU may be idle with its tick stopped and its clock event set for
 * what was its first timer (tick.c): a timer that now comes first would
 * wait for that event, or for ever. So the CPU is kicked if it idles, as
 * Linux's wake_up_nohz_cpu() does, and its idle loop programs the event
 * again. An offline CPU runs no timers: t then goes on this CPU's list.
 */
void timer_add_on(struct timer *t, u64 expires_ns, unsigned int cpu)
{
	struct timer_base *b = &bases[cpu];
	unsigned long flags = spin_lock_irqsave(&b->lock);
	bool first;

	if (b->offline) {
		spin_unlock_irqrestore(&b->lock, flags);
		timer_add(t, expires_ns);
		return;
	}
	first = queue_locked(b, t, cpu, expires_ns);
	spin_unlock_irqrestore(&b->lock, flags);
	if (first && !(KERNEL_DEBUG && lose_kick))
		sched_kick_if_idle(cpu);
}

/* Lock the base that holds t, following it if a CPU going offline moves
 * it meanwhile (timer_migrate_away() changes t->cpu under both locks). */
static struct timer_base *lock_timer_base(struct timer *t,
					  unsigned long *flags)
{
	for (;;) {
		unsigned int cpu = READ_ONCE(t->cpu);
		struct timer_base *b = &bases[cpu];

		*flags = spin_lock_irqsave(&b->lock);
		if (READ_ONCE(t->cpu) == cpu)
			return b;
		spin_unlock_irqrestore(&b->lock, *flags);
	}
}

/* Take a timer off its list if it has not fired; true if it had not. */
bool timer_cancel(struct timer *t)
{
	unsigned long flags;
	struct timer_base *b = lock_timer_base(t, &flags);
	bool was_pending = t->pending;

	if (was_pending) {
		list_del(&t->link);
		t->pending = false;
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return was_pending;
}

void timer_with_lock(struct timer *t, void (*fn)(void *arg), void *arg)
{
	unsigned long flags;
	struct timer_base *b = lock_timer_base(t, &flags);

	fn(arg);
	spin_unlock_irqrestore(&b->lock, flags);
}

void timer_rearm(struct timer *t, u64 expires_ns)
{
	t->expires_ns = expires_ns;
	bases[t->cpu].rearm_running = true;
}

/* The expiry of this CPU's first timer, U64_MAX if it has none: what a
 * CPU stopping its tick must still wake for. Interrupts off. */
u64 timer_next_expiry(void)
{
	struct timer_base *b = &bases[this_cpu_id()];
	u64 next = U64_MAX;

	raw_spin_lock(&b->lock);
	if (!list_empty(&b->pending))
		next = list_first_entry(&b->pending, struct timer,
					link)->expires_ns;
	raw_spin_unlock(&b->lock);
	return next;
}

/* Tries at a busy timer lock before the hang report gives up on a list:
 * its holder may be the code the report's NMI interrupted. */
#define PEEK_LOCK_TRIES	100000u

int timer_peek_pending(unsigned int cpu, struct timer_peek *out,
		       unsigned int max)
{
	struct timer_base *b = &bases[cpu];
	struct timer *t;
	int n = 0;

	if (!raw_spin_trylock_bounded(&b->lock, PEEK_LOCK_TRIES))
		return -1;
	list_for_each_entry(t, &b->pending, link) {
		if ((unsigned int)n < max) {
			out[n].expires_ns = t->expires_ns;
			out[n].fn = t->fn;
			out[n].arg = t->arg;
		}
		n++;
	}
	raw_spin_unlock(&b->lock);
	return n;
}

/* From the tick, interrupts off. A callback that rearms goes back on the
 * list once it returns; one whose new expiry has already passed runs
 * again at the next tick, not in this loop. */
void timer_run_expired(void)
{
	struct timer_base *b = &bases[this_cpu_id()];
	u64 now = clock_ns();

	LIST_HEAD(again);
	struct timer *t;

	raw_spin_lock(&b->lock);
	while (!list_empty(&b->pending)) {
		t = list_first_entry(&b->pending, struct timer, link);
		if (t->expires_ns > now)
			break;
		list_del(&t->link);
		t->pending = false;
		b->rearm_running = false;
		t->fn(t->arg);
		if (b->rearm_running) {
			t->pending = true;
			list_add_tail(&t->link, &again);
		}
	}
	while (!list_empty(&again)) {
		t = list_first_entry(&again, struct timer, link);
		list_del(&t->link);
		insert_sorted(b, t);
	}
	raw_spin_unlock(&b->lock);
}

struct sleeper {
	struct thread *thread;
	struct timer timer;
	bool fired;		/* written by the callback, under the lock */
	bool done;		/* fired, as the sleeper saw it under the lock */
};

/* Timer lock held: the sleeper checks `fired` under the same lock. */
static void sleeper_wake(void *arg)
{
	struct sleeper *s = arg;

	s->fired = true;
	wake_up_thread(s->thread);
}

/* Timer lock held, so `fired` is seen only once sleeper_wake() has
 * returned and its CPU let the lock go: the sleeper may then return and
 * its stack frame, which holds s, be reused. A sleeper that read `fired`
 * without the lock could return between the callback's store and its
 * load of s->thread (the sleeper moved to another CPU after arming the
 * timer), and the callback would wake whatever the stack held by then. */
static void sleeper_prepare(void *arg)
{
	struct sleeper *s = arg;

	s->done = s->fired;
	if (!s->done)
		WRITE_ONCE(s->thread->state, THREAD_SLEEPING);
}

/* sleep_ns() and sleep_ms(), which say who called them, for the wait
 * channel. */
static void sleep_from(u64 ns, uptr caller)
{
	struct sleeper s = { .thread = current_thread() };
	u64 deadline;

	s.timer.fn = sleeper_wake;
	s.timer.arg = &s;
	might_sleep();
	/* Reported just now; a build that does not panic on it goes on
	 * without sleeping rather than arm a timer on a CPU it may not
	 * leave. */
	if (preempt_count() || !arch_irqs_enabled())
		return;
	deadline = clock_ns() + ns;
	wchan_begin(&s.thread->wchan, WCHAN_SLEEP, &s.timer, caller, deadline);
	timer_add(&s.timer, deadline);
	for (;;) {
		timer_with_lock(&s.timer, sleeper_prepare, &s);
		if (s.done)
			break;
		schedule();
	}
	WRITE_ONCE(s.thread->state, THREAD_RUNNABLE);
	wchan_end(&s.thread->wchan);
}

void sleep_ns(u64 ns)
{
	sleep_from(ns, WCHAN_CALLER);
}

void sleep_ms(u64 ms)
{
	sleep_from(ms * NSEC_PER_MSEC, WCHAN_CALLER);
}

/* For a CPU going offline, from its idle thread with interrupts off:
 * every pending timer moves to cpu `to`, keeping its expiry. Both bases
 * are locked, lower CPU first, so timer_cancel() finds each timer where
 * it is. `to` may be idle with its tick stopped and its clock event set
 * for its own timers only, so it is nudged to look again. */
void timer_migrate_away(unsigned int cpu, unsigned int to)
{
	struct timer_base *from = &bases[cpu], *dest = &bases[to];
	struct timer *t;

	raw_spin_lock(cpu < to ? &from->lock : &dest->lock);
	raw_spin_lock(cpu < to ? &dest->lock : &from->lock);
	from->offline = true;
	while (!list_empty(&from->pending)) {
		t = list_first_entry(&from->pending, struct timer, link);
		list_del(&t->link);
		WRITE_ONCE(t->cpu, to);
		insert_sorted(dest, t);
	}
	raw_spin_unlock(&dest->lock);
	raw_spin_unlock(&from->lock);
	resched_cpu(to);
}

/* A CPU coming online, before anything can queue a timer on it from
 * elsewhere: timer_add_on() may use its list again. */
void timer_cpu_online(unsigned int cpu)
{
	struct timer_base *b = &bases[cpu];
	unsigned long flags = spin_lock_irqsave(&b->lock);

	b->offline = false;
	spin_unlock_irqrestore(&b->lock, flags);
}

/* The tick's work, from every timer interrupt of every CPU
 * (tick_interrupt()): run the expired timers, then let the scheduler end
 * a slice and RCU look at its grace periods and callbacks. */
void timer_tick(void)
{
	this_cpu()->ticks++;
	timer_run_expired();
	sched_tick();
	rcu_tick();
}
