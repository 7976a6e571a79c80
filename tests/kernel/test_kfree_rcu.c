/*
 * The kfree_rcu suite: memory handed to kfree_rcu() always comes back,
 * within a bounded number of rounds, from a CPU with no other RCU traffic
 * and from a CPU that goes offline with its block open. kfree.c promises
 * that an open block is queued by its CPU's next tick, or as the CPU goes
 * offline; its callback then waits for a grace period, and runs after a
 * tick moves it to the done segment. So a round here is a tick on every
 * online CPU and then a grace period: a count of events, never a time,
 * and rcu_barrier() is never used to wait, since it queues every open
 * block itself and would hide the very bug looked for.
 */
#include "kernel/hotplug.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/race.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/tick.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"

#define KFREE_OBJS	8
/* Freed in three rounds at most (queued, grace period, invoked); the
 * rest is slack for a host that runs the vCPUs unevenly. */
#define KFREE_ROUNDS	10
/* The offline test's tries: a tick between kfree_rcu() and the CPU's
 * last steps would queue the block before the offline path is reached,
 * which is possible, if unlikely, once; not three times. */
#define OFFLINE_TRIES	3
/* The idle test's rounds, for the same reason: a tick between the last
 * kfree_rcu() and the tick's stop queues the block anyway. */
#define IDLE_ROUNDS	8

/* kfree_rcu() then rcu_barrier(), with race.windows= so many times that
 * a tick lands in a held flush window (one flush in 8 holds it, for up
 * to 30 us, or 1 in 64 of those up to 2 ms, against a tick each 1 ms);
 * without, a few rounds check that each block comes back. */
#define BARRIER_ROUNDS_WINDOWS	2000
#define BARRIER_ROUNDS		20

/* Large enough that nothing else running at the time takes objects
 * from its size class (kmalloc_class_of(): 1024 bytes, or 2048 with
 * KASAN's redzone), so that the class's objects in use count these. */
struct big_obj {
	struct rcu_head rcu;
	u8 payload[1000];
};

static struct big_obj *objs[KFREE_OBJS];

static u64 big_objects_in_use(void)
{
	struct kmalloc_class_stats s[KMALLOC_NR_CLASSES];
	int class = kmalloc_class_of(sizeof(struct big_obj));

	kmalloc_get_stats(s);
	return class >= 0 ? s[class].objects_in_use : 0;
}

static bool alloc_objs(void)
{
	unsigned int i;

	for (i = 0; i < KFREE_OBJS; i++) {
		objs[i] = kmalloc(sizeof(struct big_obj));
		if (!objs[i]) {
			while (i-- > 0)
				kfree(objs[i]);
			return false;
		}
	}
	return true;
}

static void kfree_rcu_objs(void)
{
	unsigned int i;

	for (i = 0; i < KFREE_OBJS; i++)
		kfree_rcu(objs[i], rcu);
}

/* Whether cpu has ticked since `seen`, or idles with its tick stopped and
 * no wake-up asked by RCU: then it has nothing for its tick to queue. A
 * stopped CPU with an open block keeps a wake-up (rcu_needs_cpu()), and
 * must tick: counting it at once let ten rounds of grace periods end
 * inside its 4 ms of sleep on a loaded host, and the test fail. */
static bool ticked_or_stopped(unsigned int cpu, u64 seen)
{
	struct tick_cpu_stats s;

	tick_cpu_stats(cpu, &s);
	return s.taken != seen || (s.stopped && !s.rcu_wake_ns);
}

static DEFINE_PERCPU_ARRAY(u64, ticks_seen);

/* One round: every online CPU takes a tick (or has stopped its tick),
 * then a grace period ends. A vCPU the host does not run holds the round
 * up; it never fails it. */
static void tick_everywhere_then_gp(void)
{
	unsigned int cpu;

	/* Each CPU's own count, written only by its tick: READ_ONCE so
	 * that the loop reads it again, as fqs.c does. */
	for_each_online_cpu(cpu)
		ticks_seen[cpu] = READ_ONCE(cpu_area(cpu)->ticks);
	for_each_online_cpu(cpu)
		while (!ticked_or_stopped(cpu, ticks_seen[cpu]))
			yield();
	synchronize_rcu();
}

/* Rounds until the objects are back (at most KFREE_ROUNDS), and whether
 * they are. */
static bool wait_for_frees(u64 in_use_before, unsigned int *rounds)
{
	for (*rounds = 0; big_objects_in_use() > in_use_before &&
	     *rounds < KFREE_ROUNDS; (*rounds)++)
		tick_everywhere_then_gp();
	return big_objects_in_use() <= in_use_before;
}

/* A CPU whose only RCU use is kfree_rcu(): no callback of call_rcu()
 * waits anywhere (the runner's rcu_barrier() before each test ran them
 * all, and synchronize_rcu() queues none), yet the block is queued by the
 * tick, not left until it fills or someone calls rcu_barrier(). */
KTEST(kfree_rcu, block_freed_on_a_cpu_without_callbacks)
{
	u64 before = big_objects_in_use();
	unsigned int rounds;

	KASSERT_TRUE(alloc_objs());
	/* The class watched is the one the objects came from. */
	KEXPECT_EQ(big_objects_in_use() - before, (u64)KFREE_OBJS);
	kfree_rcu_objs();
	if (!wait_for_frees(before, &rounds))
		KTEST_FAIL("%llu of %u objects still allocated after %u "
			   "rounds of a tick on every CPU and a grace period",
			   big_objects_in_use() - before, KFREE_OBJS, rounds);
	else
		console_printf("    # freed after %u rounds\n", rounds);
}

/*
 * Runs on the CPU going offline, as a per-CPU thread, which that CPU
 * keeps running until it ends. Once the CPU has left the online set, it
 * waits for a tick and then opens a block at once: the CPU's last steps
 * follow its end within microseconds, long before the next tick, so the
 * block is still open when the CPU goes offline. It spins, never sleeps:
 * asleep, it would let its CPU park, and not run again until it came back.
 */
static void kfree_rcu_as_cpu_leaves(void *arg)
{
	struct percpu *pc = cpu_area((unsigned int)(uptr)arg);
	u64 seen;

	/* Written by cpu_down() (smp_call_set_online()), which orders
	 * nothing for us: it is only a signal to go on. */
	while (READ_ONCE(pc->online))
		arch_cpu_relax();
	seen = READ_ONCE(pc->ticks);
	while (READ_ONCE(pc->ticks) == seen)
		arch_cpu_relax();
	kfree_rcu_objs();
}

/* The leaving CPU's open block is queued as it goes, and its callback
 * moves with the others: the objects come back while it is offline.
 * Whether to try again (the CPU is back, and nothing failed). */
static bool freed_while_offline(struct ktest_context *t, unsigned int cpu,
				unsigned int try)
{
	u64 before = big_objects_in_use();
	struct thread *leaver;
	unsigned int rounds;
	bool freed;

	KTEST_CHECK_BOOL(t, alloc_objs(), "alloc_objs()", true, return false);
	leaver = thread_create_on(kfree_rcu_as_cpu_leaves, (void *)(uptr)cpu,
				  "kfree_leaver", cpu);
	KTEST_CHECK_BOOL(t, leaver != NULL, "leaver != NULL", true,
			 return false);
	/* Before cpu_down() tells the CPU to go down: its reschedule IPI
	 * and run queue lock order this store before the CPU's choice of
	 * what to run (as for the rcuc threads, callbacks.c). */
	thread_mark_per_cpu(leaver);
	KTEST_CHECK_CMP(t, cpu_down(cpu), ==, 0, "cpu_down(cpu)", "0",
			return false);
	thread_join(leaver);
	freed = wait_for_frees(before, &rounds);
	if (!freed)
		KTEST_FAIL("try %u: %llu of %u objects freed with kfree_rcu() "
			   "on cpu%u as it went offline still allocated after "
			   "%u rounds of a tick on every online CPU and a "
			   "grace period", try, big_objects_in_use() - before,
			   KFREE_OBJS, cpu, rounds);
	else
		console_printf("    # try %u: freed after %u rounds\n", try,
			       rounds);
	/* Back online, the CPU's tick queues a block left open. */
	KTEST_CHECK_CMP(t, cpu_up(cpu), ==, 0, "cpu_up(cpu)", "0",
			return false);
	return freed;
}

KTEST_TIMEOUT(kfree_rcu, block_of_a_cpu_going_offline_is_freed, 120000)
{
	unsigned int cpu = nr_cpus - 1, try;

	if (cpu == 0 || !READ_ONCE(cpu_area(cpu)->online))
		KTEST_SKIP("needs 2 CPUs online");
	for (try = 1; try <= OFFLINE_TRIES; try++)
		if (!freed_while_offline(t, cpu, try))
			return;
}

/* A round's objects are ready for the idler (one more: it may exit). */
static struct completion idler_go;

/* On the CPU under test: each round, open a block, then leave the CPU to
 * idle. It sleeps rather than exits between rounds: joining a thread
 * frees its stack, and every few frees send an IPI to every CPU
 * (kstack_purge()), which would wake this one and let its tick queue
 * the block whatever rcu_needs_cpu() said. */
static void kfree_rcu_then_idle(void *unused)
{
	unsigned int round;

	(void)unused;
	for (round = 0; round < IDLE_ROUNDS; round++) {
		wait_for_completion(&idler_go);
		kfree_rcu_objs();
	}
	wait_for_completion(&idler_go);
}

/*
 * A CPU that opened a block and then idles, with no callbacks of its own,
 * stops its tick: rcu_needs_cpu() must still wake it to queue the block
 * (tick.c). Nothing else here wakes that CPU, and rcu_barrier() is not
 * called (it would queue the block itself), so a block left behind stays
 * allocated until the test's watchdog ends it; one round may not tell
 * (IDLE_ROUNDS). Each round is polled by the clock, not in rounds of
 * events: the wake-up it waits for comes by time.
 */
KTEST_ON_CPU(kfree_rcu, block_of_a_cpu_that_idles_is_freed, 0)
{
	u64 before = big_objects_in_use();
	struct thread *th;
	unsigned int round;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to idle");
	init_completion(&idler_go);
	th = thread_create_on(kfree_rcu_then_idle, NULL, "kfree_idler",
			      nr_cpus_online - 1);
	KASSERT_TRUE(th != NULL);
	for (round = 0; round < IDLE_ROUNDS; round++) {
		KASSERT_TRUE(alloc_objs());
		complete(&idler_go);
		while (big_objects_in_use() > before)
			sleep_ms(1);
	}
	complete(&idler_go);
	thread_join(th);
}

/* rcu_barrier() queues its own CPU's open block, in thread context: a
 * tick that queued the same block meanwhile would free it twice (the
 * debug build reports the rcu_head queued again). With race.windows=,
 * each flush holds the block a while before clearing its slot. */
KTEST(kfree_rcu, barrier_queues_each_block_once)
{
	unsigned int i, rounds = race_windows_open ? BARRIER_ROUNDS_WINDOWS
						    : BARRIER_ROUNDS;

	for (i = 0; i < rounds; i++) {
		u64 before = big_objects_in_use();

		KASSERT_TRUE(alloc_objs());
		kfree_rcu_objs();
		rcu_barrier();
		KEXPECT_EQ(big_objects_in_use(), before);
	}
}
