/*
 * Spinlocks under contention, three ways: the fair ticket lock, the
 * test-and-set lock with backoff that spinlock.h takes under a hypervisor,
 * and a queued (MCS) lock, in which each waiter spins on its own flag and
 * the holder hands the lock to the next in line. Every CPU takes the one
 * shared lock its share of LOCK_ACQUISITIONS times, with a short critical
 * section; the figure is the wall time per acquisition, all CPUs
 * together. With more vCPUs
 * than host cores this measures lock-waiter preemption: a fair lock (the
 * ticket and the queue) must wait for the one vCPU whose turn it is.
 */
#include "bench.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/spinlock.h"
#include "kernel/time.h"
#include "lib/atomic.h"

#define LOCK_ACQUISITIONS	4000u	/* all CPUs together, per sample */
#define LOCK_ACQUISITIONS_QUICK	100u
#define LOCK_SAMPLES_MAX	5u	/* at -smp 32 a ticket sample takes s */
#define SECTION_PAUSES		20u

enum lock_kind { LOCK_TICKET, LOCK_TAS, LOCK_MCS, NR_LOCK_KINDS };

static const char *const lock_figures[NR_LOCK_KINDS] = {
	"ticket lock, contended", "test-and-set lock with backoff, contended",
	"queued (MCS) lock, contended",
};

struct mcs_node {
	struct mcs_node *next;
	bool locked;
} __aligned(CACHE_LINE);

static struct {
	spinlock_t lock;
	struct mcs_node *mcs_tail;
	enum lock_kind kind;
	unsigned int rounds;
	bool go;
	u64 counter;
} contention;
static DEFINE_PERCPU_ARRAY(struct mcs_node, mcs_nodes);
static DEFINE_PERCPU_ARRAY(struct thread *, contenders);

/* Join the queue; wait until the one before us hands over. The xchg
 * orders our node's set-up before it is reachable; the acquire load of
 * `locked` pairs with the release in mcs_unlock(). */
static void mcs_lock(struct mcs_node *me)
{
	struct mcs_node *prev;

	me->next = NULL;
	me->locked = true;
	prev = xchg(&contention.mcs_tail, me);
	if (!prev)
		return;
	WRITE_ONCE(prev->next, me);
	while (smp_load_acquire(&me->locked))
		arch_cpu_relax();
}

/* Hand over to the next in line, or empty the queue if there is none;
 * one that is joining (tail moved, next not yet set) is waited for. */
static void mcs_unlock(struct mcs_node *me)
{
	struct mcs_node *next = READ_ONCE(me->next);

	if (!next) {
		if (cmpxchg(&contention.mcs_tail, me, NULL) == me)
			return;
		while (!(next = READ_ONCE(me->next)))
			arch_cpu_relax();
	}
	/* Release: our critical section before the next holder's. */
	smp_store_release(&next->locked, false);
}

static void critical_section(void)
{
	unsigned int i;

	WRITE_ONCE(contention.counter, contention.counter + 1);
	for (i = 0; i < SECTION_PAUSES; i++)
		arch_cpu_relax();
}

static void contender(void *unused)
{
	unsigned int i;

	(void)unused;
	while (!smp_load_acquire(&contention.go))
		arch_cpu_relax();
	for (i = 0; i < contention.rounds; i++) {
		struct mcs_node *node;

		preempt_disable();
		switch (contention.kind) {
		case LOCK_TICKET:
			raw_spin_lock_ticket(&contention.lock);
			critical_section();
			raw_spin_unlock(&contention.lock);
			break;
		case LOCK_TAS:
			raw_spin_lock_tas(&contention.lock);
			critical_section();
			raw_spin_unlock(&contention.lock);
			break;
		default:
			node = &mcs_nodes[this_cpu_id()];
			mcs_lock(node);
			critical_section();
			mcs_unlock(node);
			break;
		}
		preempt_enable();
	}
}

/* One sample: every online CPU contends; wall time per acquisition. */
static u64 contend(enum lock_kind kind, unsigned int rounds)
{
	unsigned int cpu, n = 0, total;
	u64 start;

	spin_lock_init(&contention.lock);
	contention.mcs_tail = NULL;
	contention.kind = kind;
	contention.rounds = rounds;
	contention.counter = 0;
	WRITE_ONCE(contention.go, false);
	for_each_online_cpu(cpu) {
		contenders[n] = thread_create_on(contender, NULL, "contender",
						 cpu);
		if (contenders[n])
			n++;
	}
	start = clock_ns();
	smp_store_release(&contention.go, true);
	while (n)
		thread_join(contenders[--n]);
	total = rounds * nr_cpus_online;
	return (clock_ns() - start) / (total ? total : 1);
}

BENCH(lock_contention)
{
	static u64 samples[NR_LOCK_KINDS][LOCK_SAMPLES_MAX];
	unsigned int r, k, n = MIN(b->repeats, LOCK_SAMPLES_MAX);
	unsigned int rounds = (b->quick ? LOCK_ACQUISITIONS_QUICK :
			       LOCK_ACQUISITIONS) / nr_cpus_online;

	/* The kinds take turns, so that host noise hits them alike. */
	for (r = 0; r < n; r++)
		for (k = 0; k < NR_LOCK_KINDS; k++)
			samples[k][r] = contend(k, rounds);
	for (k = 0; k < NR_LOCK_KINDS; k++)
		bench_report(b, lock_figures[k], "ns/acquisition", samples[k], n);
}
