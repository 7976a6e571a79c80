/*
 * The srcu suite: sleepable readers hold up their own domain's grace
 * periods, callbacks and polled cookies, and nothing else. Each test
 * holds a reader inside its section until the test lets it go, so what
 * "still inside" means never depends on how fast the host runs.
 */
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/srcu.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "kernel/time.h"
#include "lib/atomic.h"

DEFINE_STATIC_SRCU(srcu_a);
DEFINE_STATIC_SRCU(srcu_b);

/* A reader of one domain that sleeps inside its section, first for
 * 10 ms, then until released. */
struct held_reader {
	struct srcu_struct *ssp;
	struct completion inside;
	struct completion release;
	bool leaving;		/* set just before srcu_read_unlock() */
};

static void held_reader_fn(void *arg)
{
	struct held_reader *r = arg;
	int idx = srcu_read_lock(r->ssp);

	complete(&r->inside);
	sleep_ms(10);
	wait_for_completion(&r->release);
	WRITE_ONCE(r->leaving, true);
	srcu_read_unlock(r->ssp, idx);
}

static struct thread *start_held_reader(struct held_reader *r,
					struct srcu_struct *ssp)
{
	struct thread *t;

	r->ssp = ssp;
	r->leaving = false;
	init_completion(&r->inside);
	init_completion(&r->release);
	t = thread_create(held_reader_fn, r, "srcu_reader");
	if (t)
		wait_for_completion(&r->inside);
	return t;
}

/* A synchronize_srcu() in its own thread, noting whether the reader had
 * left when it returned. */
struct waiter {
	struct srcu_struct *ssp;
	struct held_reader *reader;
	bool expedited;
	bool returned;
	bool reader_had_left;
};

static void waiter_fn(void *arg)
{
	struct waiter *w = arg;

	if (w->expedited)
		synchronize_srcu_expedited(w->ssp);
	else
		synchronize_srcu(w->ssp);
	WRITE_ONCE(w->reader_had_left, READ_ONCE(w->reader->leaving));
	WRITE_ONCE(w->returned, true);
}

/* Grace periods of the other domain and of RCU: each must end while the
 * reader sleeps (or the test's watchdog fires), and each gives a wrong
 * early return in the reader's domain time to show. */
static void other_grace_periods(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		synchronize_srcu(&srcu_b);
		synchronize_srcu_expedited(&srcu_b);
		synchronize_rcu();
	}
}

static void reader_holds_up_only_its_domain(struct ktest_context *t,
					    bool expedited)
{
	struct held_reader r;
	struct waiter w = { .ssp = &srcu_a, .reader = &r,
			    .expedited = expedited };
	struct thread *rt = start_held_reader(&r, &srcu_a), *wt;

	KASSERT_TRUE(rt != NULL);
	other_grace_periods(3);
	wt = thread_create(waiter_fn, &w, "srcu_waiter");
	KASSERT_TRUE(wt != NULL);
	other_grace_periods(5);
	KEXPECT_FALSE(READ_ONCE(w.returned));
	complete(&r.release);
	thread_join(wt);
	thread_join(rt);
	KEXPECT_TRUE(w.reader_had_left);
}

KTEST(srcu, sleeping_reader_delays_only_its_own_domain)
{
	reader_holds_up_only_its_domain(t, false);
}

KTEST(srcu, expedited_waits_for_a_sleeping_reader)
{
	reader_holds_up_only_its_domain(t, true);
}

struct counted_cb {
	struct rcu_head rcu;
	struct held_reader *reader;
	unsigned int runs;
	bool ran_under_reader;
};

static void counted_cb_fn(struct rcu_head *head)
{
	struct counted_cb *c = container_of(head, struct counted_cb, rcu);

	if (!READ_ONCE(c->reader->leaving))
		c->ran_under_reader = true;
	c->runs++;
}

#define SRCU_CBS	64

/* Callbacks queued while a reader sleeps run after it leaves, each once,
 * and srcu_barrier() waits for them all. */
KTEST(srcu, call_srcu_runs_each_callback_once_after_the_readers)
{
	static struct counted_cb cbs[SRCU_CBS];
	struct held_reader r;
	struct thread *rt = start_held_reader(&r, &srcu_a);
	unsigned int i, runs = 0, early = 0;

	KASSERT_TRUE(rt != NULL);
	for (i = 0; i < SRCU_CBS; i++) {
		cbs[i] = (struct counted_cb){ .reader = &r };
		call_srcu(&srcu_a, &cbs[i].rcu, counted_cb_fn);
	}
	other_grace_periods(3);
	complete(&r.release);
	thread_join(rt);
	srcu_barrier(&srcu_a);
	for (i = 0; i < SRCU_CBS; i++) {
		runs += cbs[i].runs == 1;
		early += cbs[i].ran_under_reader;
	}
	KEXPECT_EQ(runs, (unsigned int)SRCU_CBS);
	KEXPECT_EQ(early, 0u);
}

/* A cookie taken while a reader sleeps stays incomplete until it leaves,
 * and completes afterwards with nobody calling synchronize_srcu(). */
KTEST(srcu, polled_cookie_waits_for_the_reader)
{
	struct held_reader r;
	struct thread *rt = start_held_reader(&r, &srcu_a);
	unsigned long cookie;

	KASSERT_TRUE(rt != NULL);
	cookie = start_poll_synchronize_srcu(&srcu_a);
	other_grace_periods(5);
	KEXPECT_FALSE(poll_state_synchronize_srcu(&srcu_a, cookie));
	complete(&r.release);
	thread_join(rt);
	while (!poll_state_synchronize_srcu(&srcu_a, cookie))
		sleep_ms(1);
	/* get_state alone starts nothing; synchronize_srcu() ends it. */
	cookie = get_state_synchronize_srcu(&srcu_a);
	KEXPECT_FALSE(poll_state_synchronize_srcu(&srcu_a, cookie));
	synchronize_srcu(&srcu_a);
	KEXPECT_TRUE(poll_state_synchronize_srcu(&srcu_a, cookie));
}

/*
 * Readers that nest, across domains, and come and go on every CPU while
 * an updater replaces and poisons: none sees a poisoned version, and no
 * reader that began before a synchronize_srcu() is still inside when it
 * returns. For the second, each reader notes in its slot the epoch it
 * began in (read after its srcu_read_lock()); the updater takes an epoch
 * before each wait (one locked increment, so a reader that read an epoch
 * no later than it began before the wait) and checks every slot after.
 */
struct srcu_obj {
	unsigned long value;		/* 0: poisoned */
};

#define CHURN_READERS	8
#define CHURN_UPDATES	1000

static struct srcu_obj __rcu *srcu_current;
static bool readers_stop;
static unsigned long poison_seen;
static unsigned long churn_epoch = 1;
static unsigned long churn_slot[CHURN_READERS];	/* 0: outside */

static void churn_reader(void *arg)
{
	unsigned long *slot = &churn_slot[(uptr)arg];
	unsigned int n = 0;

	while (!READ_ONCE(readers_stop)) {
		int outer = srcu_read_lock(&srcu_b);
		int idx = srcu_read_lock(&srcu_a);
		struct srcu_obj *o;

		/* After the lock's barrier B: a plain load, ordered before
		 * the updater's increment if it read the older value. */
		WRITE_ONCE(*slot, READ_ONCE(churn_epoch));
		o = srcu_dereference(srcu_current, &srcu_a);
		if (++n % 4 == 0)
			sleep_ms(1);	/* a sleep inside the section */
		else
			yield();
		if (o && READ_ONCE(o->value) == 0)
			atomic_add_relaxed(&poison_seen, 1);
		/* Before the unlock's barrier C, so before the count that
		 * lets a grace period end. */
		WRITE_ONCE(*slot, 0);
		srcu_read_unlock(&srcu_a, idx);
		srcu_read_unlock(&srcu_b, outer);
	}
}

/* Readers still inside that began no later than epoch `stamp`. */
static unsigned int readers_begun_by(unsigned long stamp)
{
	unsigned int i, n = 0;

	for (i = 0; i < CHURN_READERS; i++) {
		unsigned long e = READ_ONCE(churn_slot[i]);

		n += e && e <= stamp;
	}
	return n;
}

KTEST_TIMEOUT(srcu, no_reader_sees_a_version_freed_under_it, 120000)
{
	/* A ring, so a poisoned version stays poisoned for a while. */
	static struct srcu_obj objs[32];
	struct thread *readers[CHURN_READERS];
	unsigned int i, early = 0;
	unsigned int n = MIN(nr_cpus_online * 2, (unsigned int)CHURN_READERS);

	objs[0].value = 1;
	rcu_assign_pointer(srcu_current, &objs[0]);
	WRITE_ONCE(readers_stop, false);
	WRITE_ONCE(poison_seen, 0);
	for (i = 0; i < n; i++)
		readers[i] = thread_create(churn_reader, (void *)(uptr)i,
					   "srcu_churn");
	for (i = 1; i <= CHURN_UPDATES; i++) {
		struct srcu_obj *old = rcu_dereference_protected(srcu_current,
								 true);
		struct srcu_obj *new = &objs[i % ARRAY_SIZE(objs)];
		unsigned long stamp;

		new->value = i + 1;
		rcu_assign_pointer(srcu_current, new);
		stamp = atomic_fetch_add(&churn_epoch, 1);
		if (i % 3)
			synchronize_srcu(&srcu_a);
		else
			synchronize_srcu_expedited(&srcu_a);
		early += readers_begun_by(stamp);
		WRITE_ONCE(old->value, 0);	/* poison what no reader holds */
		/* A pause between grace periods: a reader that read the
		 * bank before the last flip may count itself in now, in
		 * the bank the next flip makes current again. */
		if (i % 2)
			sleep_ms(1);
	}
	WRITE_ONCE(readers_stop, true);
	for (i = 0; i < n; i++)
		if (readers[i])
			thread_join(readers[i]);
	KEXPECT_EQ(READ_ONCE(poison_seen), 0ul);
	KEXPECT_EQ(early, 0u);
}

/* A domain set up at run time works and is torn down. */
KTEST(srcu, dynamic_domain_init_and_cleanup)
{
	struct srcu_struct ss;
	struct counted_cb cb;
	struct held_reader done = { .leaving = true };
	int idx;

	KASSERT_EQ(init_srcu_struct(&ss), 0);
	idx = srcu_read_lock(&ss);
	srcu_read_unlock(&ss, idx);
	synchronize_srcu(&ss);
	cb = (struct counted_cb){ .reader = &done };
	call_srcu(&ss, &cb.rcu, counted_cb_fn);
	cleanup_srcu_struct(&ss);	/* waits for the callback */
	KEXPECT_EQ(cb.runs, 1u);
	KEXPECT_TRUE(ss.sda == NULL);
}
