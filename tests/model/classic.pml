/*
 * Classic RCU, the engine of the article (Linux 2.6's kernel/rcupdate.c),
 * as a Promela model for spin; tests/model/run checks it and its
 * planted-bug variants. Quiesce's own engine is Tree RCU (kernel/rcu/,
 * modelled by rcu_gp.pml); the classic engine is to come beside it and its
 * C is not in the tree yet, so this model comes first and pins down what
 * that C must do.
 *
 * WHICH 2.6. The model follows rcupdate.c in the shape Manfred Spraul's
 * 2004 rework gave it (as in 2.6.9 and 2.6.10; 2.6.11 replaced the
 * counter and its snapshot by a passed_quiesc flag): rcu_ctrlblk {cur,
 * completed, next_pending}, the cpumask under one spinlock, per-CPU rcu_data
 * {quiescbatch, qs_pending, qsctr, last_qsctr, batch, nxtlist, curlist}.
 * 2.6.0 itself spells the same algorithm rcu_ctrlblk {curbatch, maxbatch,
 * rcu_cpu_mask} with last_qsctr == RCU_QSCTR_INVALID standing for "this
 * CPU has not yet seen the batch" (quiescbatch != cur here) and callbacks
 * done once their batch is before curbatch (batch <= completed here); the
 * counter snapshot, the cpumask and the cur + 1 batch number are the same.
 *
 * THE ALGORITHM. A quiescent state bumps the CPU's qsctr: each pass
 * through schedule(), and a tick taken in user mode or in the idle loop
 * (rcu_check_callbacks(cpu, user)); never a tick that interrupted a
 * read-side section, which is preempt_disable() in kernel mode. call_rcu()
 * queues on the CPU's nxtlist with interrupts off. The tick then runs
 * rcu_process_callbacks() (the RCU tasklet):
 *  1. curlist, if its batch <= completed, goes to the done list;
 *  2. if curlist is empty and nxtlist is not, nxtlist becomes curlist,
 *     tagged batch = cur + 1 (cur read without the lock: the batch that
 *     starts after this moment), and unless next_pending is set, under the
 *     lock, rcu_start_batch(): next_pending = 1, and if no batch is
 *     running (completed == cur) start one: cpumask = online CPUs,
 *     next_pending = 0, cur++;
 *  3. rcu_check_quiescent_state(): a CPU that has not seen batch cur
 *     (quiescbatch != cur) sets qs_pending, takes the snapshot
 *     last_qsctr = qsctr, quiescbatch = cur, and returns; later, if
 *     qs_pending and qsctr != last_qsctr (a quiescent state since the
 *     snapshot, so since the batch started), it clears qs_pending and,
 *     under the lock, if quiescbatch is still cur, its cpumask bit
 *     (cpu_quiet()); the last bit ends the batch: completed = cur, and
 *     rcu_start_batch() starts the next one if next_pending;
 *  4. the done callbacks are invoked.
 *
 * CONFIGURATION. Two CPUs, both online, each running NSECT (1) read-side
 * section, passing through schedule() and taking ticks in any order; a
 * writer queues NCB (2) callbacks, each from either CPU, inside a
 * section of that CPU or outside one. Callbacks on both CPUs are what
 * makes a CPU ask for a batch while another CPU's batch runs
 * (next_pending); with one writing CPU that never happens (a CPU asks
 * only once its curlist is empty, so its batch is over).
 * NSECT 2 verifies too (8.9 million states, 740 MB: too big for make test).
 *
 * WHAT SPIN CHECKS.
 *  - When a callback runs, no section that was running when it was
 *    queued, on either CPU, is still running: ghost state numbers each
 *    CPU's sections (rd_sect, rd_in), call_rcu() records the section
 *    running on each CPU (cb_rd0, cb_rd1), and the invocation asserts
 *    cb_pre_reader==0.
 *  - Invalid end states: every action is enabled only while it changes
 *    something (below), so a batch that can never end (its callbacks
 *    never run) is a state with no successor; the CPUs stop (end) only
 *    once every callback has run.
 *
 * PROCESSES AND INLINES -> rcupdate.c (2.6.10 names; 2.6.0's in []).
 *  cpu(c)            the CPU: its thread's rcu_read_lock/unlock
 *                    (preempt_disable/enable), schedule() (rcu_qsctr_inc),
 *                    call_rcu(), and the tick
 *  tick              rcu_check_callbacks + rcu_pending + the tasklet's
 *                    __rcu_process_callbacks, in steps 1 to 4 above
 *  start_batch       rcu_start_batch [rcu_start_batch(maxbatch)]
 *  cpu_quiet         cpu_quiet [the tail of rcu_check_quiescent_state]
 *  check_qs          rcu_check_quiescent_state
 *
 * ABSTRACTIONS.
 *  - Memory is sequentially consistent (the smp_wmb/smp_rmb pair around
 *    next_pending and cur is taken as given). Each atomic block is code
 *    that runs with interrupts off, under rcu_ctrlblk's lock, or touches
 *    only the CPU's own rcu_data. Kept apart, since the other CPU can act
 *    in between: the tick's step 1, the read of cur for batch = cur + 1,
 *    the next_pending test with the locked rcu_start_batch() (merged:
 *    rcu_start_batch() sets next_pending whatever the test read), step 3,
 *    step 4. check_qs's unlocked test and its locked cpu_quiet() are one
 *    step: while the CPU's bit is set, nobody else can change cur.
 *  - The tick's hardirq part (qsctr++ from user mode or idle) and its
 *    tasklet are one step: qsctr is read only by its own CPU. A tick that
 *    interrupted a section counts nothing (TICK_IN_READER plants the
 *    opposite); one outside a section may count (user, idle) or not
 *    (kernel mode).
 *  - Only whether qsctr equals last_qsctr is ever read (qsctr only grows,
 *    the snapshot copies it), so a quiescent state while they already
 *    differ changes nothing: schedule() and the tick bump qsctr only when
 *    they are equal. That bounds qsctr by the number of batches.
 *  - The tick is taken only when rcu_pending() holds and it changes
 *    something: a tick with nothing to do, or one inside a section while
 *    qs_pending waits for a quiescent state, has no effect.
 *    With the bounded sections and callbacks this makes the search finite,
 *    and a state with no successor is a stuck batch (or the end).
 *  - Left out, as they decide no batch: CPU hot-plug (both CPUs stay
 *    online), the callback limit per tasklet run (2.6.11's blimit),
 *    rcu_bh, synchronize_kernel(), batch number wrap-around.
 *
 * PLANTED BUGS, one -D switch each (assertion unless said):
 *  SNAPSHOT_LATE    check_qs takes the snapshot late: the check that first
 *                   sees batch cur compares qsctr with last_qsctr first and
 *                   takes the new snapshot only after that comparison, so
 *                   it compares with an earlier batch's snapshot, and a
 *                   schedule() from before batch cur started counts for
 *                   it (a snapshot later than the first check that sees
 *                   the batch would be safe, only slower)
 *  TICK_IN_READER   a tick that interrupted a read-side section counts a
 *                   quiescent state
 *  BATCH_TOO_EARLY  nxtlist moves to curlist tagged batch = cur, not
 *                   cur + 1: the batch running (or last completed) when
 *                   the callbacks were queued, which the readers running
 *                   then need not have waited for
 *  LOST_NEXT_PENDING  (invalid end state) the end of a batch does not
 *                   start the next one that next_pending asked for: a
 *                   CPU that asked while a batch was running waits for
 *                   ever, since it asks only when it moves nxtlist
 */

#define NSECT	1	/* read-side sections per CPU */
#define NCB	2	/* callbacks queued, by either CPU */
#define ONLINE	3	/* cpu_online_map: both CPUs */

/* rcu_ctrlblk and the cpumask, under its spinlock */
byte cur;
byte completed;
bool next_pending;
byte cpumask;

/* rcu_data, per CPU; the lists are sets of callback numbers (bit k),
 * donelist the tasklet's local list of callbacks to invoke */
byte qsctr[2];
byte last_qsctr[2];
byte quiescbatch[2];
bool qs_pending[2];
byte batch[2];
byte nxtlist[2];
byte curlist[2];
byte donelist[2];

/* Ghost state: each CPU's sections are numbered from 1. */
byte rd_sect[2];	/* the section running, or the last one run */
bool rd_in[2];
byte cb_rd0[NCB];	/* cpu0's section running when callback k was queued */
byte cb_rd1[NCB];	/* cpu1's */
byte ncb;		/* callbacks queued */
byte ninvoked;		/* callbacks run */

#define READER_NOW(c)	(rd_in[c] -> rd_sect[c] : 0)
#define STILL_IN(c, s)	(rd_in[c] && rd_sect[c] == (s))

#ifdef TICK_IN_READER
#define TICK_MAY_COUNT(c)	true
#else
#define TICK_MAY_COUNT(c)	(!rd_in[c])
#endif

/* rcu_pending(), less the ticks that would change nothing */
#define TICK_USEFUL(c) \
	((curlist[c] != 0 && batch[c] <= completed) || \
	 (curlist[c] == 0 && nxtlist[c] != 0) || \
	 quiescbatch[c] != cur || \
	 (qs_pending[c] && \
	  (qsctr[c] != last_qsctr[c] || TICK_MAY_COUNT(c))))

inline qs_count(c)
{
	if
	:: qsctr[c] == last_qsctr[c] -> qsctr[c]++
	:: else
	fi
}

/* Under the lock. */
inline start_batch(set_pending)
{
	if
	:: set_pending -> next_pending = true
	:: else
	fi;
	if
	:: next_pending && completed == cur ->
		cpumask = ONLINE;
		next_pending = false;
		cur++
	:: else
	fi
}

/* Under the lock. */
inline cpu_quiet(c)
{
	cpumask = cpumask & ~(1 << c);
	if
	:: cpumask == 0 ->
		completed = cur;
#ifndef LOST_NEXT_PENDING
		start_batch(false)
#else
		skip
#endif
	:: else
	fi
}

inline check_qs(c)
{
	if
	:: quiescbatch[c] != cur ->
		qs_pending[c] = true;
#ifndef SNAPSHOT_LATE
		last_qsctr[c] = qsctr[c];
		quiescbatch[c] = cur
#else
		quiescbatch[c] = cur;
		if
		:: qsctr[c] != last_qsctr[c] ->
			qs_pending[c] = false;
			cpu_quiet(c)
		:: else
		fi;
		last_qsctr[c] = qsctr[c]
#endif
	:: quiescbatch[c] == cur && qs_pending[c] &&
	   qsctr[c] != last_qsctr[c] ->
		qs_pending[c] = false;
		/* spin_lock(&rcu_ctrlblk's lock) */
		if
		:: quiescbatch[c] == cur -> cpu_quiet(c)
		:: else
		fi
	:: else
	fi
}

inline tick(c)
{
	/* rcu_check_callbacks(): user mode or idle counts; then step 1 */
	atomic {
		if
		:: TICK_MAY_COUNT(c) -> qs_count(c)
		:: true
		fi;
		if
		:: curlist[c] != 0 && batch[c] <= completed ->
			donelist[c] = donelist[c] | curlist[c];
			curlist[c] = 0
		:: else
		fi
	}
	/* step 2: local_irq_disable(), move, batch = cur + 1 */
	atomic {
		if
		:: curlist[c] == 0 && nxtlist[c] != 0 ->
			curlist[c] = nxtlist[c];
			nxtlist[c] = 0;
#ifdef BATCH_TOO_EARLY
			batch[c] = cur;
#else
			batch[c] = cur + 1;
#endif
			moved = true
		:: else
		fi
	}
	atomic {
		if
		:: moved && !next_pending -> start_batch(true)
		:: else
		fi;
		moved = false
	}
	/* step 3 */
	atomic { check_qs(c) }
	/* step 4: rcu_do_batch() */
	do
	:: donelist[c] != 0 ->
		atomic {
			k = 0;
			do
			:: donelist[c] & (1 << k) -> break
			:: else -> k++
			od;
			cb_pre_reader = STILL_IN(0, cb_rd0[k]) ||
			    STILL_IN(1, cb_rd1[k]);
		}
		assert(cb_pre_reader == 0);
		d_step {
			donelist[c] = donelist[c] & ~(1 << k);
			cb_rd0[k] = 0;
			cb_rd1[k] = 0;
			ninvoked++;
			k = 0
		}
	:: else -> break
	od
}

proctype cpu(byte c)
{
	bool moved;
	byte k;
	bool cb_pre_reader;

	do
	/* rcu_read_lock(): preempt_disable() */
	:: !rd_in[c] && rd_sect[c] < NSECT ->
		d_step { rd_sect[c]++; rd_in[c] = true }
	/* rcu_read_unlock() */
	:: rd_in[c] ->
		rd_in[c] = false
	/* schedule(): not inside a section (preemption is off there) */
	:: !rd_in[c] && qsctr[c] == last_qsctr[c] ->
		qsctr[c]++
	/* call_rcu(): local_irq_save(), list_add_tail(nxtlist); the guard
	 * inside the d_step, since both CPUs share ncb */
	:: d_step {
			ncb < NCB ->
			nxtlist[c] = nxtlist[c] | (1 << ncb);
			cb_rd0[ncb] = READER_NOW(0);
			cb_rd1[ncb] = READER_NOW(1);
			ncb++
		}
	/* the other CPU may act between the test and the tick: the tick
	 * then does less, which a real tick may do too */
	:: TICK_USEFUL(c) ->
		tick(c)
	/* every callback has run: the rest is of no interest */
	:: ncb == NCB && ninvoked == NCB && !rd_in[c] ->
		break
	od
}

init {
	atomic {
		run cpu(0);
		run cpu(1)
	}
}
