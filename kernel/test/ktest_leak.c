/*
 * The leak check (ktest_leak.h). Each count is of things handed out and
 * not yet given back, never of free memory: the page allocator's free
 * count also moves with kmalloc's slabs and spare slab, page tables made
 * once for a new stack slot, and stacks of joined threads that wait on
 * kstack.c's pending list for a TLB flush. None of those is a leak, and
 * counting them would need a tolerance that hides real leaks.
 */
#include "ktest.h"
#include "ktest_leak.h"
#include "kernel/fs/dcache.h"
#include "kernel/mm/kstack.h"
#include "kernel/printk.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/hang_report.h"
#include "kernel/sched/timer.h"
#include "kernel/time.h"
#include "lib/format.h"

/* Far beyond any rcu_barrier() of a working kernel, even on a loaded host
 * at -smp 32, where it takes seconds at most. */
#define BARRIER_WATCHDOG_MS	60000

static void barrier_overdue(void *unused)
{
	(void)unused;
	pr_err("ktest: the leak check's rcu_barrier() has not returned after "
	       "%u s: a grace period or a callback does not end; the hang "
	       "report follows\n", BARRIER_WATCHDOG_MS / 1000);
	hang_report_request();
}

/*
 * rcu_barrier() under a watchdog of its own. The leak check runs between
 * tests, outside every test's watchdog (ktest_exec.c), so a grace period
 * or callback that never ended hung the run there without a word: a
 * lost wake-up at -smp 7 did, every CPU idle. Past the limit it asks for
 * the hang report, which says what every CPU and thread waits on.
 */
static void rcu_barrier_watched(void)
{
	struct timer watchdog = { .fn = barrier_overdue };

	timer_add(&watchdog, clock_ns() + BARRIER_WATCHDOG_MS * NSEC_PER_MSEC);
	rcu_barrier();
	/* After it returns the callback is not running: the stack is ours. */
	timer_cancel(&watchdog);
}

void ktest_mem_measure(struct ktest_mem *m)
{
	struct kmalloc_class_stats stats[KMALLOC_NR_CLASSES];
	unsigned int i, live, pending;

	/* Callbacks queued by the test run, each CPU's open kfree_rcu()
	 * block is queued and freed (rcu_barrier() flushes them). */
	rcu_barrier_watched();
	/* The dentry cache keeps unused entries for later lookups: drop
	 * them (freed after a grace period, hence the second barrier), so
	 * a test that looked a file up is not charged for the cache. */
	if (dcache_shrink(~0u))
		rcu_barrier_watched();
	kmalloc_get_stats(stats);
	for (i = 0; i < KMALLOC_NR_CLASSES; i++)
		m->objects[i] = stats[i].objects_in_use;
	for (i = 0; i <= PAGE_MAX_ORDER; i++)
		m->blocks[i] = kmalloc_large_in_use(i);
	/* A joined thread's stack is no longer live, even while it waits to
	 * be purged; a live one belongs to a thread nobody joined. */
	kstack_counts(&live, &pending);
	m->stacks = live;
}

/* Append ", 3 objects of 64 bytes" (no comma first) to buf. */
static size_t say(char *buf, size_t size, size_t n, u64 grew,
		  const char *what, u64 amount, const char *unit)
{
	if (n >= size)
		return n;
	return n + ksnprintf(buf + n, size - n, "%s%llu %s%s of %llu %s",
			     n ? ", " : "", grew, what, grew == 1 ? "" : "s",
			     amount, unit);
}

bool ktest_mem_growth(const struct ktest_mem *before,
		      const struct ktest_mem *after, char *buf, size_t size)
{
	struct kmalloc_class_stats stats[KMALLOC_NR_CLASSES];
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	kmalloc_get_stats(stats);
	for (i = 0; i < KMALLOC_NR_CLASSES; i++)
		if (after->objects[i] > before->objects[i])
			n = say(buf, size, n,
				after->objects[i] - before->objects[i],
				"object", stats[i].size, "bytes");
	for (i = 0; i <= PAGE_MAX_ORDER; i++)
		if (after->blocks[i] > before->blocks[i])
			n = say(buf, size, n,
				after->blocks[i] - before->blocks[i],
				"block", 1ull << i, i ? "pages" : "page");
	if (after->stacks > before->stacks && n < size)
		n += ksnprintf(buf + n, size - n, "%s%llu thread stack%s",
			       n ? ", " : "", after->stacks - before->stacks,
			       after->stacks - before->stacks == 1 ? "" : "s");
	return n > 0;
}

void ktest_mem_accept(struct ktest_mem *base, const struct ktest_mem *before,
		      const struct ktest_mem *after)
{
	unsigned int i;

	for (i = 0; i < KMALLOC_NR_CLASSES; i++)
		if (after->objects[i] > before->objects[i])
			base->objects[i] += after->objects[i] -
					    before->objects[i];
	for (i = 0; i <= PAGE_MAX_ORDER; i++)
		if (after->blocks[i] > before->blocks[i])
			base->blocks[i] += after->blocks[i] - before->blocks[i];
	if (after->stacks > before->stacks)
		base->stacks += after->stacks - before->stacks;
}

/* One test runs at a time, and only it keeps: no lock. */
static struct ktest_mem keep_before, keep_after;
static const char *keep_why;

void ktest_keep_begin(void)
{
	ktest_mem_measure(&keep_before);
}

void ktest_keep_end(const char *why)
{
	ktest_mem_measure(&keep_after);
	keep_why = why;
}

const char *ktest_mem_take_kept(struct ktest_mem *before,
				struct ktest_mem *after)
{
	const char *why = keep_why;

	*before = keep_before;
	*after = keep_after;
	keep_why = NULL;
	return why;
}
