/*
 * The sched suite's lock tests: spinlock, reader-writer lock and mutex
 * exclusion under contention, a thread on each of up to three CPUs at
 * once (ktest_sample_cpus()). Not one on every CPU: the mutex hands
 * itself from CPU to CPU, each hand-off a wake-up of a vCPU the host may
 * not be running, and with a contender on each of 32 vCPUs on two host
 * cores the mutex test took 22 s against 1 s at -smp 2.
 *
 * Each critical section updates a shared counter in two steps, a read
 * and a later write with a pause between them, so that two threads
 * inside at once lose an update and the final count comes out short;
 * with the lock left out the count was short at every -smp above 1.
 */
#include "kernel/sched/mutex.h"
#include "kernel/sched/rwlock.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/spinlock.h"
#include "kernel/test/ktest.h"
#include "kernel/test/ktest_cpus.h"
#include "lib/atomic.h"

/* Small, for -smp 8 on two host cores, where a lock holder's vCPU can be
 * descheduled for milliseconds while the others wait. */
#define LOCK_ROUNDS	500u
/* The window between the read and the write of the counter. */
#define WINDOW_RELAXES	20u

enum lock_kind { SPINLOCK, RWLOCK, MUTEX };

static DEFINE_SPINLOCK(test_spinlock);
static DEFINE_RWLOCK(test_rwlock);
static DEFINE_MUTEX(test_mutex);

/* Written by the lock holder only; plain accesses through READ_ONCE and
 * WRITE_ONCE so that the compiler keeps both steps and the window. */
static u64 counter;
/* Readers of the rwlock that saw the counter move under their read lock. */
static u64 torn_reads;
/* The start gate: contenders that have arrived, and how many will. */
static unsigned int contenders_ready, contenders_total;

static void slow_increment(void)
{
	u64 seen = READ_ONCE(counter);
	unsigned int i;

	for (i = 0; i < WINDOW_RELAXES; i++)
		arch_cpu_relax();
	WRITE_ONCE(counter, seen + 1);
}

/* Under the read lock the counter must stand still. */
static void check_stands_still(void)
{
	u64 before = READ_ONCE(counter);
	unsigned int i;

	for (i = 0; i < WINDOW_RELAXES; i++)
		arch_cpu_relax();
	if (READ_ONCE(counter) != before)
		atomic_add_relaxed(&torn_reads, 1);
}

/* Wait until every contender has started, so that they contend: without
 * the gate, a mutex taken and dropped before the increment instead of
 * held over it went unnoticed in three boots out of six at -smp 32 (a
 * contender whose vCPU the host woke late can find the others done),
 * and in none of five with it. Only a count passes the gate; the
 * counter was reset before any contender began. */
static void wait_for_every_contender(void)
{
	atomic_add_relaxed(&contenders_ready, 1);
	while (READ_ONCE(contenders_ready) < READ_ONCE(contenders_total))
		arch_cpu_relax();
}

static void contender(void *arg)
{
	enum lock_kind kind = (enum lock_kind)(uptr)arg;
	unsigned int i;

	wait_for_every_contender();
	for (i = 0; i < LOCK_ROUNDS; i++) {
		switch (kind) {
		case SPINLOCK:
			spin_lock(&test_spinlock);
			slow_increment();
			spin_unlock(&test_spinlock);
			break;
		case RWLOCK:
			/* Every other round a reader, to mix both sides. */
			if (i % 2) {
				read_lock(&test_rwlock);
				check_stands_still();
				read_unlock(&test_rwlock);
			} else {
				write_lock(&test_rwlock);
				slow_increment();
				write_unlock(&test_rwlock);
			}
			break;
		case MUTEX:
			/* A sleeping lock may be held across a yield: make the
			 * others queue on it, asleep. */
			mutex_lock(&test_mutex);
			slow_increment();
			if (i % 16 == 0)
				yield();
			mutex_unlock(&test_mutex);
			break;
		}
	}
}

/* A contender on each sampled CPU; the count each kind must end at. */
static void contend(struct ktest_context *t, enum lock_kind kind,
		    u64 expected_per_cpu)
{
	struct thread *threads[KTEST_SAMPLE_CPUS];
	unsigned int cpus[KTEST_SAMPLE_CPUS], i, n;

	n = ktest_sample_cpus(cpus, -1);
	counter = 0;
	torn_reads = 0;
	contenders_ready = 0;
	contenders_total = n;
	for (i = 0; i < n; i++) {
		threads[i] = thread_create_on(contender, (void *)(uptr)kind,
					      "lock_contender", cpus[i]);
		/* Open the gate for those already started. */
		if (!threads[i])
			WRITE_ONCE(contenders_total, i);
		KASSERT_TRUE(threads[i] != NULL);
	}
	for (i = 0; i < n; i++)
		thread_join(threads[i]);
	KEXPECT_EQ(counter, expected_per_cpu * n);
	KEXPECT_EQ(torn_reads, 0ull);
}

KTEST_TIMEOUT(sched, spinlock_excludes_under_contention, 120000)
{
	contend(t, SPINLOCK, LOCK_ROUNDS);
}

KTEST_TIMEOUT(sched, rwlock_excludes_under_contention, 120000)
{
	contend(t, RWLOCK, LOCK_ROUNDS / 2);
}

KTEST_TIMEOUT(sched, mutex_excludes_under_contention, 120000)
{
	contend(t, MUTEX, LOCK_ROUNDS);
}
