/*
 * rcutorture's main thread while the run lasts: the status lines, the
 * stutter pauses, the writer-stall check, and the names of the checks
 * that failed, for the verdict line; and the watchdog of the run's end.
 *
 * The writer-stall check. The writer's version stands still while the
 * writer waits for a grace period. How long that takes depends on the
 * host: under QEMU a loaded host may run a vCPU a few milliseconds a
 * second. A standstill is therefore a stall, and fails the run, only if
 * no grace period at all (normal or expedited, of the flavour tortured)
 * ended while it lasted, for twice RCU's stall timeout
 * (rcu.stall_timeout_ms) and at least a status interval. By then RCU's
 * own stall warning has named what held the grace period up, with its
 * verdict on each holdout. If every warning in that time said "starved"
 * (the host did not run the vCPU), the host was slow, not RCU, and the
 * standstill is not counted either. Each standstill is judged once.
 */
#include "internal.h"
#include "oracle.h"
#include "kernel/printk.h"
#include "kernel/rcu/engine.h"
#include "kernel/rcu/seq.h"
#include "kernel/rcu/stats.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"
#include "lib/format.h"
#include "lib/string.h"

/* A standstill of the writer's version, from the status line that first
 * saw that version, and what RCU had done then. Only the monitor thread
 * touches it. */
struct writer_watch {
	unsigned long version;
	u64 since_ns;
	unsigned long gp_seq;
	u64 exp_completed;
	struct rcu_stats stats;
	bool judged;
};

/* A pipe count of 1 already means a grace period begun after the
 * element's retirement ended under a reader that held it; a batch of 1
 * is a grace period that began before the section and ended in it, so
 * only 2 fails (rcutorture.c explains both). */
static unsigned long hist_sum(const unsigned long *h, unsigned int from)
{
	unsigned long sum = 0;
	unsigned int i;

	for (i = from; i <= TORTURE_PIPE_LEN; i++)
		sum += READ_ONCE(h[i]);
	return sum;
}

static unsigned long pipe_failures(void)
{
	return hist_sum(torture.reader_pipe, 1);
}

static unsigned long batch_failures(void)
{
	return hist_sum(torture.reader_batch, 2);
}

/* A CPU that would not go down or come back. */
static unsigned long onoff_failures(void)
{
	return READ_ONCE(torture.onoff_failures);
}

static unsigned long poison_failures(void)
{
	return READ_ONCE(torture.poison_seen);
}

static unsigned long poll_failures(void)
{
	return READ_ONCE(torture.poll_early);
}

static unsigned long writer_stall_failures(void)
{
	return torture.writer_stalls;
}

static unsigned long oracle_failures(void)
{
	struct oracle_counts oc;

	oracle_get_counts(&oc);
	return oc.violations;
}

static unsigned long boost_failures(void)
{
	return READ_ONCE(torture.boost_failures);
}

/* Every check that counts failures while the run lasts. */
static const struct torture_check {
	const char *name;
	unsigned long (*failures)(void);
} torture_checks[] = {
	{ "reader pipe", pipe_failures },
	{ "reader batch", batch_failures },
	{ "CPU hotplug", onoff_failures },
	{ "poisoned element read", poison_failures },
	{ "polled grace period ended early", poll_failures },
	{ "writer stall", writer_stall_failures },
	{ "oracle", oracle_failures },
	{ "boost", boost_failures },
};

unsigned long torture_errors(void)
{
	unsigned long bad = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(torture_checks); i++)
		bad += torture_checks[i].failures();
	return bad;
}

/* Append the names of the checks that failed to buf ("a, b"), after
 * what buf already holds; the verdict line says them. */
void torture_name_failures(char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(torture_checks); i++)
		if (torture_checks[i].failures())
			torture_name_failure(buf, size, torture_checks[i].name);
}

void torture_name_failure(char *buf, size_t size, const char *name)
{
	size_t n = strlen(buf);

	ksnprintf(buf + n, size - n, "%s%s", n ? ", " : "", name);
}

static void print_hist(const char *what, const unsigned long *h, bool bad)
{
	char line[256];
	size_t n = 0;
	unsigned int i;

	for (i = 0; i <= TORTURE_PIPE_LEN; i++)
		n += ksnprintf(line + n, sizeof(line) - n, " %lu",
			       READ_ONCE(h[i]));
	pr_info("rcu-torture: %s%s: %s\n", bad ? "!!! " : "", what, line);
}

/* A status line with Linux's fields (rcu_torture_stats_print()); with a
 * tail, the run's last, saying how it ended. */
void torture_print_stats(const char *tail)
{
	bool bad = torture_errors() != 0;

	pr_info("rcu-torture: rtc: %p ver: %lu tfle: %d rta: %lu rtaf: %lu "
		"rtf: %lu rtmbe: %lu rtpoll: %lu rtbf: %lu rtb: %lu nt: %lu "
		"onoff: %lu/%lu:%lu/%lu\n",
		(void *)rcu_access_pointer(torture.current),
		READ_ONCE(torture.version), torture.pool_empty ? 1 : 0,
		READ_ONCE(torture.free_circulation[0]),
		READ_ONCE(torture.pool_empty), READ_ONCE(torture.frees),
		READ_ONCE(torture.poison_seen), READ_ONCE(torture.poll_early),
		READ_ONCE(torture.boost_failures), READ_ONCE(torture.boosts),
		READ_ONCE(torture.sections),
		READ_ONCE(torture.offline_successes),
		READ_ONCE(torture.offline_attempts),
		READ_ONCE(torture.online_successes),
		READ_ONCE(torture.online_attempts));
	print_hist("Reader Pipe", torture.reader_pipe, bad);
	print_hist("Reader Batch", torture.reader_batch, bad);
	print_hist("Free-Block Circulation", torture.free_circulation, false);
	if (tail)
		pr_info("rcu-torture:--- %s: type=%s nreaders=%u "
			"nfakewriters=%u stat_interval=%u secs=%u gp=%s\n",
			tail, torture.ops->name,
			torture.cfg.readers, torture.cfg.fakewriters,
			torture.cfg.stat_interval, torture.cfg.secs,
			torture.cfg.gp);
}

/*
 * Threads sit a pause out on a wait queue, not in timed sleeps: a timer
 * would wake them on the CPUs the hogs must have to themselves.
 * Lock-free stutter: the monitor writes it before wake_up_all() takes the
 * queue's lock, and a sitter tests it after prepare_to_wait() took the
 * same lock, so a sitter either sees the new value or is on the queue
 * when the wake-up comes.
 */
void torture_sit_out_pause(void)
{
	wait_event(&torture.pause_end,
		   READ_ONCE(torture.stutter) == STUTTER_NONE ||
		   READ_ONCE(torture.stop));
}

static void set_stutter(enum torture_stutter next)
{
	if (next == torture.stutter)	/* the monitor's own */
		return;
	WRITE_ONCE(torture.stutter, next);
	if (next == STUTTER_NONE)
		wake_up_all(&torture.pause_end);
}

/* The writer's version moved (or the run began): a new standstill may
 * begin here, judged against what RCU has done from now on. */
static void writer_watch_restart(struct writer_watch *w,
				 unsigned long version, u64 now)
{
	w->version = version;
	w->since_ns = now;
	w->gp_seq = torture.ops->gp_seq();
	w->exp_completed = torture.ops->exp_completed();
	rcu_get_stats(&w->stats);
	w->judged = false;
}

/* Did any grace period, normal or expedited, end since the standstill
 * began? One running then ends at gp_seq + 1, one begun later at + 2. */
static bool grace_period_ended_since(const struct writer_watch *w)
{
	return rcu_seq_done(torture.ops->gp_seq(), (w->gp_seq + 2) & ~1ul) ||
	       torture.ops->exp_completed() != w->exp_completed;
}

/* A stall warning during the run fails it too: it is how a missing
 * nudge shows when the hogs run alone. Not one whose every holdout the
 * host had starved (the warning says so): a loaded host is not a bug,
 * and the verdict must not depend on how fast the host ran the test.
 * The stall warnings since `before` that count, and in *starved those
 * that do not. */
u64 torture_counted_stalls(const struct rcu_stats *before, u64 *starved)
{
	struct rcu_stats s;

	rcu_get_stats(&s);
	*starved = s.stalls_starved - before->stalls_starved;
	return s.stalls - before->stalls - *starved;
}

/* Did RCU warn of stalls since, each naming only vCPUs the host starved? */
static bool only_starved_stalls_since(const struct writer_watch *w)
{
	u64 starved, counted = torture_counted_stalls(&w->stats, &starved);

	return starved && !counted;
}

/* The header's rule, checked at each status line and at the end. */
static void check_writer(struct writer_watch *w, u64 now)
{
	unsigned long version = READ_ONCE(torture.version);
	u64 bound = MAX(2ull * rcu_stall_timeout_ms * NSEC_PER_MSEC,
			(u64)torture.cfg.stat_interval * NSEC_PER_SEC);
	u64 secs = (now - w->since_ns) / NSEC_PER_SEC;

	if (version != w->version) {
		writer_watch_restart(w, version, now);
		return;
	}
	if (w->judged || now - w->since_ns < bound)
		return;
	w->judged = true;
	if (grace_period_ended_since(w)) {
		pr_info("rcu-torture: the writer's version %lu has not moved "
			"for %llu s, but grace periods ended: it waits its "
			"turn, not a stall\n", version, secs);
		return;
	}
	if (only_starved_stalls_since(w)) {
		pr_info("rcu-torture: no grace period ended for %llu s, and "
			"each stall warning named only vCPUs the host starved: "
			"not counted as a writer stall\n", secs);
		return;
	}
	torture.writer_stalls++;
	pr_err("rcu-torture: ??? Writer stall state: ver %lu unchanged for "
	       "%llu s, and no grace period ended in that time\n", version,
	       secs);
	/* As Linux's rcutorture shows the GP kthreads: what RCU and every
	 * thread are doing, once per run. */
	if (torture.writer_stalls == 1) {
		rcu_show_gp_state();
		sched_show_state();
	}
}

/* The main thread: status lines, stutter, writer-stall checks. */
void torture_monitor(const bool *stop)
{
	u64 start = clock_ns(), now = start;
	u64 end = start + torture.cfg.secs * NSEC_PER_SEC;
	u64 next_stat = start + torture.cfg.stat_interval * NSEC_PER_SEC;
	struct writer_watch watch;

	writer_watch_restart(&watch, READ_ONCE(torture.version), start);
	while (now < end && !(stop && READ_ONCE(*stop))) {
		u64 ms = (now - start) / NSEC_PER_MSEC;
		bool paused = ms % STUTTER_PERIOD_MS >=
			      STUTTER_PERIOD_MS - STUTTER_PAUSE_MS;

		/* The pauses take turns: hogs alone, then everyone idle. */
		set_stutter(!paused ? STUTTER_NONE :
			    ms / STUTTER_PERIOD_MS % 2 ? STUTTER_IDLE :
			    STUTTER_HOGS);
		if (now >= next_stat) {
			check_writer(&watch, now);
			torture_print_stats(NULL);
			next_stat += torture.cfg.stat_interval * NSEC_PER_SEC;
		}
		sleep_ms(20);
		now = clock_ns();
	}
	/* A standstill that reached its bound after the last status line. */
	check_writer(&watch, now);
	set_stutter(STUTTER_NONE);
}

/*
 * The run's end (hotplug and interrupt readers stopped, the flood, every
 * thread joined, the callbacks waited for) has no time limit of its own:
 * a hang there would end the boot at its timeout with no word of where.
 * A watchdog thread shows, once, what RCU and every thread are doing if
 * the end takes longer than TEARDOWN_REPORT_SECS. Not a failure in
 * itself: on a starved host the end may only be slow.
 */
#define TEARDOWN_REPORT_SECS	60

static struct teardown_watch {
	bool done;		/* WRITE_ONCE by the main thread */
	struct thread *thread;
} teardown_watch;

static void teardown_watchdog(void *unused)
{
	u64 deadline = clock_ns() + TEARDOWN_REPORT_SECS * NSEC_PER_SEC;

	(void)unused;
	/* Polled, not waited for: the main thread may be the one stuck. */
	while (!READ_ONCE(teardown_watch.done)) {
		if (clock_ns() >= deadline) {
			pr_info("rcu-torture: the run's end has taken %u s so "
				"far; what RCU and every thread are doing:\n",
				TEARDOWN_REPORT_SECS);
			rcu_show_gp_state();
			sched_show_state();
			return;
		}
		sleep_ms(100);
	}
}

void torture_teardown_watch_start(void)
{
	WRITE_ONCE(teardown_watch.done, false);
	teardown_watch.thread = thread_create(teardown_watchdog, NULL,
					      "rcu_torture_end_watch");
}

void torture_teardown_watch_stop(void)
{
	WRITE_ONCE(teardown_watch.done, true);	/* the watchdog polls it */
	if (teardown_watch.thread)
		thread_join(teardown_watch.thread);
	teardown_watch.thread = NULL;
}
