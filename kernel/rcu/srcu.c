/*
 * Sleepable RCU: readers and grace periods (srcu.h has the API).
 *
 * RCU proper learns that its readers are done from the CPUs: a CPU that
 * schedules holds no reader. SRCU readers sleep, so it counts them
 * instead. Each domain has, per CPU, a count of srcu_read_lock() calls
 * and one of srcu_read_unlock() calls made on that CPU, in two banks.
 * A reader adds one to lock_count[i] of the CPU it starts on, with i the
 * domain's current bank, and later one to unlock_count[i] of whichever
 * CPU it ends on. Summed over the CPUs, lock and unlock counts of a bank
 * are equal exactly when no reader of that bank is inside its section.
 *
 * A grace period must wait for the readers already in their sections,
 * not for those that start later, or a steady stream of readers would
 * hold it up for ever. So it flips the bank: new readers count in the
 * other one, and the old bank drains. In order:
 *
 *   1. wait until bank !cur is empty (it almost always is: see below);
 *   2. flip: cur becomes !cur;
 *   3. wait until the old cur is empty.
 *
 * Step 1 is for a reader that read the bank number, was preempted or
 * interrupted, and only then added to lock_count: it may count in the
 * bank that the previous grace period flipped away from and already
 * found empty. Without step 1, this grace period's flip would make that
 * bank current again and step 3 would never look at it, though its
 * section may have begun before this grace period asked. Step 1 ends:
 * late readers are at most one per thread, and every reader that counts
 * from now on reads the current bank. (The srcu suite catches a kernel
 * without step 1 through the srcu_lock race window, which holds that
 * gap open.)
 *
 * "Empty" (readers_done()) sums the unlock counts first and the lock
 * counts second. The barriers, which all are full barriers (smp_mb()):
 *
 *   B  srcu_read_lock(), after the lock count and before the section.
 *   C  srcu_read_unlock(), after the section and before the unlock count.
 *   A  readers_done(), between the two sums. With B and C: a reader
 *      whose unlock the first sum counts has its lock counted by the
 *      second, so equal sums never come from a reader that ended but
 *      whose start went unseen.
 *   G  at the start of a grace period, before any sum: pairs with B.
 *      The updater stored (unpublished the old version) before G and
 *      then reads lock counts; the reader stored its lock count before
 *      B and then reads the pointer. One of the two sees the other's
 *      store: either the grace period counts the reader and waits for
 *      it, or the reader sees only the new version.
 *   F  around the flip, before and after: with G's argument, a reader
 *      that read the old bank number but counted after step 3's sums
 *      sees every update made before the grace period began.
 *   E  at the end, after the last sum that came out equal: pairs with
 *      C, so that the readers' accesses come before whatever the
 *      caller does next (freeing the old version).
 *
 * The counters only grow; the sums compare modulo 2^64, so wrapping is
 * harmless. One grace period at a time per domain (gp_mutex); it runs in
 * the caller of synchronize_srcu() or in the srcu_gp thread for
 * call_srcu() (srcu_callbacks.c). gp_seq numbers grace periods as
 * rcu_state.gp_seq does (odd while one runs), so the polled cookies and
 * the callback list share RCU's helpers.
 */
#include "srcu.h"
#include "srcu_internal.h"
#include "kernel/errno.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/race.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/sched.h"
#include "lib/atomic.h"

/* Checks of a bank before the waiter starts sleeping between them: most
 * sections are short, and a sleep costs a millisecond. */
#define SRCU_YIELDS		10
#define SRCU_YIELDS_EXPEDITED	1000

int srcu_read_lock(struct srcu_struct *ssp)
{
	/* Either bank is correct for a reader, even one that is preempted
	 * or sleeps before it counts itself (the window below): step 1 of
	 * the grace period is there for it. */
	int idx = READ_ONCE(ssp->idx) & 1;

	race_window(RACE_SRCU_LOCK);
	preempt_disable();
	/* One instruction: an interrupt's reader on this CPU cannot split
	 * it. Other CPUs only read it, in readers_done(). */
	arch_local_inc(&ssp->sda[this_cpu_id()].lock_count[idx]);
	/* B: the count before the section's accesses; pairs with G and A. */
	smp_mb();
	preempt_enable();
	if (KERNEL_DEBUG && current_thread() && !in_irq())
		current_thread()->srcu_nesting++;
	return idx;
}

void srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	if (KERNEL_DEBUG && current_thread() && !in_irq()) {
		if (current_thread()->srcu_nesting == 0)
			pr_err("BUG: srcu_read_unlock(%s) without "
			       "srcu_read_lock() in thread %s\n", ssp->name,
			       current_thread()->name);
		else
			current_thread()->srcu_nesting--;
	}
	preempt_disable();
	/* C: the section's accesses before the count; pairs with A and E. */
	smp_mb();
	arch_local_inc(&ssp->sda[this_cpu_id()].unlock_count[idx & 1]);
	preempt_enable();
}

bool srcu_read_lock_held(const struct srcu_struct *ssp)
{
	struct thread *t = current_thread();

	(void)ssp;
	if (!KERNEL_DEBUG || !t || in_irq())
		return true;
	return t->srcu_nesting > 0;
}

/* Whether no reader of bank idx is inside its section. */
static bool readers_done(struct srcu_struct *ssp, int idx)
{
	unsigned long locks = 0, unlocks = 0;
	unsigned int cpu;

	/* Plain sums of counters their CPUs increment: READ_ONCE for an
	 * untorn value; the barriers say what the values mean. Every CPU,
	 * online or not: a reader may have begun on a CPU since taken
	 * down. */
	for (cpu = 0; cpu < nr_cpus; cpu++)
		unlocks += READ_ONCE(ssp->sda[cpu].unlock_count[idx]);
	/* A: unlocks summed before locks; pairs with B and C. */
	smp_mb();
	for (cpu = 0; cpu < nr_cpus; cpu++)
		locks += READ_ONCE(ssp->sda[cpu].lock_count[idx]);
	return locks == unlocks;
}

/* Wait until bank idx is empty: a few quick checks, then a sleep between
 * checks, since SRCU readers may sleep for a long time. */
static void wait_for_readers(struct srcu_struct *ssp, int idx, bool expedited)
{
	unsigned int yields = expedited ? SRCU_YIELDS_EXPEDITED : SRCU_YIELDS;
	unsigned int tries;

	for (tries = 0; !readers_done(ssp, idx); tries++) {
		if (tries < yields)
			yield();
		else
			sleep_ms(1);
	}
}

/* One whole grace period. Caller holds gp_mutex. */
static void srcu_gp(struct srcu_struct *ssp, bool expedited)
{
	int cur = READ_ONCE(ssp->idx) & 1;	/* gp_mutex: ours to change */

	/* gp_seq odd: a grace period runs. Pollers read it lock-free; they
	 * act only on an even value, stored with release below. */
	WRITE_ONCE(ssp->gp_seq, ssp->gp_seq + 1);
	/* G: the caller's updates before the counts; pairs with B. */
	smp_mb();
	wait_for_readers(ssp, !cur, expedited);		/* step 1 */
	/* F: step 1's sums before the flip, the flip before step 3's. */
	smp_mb();
	WRITE_ONCE(ssp->idx, ssp->idx + 1);		/* step 2 */
	smp_mb();
	wait_for_readers(ssp, cur, expedited);		/* step 3 */
	/* E: the readers' accesses before what follows; pairs with C. The
	 * release store publishes the end to get_state/poll_state and to
	 * the callback list (the acquire in srcu_gp_done()). */
	smp_mb();
	smp_store_release(&ssp->gp_seq, ssp->gp_seq + 1);
}

bool srcu_gp_done(struct srcu_struct *ssp, unsigned long cookie)
{
	/* Acquire: pairs with the release at the end of srcu_gp(); what
	 * the grace period waited for comes before the caller's next
	 * accesses. */
	return rcu_seq_done(smp_load_acquire(&ssp->gp_seq), cookie);
}

void srcu_wait_for(struct srcu_struct *ssp, unsigned long cookie,
		   bool expedited)
{
	mutex_lock(&ssp->gp_mutex);
	while (!srcu_gp_done(ssp, cookie))
		srcu_gp(ssp, expedited);
	mutex_unlock(&ssp->gp_mutex);
}

unsigned long get_state_synchronize_srcu(struct srcu_struct *ssp)
{
	/* Full barrier: the caller's updates come before the sample, so
	 * the grace period the cookie names began after them; pairs with
	 * G. */
	smp_mb();
	return rcu_seq_snap(READ_ONCE(ssp->gp_seq));
}

bool poll_state_synchronize_srcu(struct srcu_struct *ssp,
				 unsigned long cookie)
{
	return srcu_gp_done(ssp, cookie);
}

void synchronize_srcu(struct srcu_struct *ssp)
{
	srcu_wait_for(ssp, get_state_synchronize_srcu(ssp), false);
}

void synchronize_srcu_expedited(struct srcu_struct *ssp)
{
	srcu_wait_for(ssp, get_state_synchronize_srcu(ssp), true);
}

int init_srcu_struct(struct srcu_struct *ssp)
{
	ssp->sda = kzalloc(nr_cpus * sizeof(*ssp->sda));
	if (!ssp->sda)
		return -ENOMEM;
	ssp->idx = 0;
	ssp->gp_seq = 0;
	ssp->gp_seq_needed = 0;
	mutex_init(&ssp->gp_mutex);
	spin_lock_init(&ssp->cb_lock);
	rcu_cblist_init(&ssp->cbs);
	INIT_LIST_HEAD(&ssp->pending);
	ssp->dynamic = true;
	ssp->name = "srcu";
	return 0;
}

void cleanup_srcu_struct(struct srcu_struct *ssp)
{
	if (!ssp->dynamic) {
		pr_err("cleanup_srcu_struct(%s): a DEFINE_SRCU domain; expected "
		       "one set up by init_srcu_struct()\n", ssp->name);
		return;
	}
	/* Queued callbacks first: they may still need grace periods. */
	srcu_barrier(ssp);
	if (!readers_done(ssp, 0) || !readers_done(ssp, 1)) {
		pr_err("cleanup_srcu_struct(%s): readers still inside their "
		       "sections; the domain is left as it is\n", ssp->name);
		return;
	}
	srcu_forget(ssp);
	kfree(ssp->sda);
	ssp->sda = NULL;
}
