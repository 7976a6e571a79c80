/*
 * The hang report: what every CPU and thread waits on, printed when an
 * NMI comes for no known reason (arch/x86_64/nmi.c). That is how the
 * outside asks: tests/boot sends one through QEMU's monitor when a boot
 * times out (HMP `nmi`, to every vCPU). Linux's sysrq-t and
 * /proc/timer_list in one: each CPU's place, tick, clock event and first
 * timers; each thread's state and wait channel (wchan.h); RCU's and
 * SRCU's grace periods; then HANG_END_LINE, which a harness waits for.
 *
 * Every CPU gets the NMI. The first to claim the report prints it; the
 * others note where they were, so that the report can show each CPU's
 * place, and wait in their NMI until it ends (HANG_HOLD_NS at most): an
 * NMI is also a wake-up, and a CPU back from it would run what it was
 * woken for, a lost timer say, while the report shows it. An NMI that
 * comes within HANG_BURST_GAP_NS of a report's end is of that report's
 * burst: it only notes.
 *
 * NMI context: the interrupted code may hold any lock, this CPU's too.
 * So the report reads other CPUs' state lock-free (READ_ONCE), takes the
 * timer and thread-table locks only if they come free soon, and prints
 * through console_nmi_begin(), which never waits for ever either. Once
 * the report ends, a CPU halted in idle returns to its idle loop, which
 * may end the very hang shown (a lost kick, for one).
 */
#include "hang_report.h"
#include "internal.h"
#include "tick.h"
#include "timer.h"
#include "wchan.h"
#include "kernel/entry.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "kernel/rcu/srcu.h"
#include "kernel/rcu/stats.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/format.h"

#define HANG_END_LINE		"--- end of hang report ---"
#define HANG_TIMERS_SHOWN	4
/* How long the reporter waits for the other CPUs' notes: they take the
 * same NMI, unless the host is not running their vCPU. */
#define HANG_GATHER_NS		(500 * NSEC_PER_MSEC)
#define HANG_BURST_GAP_NS	(2 * NSEC_PER_SEC)
/* Bounded: a reporter that dies must not keep every CPU in its NMI. */
#define HANG_HOLD_NS		(10 * NSEC_PER_SEC)
#define NO_REPORTER		(~0u)

/* The CPU printing the report, claimed by cmpxchg, given back with a
 * release store once burst_end_ns is set (WRITE_ONCE); the next claimer's
 * cmpxchg is a full barrier, so it then sees burst_end_ns. */
static u32 reporter = NO_REPORTER;
static u64 burst_end_ns;
/* NMIs of no known reason taken, counted by each CPU before it returns
 * (atomic add; READ_ONCE). */
static u64 nmis;
/* Each CPU's place at its last such NMI, and when (see note_place()). */
static DEFINE_PERCPU_ARRAY(uptr, noted_ip);
static DEFINE_PERCPU_ARRAY(u64, noted_ns);

static void note_place(unsigned int cpu, uptr ip, u64 now)
{
	WRITE_ONCE(noted_ip[cpu], ip);
	/* Release: the place before its moment; pairs with the acquire in
	 * noted_since(). */
	smp_store_release(&noted_ns[cpu], now);
}

/* Whether cpu noted its place at or after `since`. */
static bool noted_since(unsigned int cpu, u64 since)
{
	return smp_load_acquire(&noted_ns[cpu]) >= since;
}

/* Wait, a bounded time, for every online CPU to note its place. */
static void gather_notes(u64 since)
{
	u64 deadline = clock_ns() + HANG_GATHER_NS;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		while (!noted_since(cpu, since) && clock_ns() < deadline)
			arch_cpu_relax();
}

/* A CPU that does not print: back to what it did only once the report
 * is out (see above). */
static void wait_for_report(u64 start)
{
	while (READ_ONCE(reporter) != NO_REPORTER &&
	       clock_ns() < start + HANG_HOLD_NS)
		arch_cpu_relax();
}

/* The clock event, and what the CPU's tick waits for besides. */
static void describe_tick(char *buf, size_t len, unsigned int cpu, u64 now,
			  u64 *event_ns)
{
	struct tick_cpu_stats ts;
	char event[32] = "none", other[32] = "none";

	tick_cpu_stats(cpu, &ts);
	*event_ns = ts.programmed_ns;
	if (!nohz_enabled) {
		ksnprintf(buf, len, "periodic (nohz=off)");
		return;
	}
	if (ts.programmed_ns)
		format_ms_from_now(event, sizeof(event), ts.programmed_ns, now);
	if (ts.stopped && ts.rcu_wake_ns)
		format_ms_from_now(other, sizeof(other), ts.rcu_wake_ns, now);
	else if (!ts.stopped)
		format_ms_from_now(other, sizeof(other), ts.next_tick_ns, now);
	ksnprintf(buf, len, "tick %s, clock event %s, %s %s",
		  ts.stopped ? "stopped" : "ticking", event,
		  ts.stopped ? "rcu wake" : "next tick", other);
}

/**
 * hang_timer_lost - whether nothing will run a CPU's first timer
 * @halted: the CPU halts in its idle loop
 * @expires_ns: its first timer's expiry
 * @event_ns: its clock event's moment, 0 for none
 * @now: clock_ns() when the state was read
 *
 * A halted CPU wakes for its clock event or an interrupt from outside.
 * With its first timer overdue and no event set for that timer (none at
 * all, or one for later), only the latter would run it: a lost wake-up,
 * the kick timer_add_on() owes an idle CPU, say. An event due no later
 * than the timer is merely late, a vCPU the host has not run.
 */
bool hang_timer_lost(bool halted, u64 expires_ns, u64 event_ns, u64 now)
{
	return halted && expires_ns < now &&
	       (!event_ns || event_ns > expires_ns);
}

/* The first timers of cpu, and whether the first is lost (above). */
static void show_timers(unsigned int cpu, u64 now, u64 event_ns, bool halted)
{
	struct timer_peek tp[HANG_TIMERS_SHOWN];
	int n = timer_peek_pending(cpu, tp, HANG_TIMERS_SHOWN), i;
	char due[32], fn[64];

	if (n < 0) {
		pr_err("hang: cpu%u timers: list locked, not shown\n", cpu);
		return;
	}
	for (i = 0; i < n && i < HANG_TIMERS_SHOWN; i++)
		pr_err("hang: cpu%u timer %d of %d: due %s, %s(%p)\n", cpu,
		       i + 1, n,
		       format_ms_from_now(due, sizeof(due), tp[i].expires_ns,
					  now),
		       ksym_format(fn, sizeof(fn), (uptr)tp[i].fn), tp[i].arg);
	if (n > 0 && hang_timer_lost(halted, tp[0].expires_ns, event_ns, now))
		pr_err("hang: cpu%u halts in idle with a timer due %llu ms ago "
		       "and its clock event %s: nothing will run that timer\n",
		       cpu, (now - tp[0].expires_ns) / NSEC_PER_MSEC,
		       event_ns ? "later" : "none");
}

/* One line per CPU: online, its place at the NMI, what runs there, its
 * tick; then its timers. */
static void show_cpu(unsigned int cpu, u64 now, u64 since)
{
	struct run_queue *rq = &run_queues[cpu];
	struct thread *cur = READ_ONCE(rq->current);
	bool halted = READ_ONCE(rq->idle_waiting);
	char where[64] = "no NMI seen", runs[48], tick[96];
	u64 event_ns;

	if (noted_since(cpu, since))
		ksym_format(where, sizeof(where), READ_ONCE(noted_ip[cpu]));
	if (!cur)
		ksnprintf(runs, sizeof(runs), "no thread");
	else if (cur == rq->idle)
		ksnprintf(runs, sizeof(runs), "%s",
			  halted ? "halted in idle" : "in its idle loop");
	else	/* the running thread: alive while it runs */
		ksnprintf(runs, sizeof(runs), "running %s/%llu", cur->name,
			  cur->id);
	describe_tick(tick, sizeof(tick), cpu, now, &event_ns);
	pr_err("hang: cpu%u %s, at %s, %s; %s\n", cpu,
	       READ_ONCE(cpu_area(cpu)->online) ? "online" : "offline", where,
	       runs, tick);
	show_timers(cpu, now, event_ns, halted);
}

/* One line per thread but the idle ones; a sleeper's with its wait. */
static void show_thread(struct thread *t, void *arg)
{
	const u64 *now = arg;
	enum thread_state state = READ_ONCE(t->state);
	bool running = READ_ONCE(t->on_cpu), queued = READ_ONCE(t->on_queue);
	char wait[160];

	if (t->is_idle)
		return;
	if (state == THREAD_SLEEPING && !running && !queued)
		pr_err("hang: thread %s/%llu sleeping, cpu%u: %s\n", t->name,
		       t->id, READ_ONCE(t->cpu),
		       wchan_describe(wait, sizeof(wait), t, *now));
	else
		pr_err("hang: thread %s/%llu %s, cpu%u%s%s\n", t->name, t->id,
		       thread_state_name(state), READ_ONCE(t->cpu),
		       running ? ", running" : "", queued ? ", queued" : "");
}

static void print_report(unsigned int me, u64 since)
{
	u64 now = clock_ns();
	unsigned int cpu;
	bool locked = console_nmi_begin();
	char where[64];

	pr_err("hang: report by cpu%u, for an NMI of no known reason%s\n", me,
	       locked ? "" : " (console busy: lines may mix)");
	/* Before kernel_init() brings the boot CPU online, the timers and
	 * threads may not be set up: only this CPU's place is known. */
	if (!READ_ONCE(nr_cpus_online)) {
		pr_err("hang: early in boot, at %s: nothing else to show\n",
		       ksym_format(where, sizeof(where),
				   READ_ONCE(noted_ip[me])));
	} else {
		for (cpu = 0; cpu < nr_cpus; cpu++)
			show_cpu(cpu, now, since);
		if (!thread_table_try_walk(show_thread, &now))
			pr_err("hang: thread table locked, threads not "
			       "shown\n");
		rcu_show_gp_state();
		srcu_show_state();
	}
	pr_err(HANG_END_LINE "\n");
	console_nmi_end();
}

/**
 * hang_report_nmi - an NMI of no known reason: the outside asks for a report
 * @ip: where this CPU was
 *
 * Context: NMI, on every CPU of the burst. One prints; see above.
 */
void hang_report_nmi(uptr ip)
{
	unsigned int cpu = this_cpu_id();
	u64 start = clock_ns();
	/* The burst's notes: those since the gathering time before now. */
	u64 since = start - MIN(start, HANG_GATHER_NS);

	note_place(cpu, ip, start);
	atomic_add_relaxed(&nmis, 1);
	if (cmpxchg(&reporter, NO_REPORTER, cpu) != NO_REPORTER) {
		wait_for_report(start);
		return;
	}
	if (!READ_ONCE(burst_end_ns) ||
	    start > READ_ONCE(burst_end_ns) + HANG_BURST_GAP_NS) {
		gather_notes(since);
		print_report(cpu, since);
		WRITE_ONCE(burst_end_ns, clock_ns());
	}
	/* Release: burst_end_ns before the next claim; see reporter. */
	smp_store_release(&reporter, NO_REPORTER);
}

/**
 * hang_report_request - print the hang report now, from inside the kernel
 *
 * For a watchdog that sees a wait outlast any reason (the self-test
 * runner's, around its rcu_barrier()): the same NMI as a timed-out boot's,
 * to every online CPU, so that the report shows each CPU's place too.
 * Context: any, interrupts on or off; the report prints before the NMI
 * of this CPU returns.
 */
void hang_report_request(void)
{
	arch_nmi_every_cpu();
}

u64 hang_report_nmis(void)
{
	return READ_ONCE(nmis);
}
