/*
 * The exact grace-period oracle (oracle.h says what it checks).
 *
 * The clock is a global epoch that only updaters advance: oracle_stamp()
 * returns the epoch and increments it with one locked instruction. A
 * reader does not write it: at the start of its section it reads the
 * epoch (a plain load) into its slot, and clears the slot at the end.
 * A reader thread has a slot of its own (an SRCU reader may sleep, and
 * another reader run on its CPU meanwhile); interrupt handlers use their
 * CPU's. A reader that read an epoch no later than an updater's stamp read
 * it before the updater's increment, so its section had begun before the
 * updater asked for its grace period (in memory-model terms, the reader's
 * load is ordered before the updater's store, "from-read"), and RCU's
 * guarantee is that such a section ends before that grace period does.
 * So a slot still holding such an epoch when the grace period is over is
 * a violation, never a false alarm.
 *
 * The reader side adds no barrier and no locked instruction, so it hides
 * no ordering bug of the engine's: rcu_read_lock() stays what it is.
 *
 * Ordering of the slot protocol:
 *  - oracle_reader_end() clears the slot before rcu_read_unlock(); the
 *    CPU's next quiescent state is reported after that (x86-TSO keeps the
 *    clear ahead of the report's locked instruction), and the grace
 *    period's end reaches the checker through gp_end()'s release and the
 *    acquire of whoever observes it. For SRCU the clear comes before
 *    srcu_read_unlock()'s barrier C and its count, which the grace period
 *    reads before its end. So a section that ended in time is seen
 *    cleared (or refilled with a later epoch): no false alarm.
 *  - oracle_reader_begin() sets the slot after the epoch load; a section
 *    that is still running long after it began has its slot visible to
 *    any CPU (the store leaves the store buffer in nanoseconds, sections
 *    last microseconds), which is what lets the check see it.
 */
#include "oracle.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/preempt.h"
#include "kernel/time.h"
#include "lib/atomic.h"

struct oracle_slot {
	unsigned long epoch;		/* 0: no section in this context */
	u64 start_ns;			/* for the error line only */
	unsigned int depth;		/* nesting: only the outermost stamps */
} __aligned(CACHE_LINE);

static DEFINE_PERCPU_ARRAY(struct oracle_slot, irq_slots);
static struct oracle_slot reader_slots[ORACLE_MAX_READERS];
/* Starts at 1 so that a slot's 0 means "empty". */
static unsigned long oracle_epoch = 1;
static struct oracle_counts counts;

static struct oracle_slot *slot_of(unsigned int reader)
{
	return reader == ORACLE_IRQ ? &irq_slots[this_cpu_id()]
				    : &reader_slots[reader];
}

void oracle_reader_begin(unsigned int reader)
{
	struct oracle_slot *s = slot_of(reader);

	if (s->depth++)
		return;
	s->start_ns = clock_ns();
	/* A plain load of the epoch, paired with the locked increment in
	 * oracle_stamp(): see the header comment. */
	WRITE_ONCE(s->epoch, READ_ONCE(oracle_epoch));
}

void oracle_reader_end(unsigned int reader)
{
	struct oracle_slot *s = slot_of(reader);

	if (--s->depth)
		return;
	/* Cleared before the unlock, so before this CPU's next quiescent
	 * state (x86-TSO: stores stay in order) or before SRCU's unlock
	 * count; read by oracle_check() where a grace period ends. */
	WRITE_ONCE(s->epoch, 0);
}

unsigned long oracle_stamp(void)
{
	/* Fully ordered: the caller's earlier updates and this increment
	 * come before its request for a grace period; a reader's load of
	 * the old value in oracle_reader_begin() is ordered before it. */
	return atomic_fetch_add(&oracle_epoch, 1);
}

/* One slot against a grace period asked for at epoch stamp. */
static bool slot_ok(struct oracle_slot *s, unsigned long stamp,
		    const char *whose, unsigned int n, const char *what)
{
	/* READ_ONCE: the slot's owner writes it without a lock; see the
	 * header comment for why a live section's epoch is visible here. */
	unsigned long e = READ_ONCE(s->epoch);
	u64 start = READ_ONCE(s->start_ns);

	if (!e || e > stamp)
		return true;
	atomic_add_relaxed(&counts.violations, 1);
	pr_err("rcu-torture: !!! oracle: %s %u's read-side section, begun at "
	       "%llu.%06llu s (epoch %lu), is still running after the grace "
	       "period of %s (asked for at epoch %lu) ended\n", whose, n,
	       start / NSEC_PER_SEC, start % NSEC_PER_SEC / 1000, e, what,
	       stamp);
	return false;
}

bool oracle_check(unsigned long stamp, const char *what)
{
	unsigned int cpu, r;
	bool ok = true;

	atomic_add_relaxed(&counts.checks, 1);
	for_each_online_cpu(cpu)
		ok &= slot_ok(&irq_slots[cpu], stamp, "cpu", cpu, what);
	for (r = 0; r < ORACLE_MAX_READERS; r++)
		ok &= slot_ok(&reader_slots[r], stamp, "reader", r, what);
	return ok;
}

void oracle_reset(void)
{
	WRITE_ONCE(counts.checks, 0);
	WRITE_ONCE(counts.violations, 0);
}

void oracle_get_counts(struct oracle_counts *out)
{
	out->checks = READ_ONCE(counts.checks);
	out->violations = READ_ONCE(counts.violations);
}
