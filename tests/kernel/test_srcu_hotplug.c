/*
 * The srcu_hotplug suite: an SRCU reader whose CPU goes offline inside
 * its section. The reader counts its lock on cpu1 and, once cpu1 is down
 * and the reader has moved, its unlock on another CPU; a grace period
 * must still wait for it, so its sums must take in the counts of a CPU
 * that is offline. Whether the grace period ended too early is judged by
 * flags, never by time: the reader checks, just before it unlocks, that
 * the waiter's synchronize_srcu() has not returned.
 */
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/srcu.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"

DEFINE_STATIC_SRCU(srcu_hp);

/* RCU grace periods the test waits for once the waiter has flipped the
 * bank; in each the waiter's thread runs and sums the old bank again, so
 * an early end has every chance to show, whatever the host's speed. */
#define HP_OTHER_GPS	5

struct hp_run {
	struct completion inside;	/* the reader holds its lock */
	struct completion release;	/* the test lets it go */
	int idx;			/* the reader's bank */
	unsigned int lock_cpu, unlock_cpu;
	bool ended_inside;		/* the reader saw the wait return */
	bool leaving;			/* set just before srcu_read_unlock() */
	bool returned;			/* synchronize_srcu() returned */
	bool reader_had_left;		/* ... after the reader's unlock */
};

/* Lock on cpu1, or give up at once if the thread started elsewhere (the
 * test starts another). Preemption is off around the lock so that the
 * CPU read is the one whose lock count went up. */
static void hp_reader_fn(void *arg)
{
	struct hp_run *r = arg;

	preempt_disable();
	r->lock_cpu = this_cpu_id();
	r->idx = srcu_read_lock(&srcu_hp);
	preempt_enable();
	if (r->lock_cpu != 1) {
		srcu_read_unlock(&srcu_hp, r->idx);
		complete(&r->inside);
		return;
	}
	complete(&r->inside);
	/* Asleep here while cpu1 goes down; the wake-up queues the thread
	 * on the CPU that became its home. */
	wait_for_completion(&r->release);
	r->unlock_cpu = this_cpu_id();
	/* Acquire: pairs with the waiter's release of returned; a wait
	 * that ended before this point is seen here. */
	WRITE_ONCE(r->ended_inside, smp_load_acquire(&r->returned));
	/* Read by the waiter after synchronize_srcu() returns, which the
	 * unlock's barrier C orders after this store. */
	WRITE_ONCE(r->leaving, true);
	srcu_read_unlock(&srcu_hp, r->idx);
}

static void hp_waiter_fn(void *arg)
{
	struct hp_run *r = arg;

	synchronize_srcu(&srcu_hp);
	WRITE_ONCE(r->reader_had_left, READ_ONCE(r->leaving));
	/* Release: the note above before the flag the reader acquires. */
	smp_store_release(&r->returned, true);
}

/*
 * cpu1 goes down while a reader that locked there sleeps in its section;
 * a synchronize_srcu() started after that must not return before the
 * reader, now on another CPU, unlocks.
 */
KTEST_DEFINE(srcu_hotplug, reader_outlives_its_cpu, 0, 120000, false)
{
	struct thread *reader, *waiter;
	struct hp_run r = { .lock_cpu = MAX_CPUS, .unlock_cpu = MAX_CPUS };
	struct cpumask two;
	unsigned int i;

	if (nr_cpus < 2)
		KTEST_SKIP("needs 2 CPUs");
	/* Allowed on cpu0 and cpu1: it can move to cpu0 when cpu1 goes
	 * down, and starts on cpu1 whenever cpu1 is idle, since this body
	 * keeps cpu0 busy. Started again until it did. */
	cpumask_clear(&two);
	cpumask_set(&two, 0);
	cpumask_set(&two, 1);
	init_completion(&r.release);
	for (;;) {
		init_completion(&r.inside);
		reader = thread_create_mask(hp_reader_fn, &r,
					    "srcu_hp_reader", &two);
		KASSERT_TRUE(reader != NULL);
		wait_for_completion(&r.inside);
		if (r.lock_cpu == 1)
			break;
		thread_join(reader);
		sleep_ms(1);
	}
	KASSERT_EQ(cpu_down(1), 0);
	waiter = thread_create(hp_waiter_fn, &r, "srcu_hp_waiter");
	KASSERT_TRUE(waiter != NULL);
	/* The flip (step 2) has happened once the bank new readers use is
	 * no longer the reader's: the waiter now sums the reader's bank.
	 * Lock-free poll of the index the waiter's grace period flips. */
	while ((READ_ONCE(srcu_hp.idx) & 1) == (unsigned long)r.idx)
		sleep_ms(1);
	for (i = 0; i < HP_OTHER_GPS; i++)
		synchronize_rcu();
	KEXPECT_FALSE(smp_load_acquire(&r.returned));
	complete(&r.release);
	thread_join(reader);
	thread_join(waiter);
	console_printf("    # locked on cpu%u, unlocked on cpu%u after cpu1 "
		       "went down\n", r.lock_cpu, r.unlock_cpu);
	KEXPECT_EQ(r.lock_cpu, 1u);
	KEXPECT_NE(r.unlock_cpu, 1u);
	KEXPECT_FALSE(r.ended_inside);
	KEXPECT_TRUE(r.reader_had_left);
	KEXPECT_EQ(cpu_up(1), 0);
}
