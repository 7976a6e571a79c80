/*
 * The classic engine's CPU-dead adoption (classic_cpu_dead(), 2.6.10's
 * rcu_move_batch()), where its code differs most from the tree's, staged
 * at the one moment that tells a right adoption from a wrong one: the
 * survivor's current list waits for a batch that is running, the dying
 * CPU holds only callbacks that batch does not cover (a current list
 * booked for the next batch, and a next list in no batch yet), and a
 * reader on a third CPU began after that CPU had reported for the running
 * batch and before the callbacks were queued. Adopted callbacks that join
 * the survivor's running batch run when it ends, under that reader.
 *
 *	cpu0	the test: queues S, which waits for batch b; takes cpu1 down
 *		and adopts its callbacks
 *	cpu1	queues P (its current list, booked for b + 1), then C (its
 *		next list, which stays there while P's batch waits), goes down
 *	cpu2	reports for b, then holds a reader: P and C must wait for it
 *	cpu3	holds a reader from before it has reported for b: b runs
 *		until the test lets it go, after the adoption
 *
 * Every callback that runs while cpu2's reader holds sets a flag (the
 * reader clears its own inside the section, before its unlock); all must
 * run once it ends. White-box: it reads the classic engine's lists and
 * bits, and skips on the tree (test_hotplug_readers.c holds the
 * engine-blind form).
 */
#if !CONFIG_PREEMPT_RCU
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu/classic/classic.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"

#define NEW_CBS		8u
#define ADOPTER_TICKS	20
#define HOLD_TICKS	3	/* a holder's report would come within these */
#define SETUP_TRIES	5

enum hold { HOLD_WAITING, HOLD_HELD, HOLD_MISSED };

struct holder {
	unsigned int cpu;
	long batch;		/* armed for this batch; 0 until armed */
	bool after_report;	/* enter once the CPU has reported for it */
	enum hold state;
	bool inside, release;
};

static struct holder gp_holder = { .cpu = 3 }, reader = { .cpu = 2 };
static struct rcu_head s_head, p_head, c_heads[NEW_CBS];
static bool s_ran, new_ran_under_reader;
static unsigned int new_ran;

static bool batch_runs(long batch)
{
	return READ_ONCE(rcu_ctrlblk.curbatch) == batch &&
	       READ_ONCE(rcu_ctrlblk.nr_owing);
}

/*
 * gp_holder enters its section as soon as its CPU owes the armed batch,
 * spinning without ever passing through schedule() (so its CPU's qsctr
 * stands still); the reader enters once its CPU has reported for it,
 * yielding meanwhile (so that it does). Each stays in until released,
 * and says whether it holds what the test needs.
 */
static void hold_fn(void *arg)
{
	struct holder *h = arg;
	struct percpu *ca = cpu_area(h->cpu);
	long batch;
	u64 ticks;

	for (;;) {
		batch = READ_ONCE(h->batch);
		if (batch && batch_runs(batch) &&
		    classic_peek_owes(h->cpu) != h->after_report)
			break;
		if (READ_ONCE(h->release)) {
			WRITE_ONCE(h->state, HOLD_MISSED);
			return;
		}
		if (!batch || h->after_report)
			yield();
		else
			arch_cpu_relax();
	}
	rcu_read_lock();
	WRITE_ONCE(h->inside, true);
	/* A report already due (its snapshot older than the last pass
	 * through schedule()) comes at one of its next ticks. */
	ticks = READ_ONCE(ca->ticks);
	while (READ_ONCE(ca->ticks) < ticks + HOLD_TICKS)
		arch_cpu_relax();
	WRITE_ONCE(h->state, batch_runs(batch) &&
		   classic_peek_owes(h->cpu) != h->after_report ?
		   HOLD_HELD : HOLD_MISSED);
	while (!READ_ONCE(h->release))
		arch_cpu_relax();
	WRITE_ONCE(h->inside, false);
	rcu_read_unlock();
}

static void s_run(struct rcu_head *head)
{
	(void)head;
	WRITE_ONCE(s_ran, true);
}

static void new_run(struct rcu_head *head)
{
	(void)head;
	if (READ_ONCE(reader.inside))
		WRITE_ONCE(new_ran_under_reader, true);
	atomic_add_relaxed(&new_ran, 1);
}

/* On cpu1: P, and once this CPU's tick has put P on its current list,
 * the C callbacks, which then wait on its next list. */
static void queue_new(void *unused)
{
	unsigned int i;

	(void)unused;
	call_rcu(&p_head, new_run);
	while (!READ_ONCE(classic_data[1].curlist))
		arch_cpu_relax();
	for (i = 0; i < NEW_CBS; i++)
		call_rcu(&c_heads[i], new_run);
}

static struct thread *start_holder(struct holder *h, bool after_report)
{
	h->batch = 0;
	h->after_report = after_report;
	h->state = HOLD_WAITING;
	h->inside = h->release = false;
	return thread_create_on(hold_fn, h, "batch_holder", h->cpu);
}

static void stop_holder(struct holder *h, struct thread *t)
{
	WRITE_ONCE(h->release, true);
	thread_join(t);
}

/* Until the holder has said whether it holds (or the batch it waits for
 * is over without it). */
static bool holds(struct holder *h, long batch)
{
	while (READ_ONCE(h->state) == HOLD_WAITING &&
	       !classic_batch_before(batch, READ_ONCE(rcu_ctrlblk.curbatch)))
		sleep_ms(1);
	while (READ_ONCE(h->inside) && READ_ONCE(h->state) == HOLD_WAITING)
		sleep_ms(1);
	return READ_ONCE(h->state) == HOLD_HELD;
}

/* S on cpu0's current list, booked for a batch that cpu3 holds open and
 * cpu2 has reported for, with cpu2's reader begun: true once all hold. */
static bool stage_running_batch(struct thread **g, struct thread **r,
				long *batch)
{
	WRITE_ONCE(s_ran, false);
	*g = start_holder(&gp_holder, false);
	*r = start_holder(&reader, true);
	if (!*g || !*r)
		return false;
	call_rcu(&s_head, s_run);
	while (!READ_ONCE(classic_data[0].curlist))
		sleep_ms(1);
	*batch = READ_ONCE(classic_data[0].batch);
	WRITE_ONCE(gp_holder.batch, *batch);
	if (!holds(&gp_holder, *batch))
		return false;
	WRITE_ONCE(reader.batch, *batch);
	return holds(&reader, *batch);
}

KTEST_DEFINE(hotplug, classic_adopted_callbacks_skip_the_running_batch, 0,
	     120000, false)
{
	struct thread *g = NULL, *r = NULL, *q;
	unsigned int try;
	bool staged = false, ran_early, cur_booked, next_waits;
	long batch = 0;
	int down;
	u64 ticks;

	if (rcu_engine != &rcu_classic_engine)
		KTEST_SKIP("tests the classic engine; rcu.engine=tree runs");
	if (nr_cpus_online < 4)
		KTEST_SKIP("needs 4 CPUs: a survivor, the dying CPU, a reader "
			   "and a batch holder");
	for (try = 0; try < SETUP_TRIES && !staged; try++) {
		synchronize_rcu();
		staged = stage_running_batch(&g, &r, &batch);
		if (staged)
			break;
		if (g)
			stop_holder(&gp_holder, g);
		if (r)
			stop_holder(&reader, r);
		rcu_barrier();
	}
	if (!staged) {
		KTEST_FAIL("cpu3 reported for the batch before its holder "
			   "entered, or cpu2 never did, in %u tries; expected "
			   "a batch held open", SETUP_TRIES);
		return;
	}
	console_printf("    # staged on try %u: batch %ld held open, cpu2's "
		       "reader begun after its report\n", try + 1, batch);
	WRITE_ONCE(new_ran_under_reader, false);
	WRITE_ONCE(new_ran, 0);
	/* Past here the holders are always let go: their readers would
	 * stall every later test. */
	q = thread_create_on(queue_new, NULL, "queue_new", 1);
	if (q)
		thread_join(q);
	/* Hints, read on another CPU: the lists as cpu1 holds them. */
	cur_booked = READ_ONCE(classic_data[1].batch) == batch + 1;
	next_waits = READ_ONCE(classic_data[1].nxtlist) != NULL;
	down = q ? cpu_down(1) : -1;
	/* Batch b ends: S runs, and so would anything adopted into it. */
	stop_holder(&gp_holder, g);
	while (!classic_batch_before(batch, READ_ONCE(rcu_ctrlblk.curbatch)))
		sleep_ms(1);
	ticks = READ_ONCE(cpu_area(0)->ticks);
	while (READ_ONCE(cpu_area(0)->ticks) < ticks + ADOPTER_TICKS)
		sleep_ms(1);
	ran_early = READ_ONCE(new_ran_under_reader);
	stop_holder(&reader, r);
	rcu_barrier();
	KEXPECT_TRUE(q != NULL);
	KEXPECT_EQ(down, 0);
	KEXPECT_TRUE(READ_ONCE(s_ran));
	KEXPECT_TRUE(cur_booked);
	KEXPECT_TRUE(next_waits);
	KEXPECT_FALSE(ran_early);
	KEXPECT_EQ(READ_ONCE(new_ran), NEW_CBS + 1);
	if (!down)
		KEXPECT_EQ(cpu_up(1), 0);
}
#endif
