/*
 * SRCU's counter flip (kernel/rcu/srcu.c) as a Promela model for spin;
 * tests/model/run checks it and its planted-bug variants.
 *
 * CONFIGURATION. Two CPUs, NREADERS readers of NSECT sections each, and
 * an updater that publishes NGP new versions, running one grace period
 * after each. A reader may count its lock on one CPU and its unlock on
 * the other (it slept and migrated), and may be delayed between reading
 * the bank and counting itself in it (preempted: the srcu_lock race
 * window).
 *
 * WHAT SPIN CHECKS. After each grace period the updater asserts that no
 * reader is still inside a section in which it read a version older than
 * the one published before that grace period began. held[r] is ghost
 * state: the version reader r read after its lock, cleared by the same
 * step as its unlock count (the count is what lets a grace period end).
 *
 * PROCESSES -> C.
 *  reader     srcu_read_lock(), srcu_dereference(), srcu_read_unlock()
 *  updater    rcu_assign_pointer() of a new version, then srcu_gp():
 *             step 1 wait_for_readers(!cur), the flip, step 3
 *             wait_for_readers(cur); readers_done() as scan()
 *
 * ABSTRACTIONS. Memory is sequentially consistent: every hand-off in the C
 * has a full barrier (B after the lock count, C before the unlock count,
 * A between the two sums, G, F and E around the flip and the scans), and
 * x86-TSO with a full barrier between a store and a later load is
 * sequentially consistent for these accesses. Each counter increment is
 * one step (one instruction on its CPU). A scan reads one counter per
 * step, so readers move between its reads, as they do between the C's
 * loop iterations. Waiting is retrying the scan; a reader that never
 * ends would only make the updater wait, which is not a safety question.
 *
 * VARIANTS (-D):
 *  NO_STEP1        no wait for the idle bank before the flip
 *  STEP3_NEW_BANK  step 3 waits for the bank new readers use
 *  LOCKS_FIRST     readers_done() sums the lock counts first
 *  B_LATE          barrier B before the lock count instead of after it:
 *                  the count's store passes the section's first load
 *                  (x86's store buffer does that without B)
 */

#define NCPU		2
#define NREADERS	2
#define NSECT		2
#define NGP		2
#define NONE		255

byte lock_count[4];		/* [(bank) * NCPU + cpu] */
byte unlock_count[4];
bit idx;			/* the bank new readers use */
byte version;			/* the version published last */
byte held[NREADERS];		/* ghost: version a reader holds, or NONE */

/* A count on either CPU: the reader may have migrated. */
inline count_lock(bank) {
	if
	:: lock_count[(bank) * NCPU + 0]++
	:: lock_count[(bank) * NCPU + 1]++
	fi
}

inline count_unlock(bank) {
	if
	:: unlock_count[(bank) * NCPU + 0]++
	:: unlock_count[(bank) * NCPU + 1]++
	fi
}

proctype reader(byte me)
{
	byte n = 0;
	bit bank;

	do
	:: n < NSECT ->
		bank = idx;			/* may be stale by the next step */
#ifdef B_LATE
		held[me] = version;		/* before the count is seen */
		count_lock(bank);
#else
		count_lock(bank);   	/* barrier B follows */
		held[me] = version;		/* srcu_dereference() */
#endif
		atomic {			/* barrier C, then the count */
			held[me] = NONE;
			count_unlock(bank)
		}
		n++
	:: n == NSECT -> break
	od
}

/* readers_done(bank), retried until it says yes. */
inline scan(bank) {
	do
	:: true ->
		locks = 0;
		unlocks = 0;
#ifdef LOCKS_FIRST
		locks = locks + lock_count[(bank) * NCPU + 0];
		locks = locks + lock_count[(bank) * NCPU + 1];
		unlocks = unlocks + unlock_count[(bank) * NCPU + 0];
		unlocks = unlocks + unlock_count[(bank) * NCPU + 1];
#else
		unlocks = unlocks + unlock_count[(bank) * NCPU + 0];
		unlocks = unlocks + unlock_count[(bank) * NCPU + 1];
		locks = locks + lock_count[(bank) * NCPU + 0];
		locks = locks + lock_count[(bank) * NCPU + 1];
#endif
		if
		:: locks == unlocks -> break
		:: else -> skip
		fi
	od
}

proctype updater()
{
	byte g = 0, r, locks, unlocks;
	bit cur;

	do
	:: g < NGP ->
		g++;
		version = g;			/* unpublish version g - 1 */
		cur = idx;
#ifndef NO_STEP1
		scan(1 - cur);			/* step 1 */
#endif
		idx = 1 - cur;			/* step 2: the flip */
#ifdef STEP3_NEW_BANK
		scan(1 - cur);
#else
		scan(cur);			/* step 3 */
#endif
		r = 0;
		do
		:: r < NREADERS ->
			assert(held[r] == NONE || held[r] >= g);
			r++
		:: r == NREADERS -> break
		od
	:: g == NGP -> break
	od
}

init {
	atomic {
		held[0] = NONE;
		held[1] = NONE;
		run reader(0);
		run reader(1);
		run updater()
	}
}
