/*
 * Preemptible RCU's blocked-tasks list (Linux's CONFIG_PREEMPT_RCU,
 * kernel/rcu/tree_plugin.h; for us the coming kernel/rcu/preempt.c) as a
 * Promela model for spin; tests/model/run checks it and its planted-bug
 * variants. The model comes before the C: it pins down what the C must do.
 *
 * THE ALGORITHM. rcu_read_lock() only increments the task's nesting count.
 * A context switch of a task inside a reader queues it on its CPU's leaf
 * rcu_node's blkd_tasks list (once: the task's blocked flag) and then
 * reports the CPU's quiescent state. Everything from gp_tasks to the tail
 * blocks the current grace period, everything from exp_tasks to the tail
 * the current expedited one. A grace period starts by pointing gp_tasks
 * at the head of the list (every task queued so far) and setting qsmask
 * to the online CPUs; the leaf reports to the root only when qsmask is
 * empty and gp_tasks is NULL. The outermost rcu_read_unlock() of a blocked
 * task takes the special path: under the leaf's lock it unlinks the task,
 * moves gp_tasks (and exp_tasks) that pointed at it to the next, older,
 * entry (NULL after the tail), and reports the leaf if that emptied it.
 * Expedited grace periods do the same with expmask and exp_tasks.
 *
 * The one point the short description above leaves out, and the C must
 * not: a task queued by a CPU that still owes the current grace period
 * its quiescent state (its qsmask bit is set: the reader may have begun
 * before the grace period did) must be covered by gp_tasks, since the
 * CPU reports right after queueing it. A new entry goes to the head only
 * when its CPU owes nothing; otherwise it goes just before the entry
 * gp_tasks names and gp_tasks moves to it (head, and gp_tasks = it, if
 * gp_tasks was NULL); the same for expmask and exp_tasks, before
 * whichever of the two owed entries is nearer the head (Linux's
 * rcu_preempt_ctxt_queue() table is finer; extra coverage only delays a
 * grace period). Linux instead links the task just after the entry
 * gp_tasks names and leaves gp_tasks alone, which is as good; mixing the
 * two (linking after that entry and moving gp_tasks to the new one)
 * uncovers the entry that was named, and spin finds that too.
 * QUEUE_IGNORES_QSMASK below is the short description.
 *
 * CONFIGURATION. One leaf (the root too: "reports upward" clears root_qs
 * or root_exp, which the kthreads wait on), two CPUs, NTASK (3) reader
 * tasks of one section each; with NESTING a section may hold one nested
 * section (and NTASK is 2: nesting multiplies the search by five). A
 * scheduler runs any runnable task on an idle CPU, and preempts a task
 * that is inside its section (or in its unlock's window) at any point,
 * NPREEMPT (3) times in all: enough for all three tasks to be queued at
 * once; a preempted task may come back on either CPU. The grace-period
 * kthread runs NGP (2) normal grace periods, the expedited kthread NEXP
 * (1) expedited one, each at any time, concurrently.
 *
 * WHAT SPIN CHECKS.
 *  - When a grace period (normal or expedited) ends, no task that was
 *    inside a read-side section when it began is still inside that
 *    section. Ghost state: the start of a grace period takes the set of
 *    tasks inside a section (gp_rd, exp_rd: nest > 0), each task leaves
 *    the sets at the decrement that ends its section, and the end of the
 *    grace period asserts its set is empty.
 *  - Invalid end states: every task finishes, so a grace period that
 *    cannot end leaves its kthread waiting, which is no end state.
 *  - Sanity: no pointer is left set between grace periods, the list never
 *    overflows, every pointer names a queued task.
 *
 * PROCESSES AND INLINES -> C (Linux names; ours will follow them).
 *  task            a reader task: __rcu_read_lock(), __rcu_read_unlock()
 *  unlock_special  rcu_read_unlock_special() ->
 *                  rcu_preempt_deferred_qs_irqrestore(), blocked part;
 *                  its reports are rcu_report_unblock_qs_rnp() and
 *                  rcu_report_exp_rnp()
 *  sched           __schedule(): the switch out of a running task is
 *                  rcu_note_context_switch() (rcu_preempt_ctxt_queue(),
 *                  then rcu_qs() and rcu_report_exp_rdp())
 *  tick            a CPU whose task is outside any reader (or which is
 *                  idle) reporting: rcu_flavor_sched_clock_irq(), the
 *                  idle entry, rcu_exp_handler()'s nesting == 0 case
 *  cpu_report      rcu_report_qs_rnp() and rcu_report_exp_cpu_mult() for
 *                  one CPU's bit
 *  gp_kthread      rcu_gp_init() (qsmask, gp_tasks), rcu_gp_fqs_loop()'s
 *                  wait, rcu_gp_cleanup()
 *  exp_kthread     synchronize_rcu_expedited(): sync_rcu_exp_select_cpus()
 *                  (expmask, exp_tasks), the wait for sync_rcu_exp_done()
 *
 * ABSTRACTIONS, AND WHY THEY LOSE NOTHING THE ASSERTIONS DEPEND ON.
 *  - Steps. Every list and pointer change is one step: the C makes it
 *    under the leaf's lock. A task's nesting change is one step on its
 *    own CPU, seen in program order by that CPU's tick and context switch
 *    (the only readers of it). Memory is sequentially consistent: every
 *    hand-off between CPUs here goes through the leaf's lock.
 *  - A CPU's quiescent state is reported in the step that observes it
 *    (at the switch, right after the queueing, under the same lock).
 *    The C notes it first and reports later, checking that the note was
 *    made in the grace period it reports for (rdp->gp_seq); the model
 *    assumes that check, which rcu_gp.pml models for the engine.
 *  - One leaf that is also the root: the climb of report_up, and the
 *    rcu_node a task stays queued on after it migrates, are rcu_gp.pml's
 *    and the C's business; with one leaf any CPU's task queues there.
 *  - The unlock's decrement and its special path are separate steps, and
 *    the task may be preempted between them (nest is 0 then, so it is not
 *    queued again); Linux's deferred quiescent states (an unlock with
 *    interrupts off) only move the special path later, as that window
 *    does.
 *  - Left out: CPU hotplug (qsmaskinit, tasks of an offlined leaf moving
 *    to the root), priority boosting (boost_tasks is a third pointer of
 *    the same kind, read only), stall warnings, more leaves, callbacks.
 *  - Bounds: the scheduler's free moves (a task onto an idle CPU, a task
 *    exiting) each bring a task nearer its end; only preemptions are
 *    counted. So every run ends, and a stuck grace period is an end state
 *    spin reports.
 *  - A task outside its section (and past its unlock's special path) is
 *    not preempted: for RCU a CPU running it is an idle CPU (the tick
 *    reports for both), and with one section per task where it runs
 *    before the section is the scheduler's first choice.
 *
 * PLANTED BUGS, one -D switch each; spin must reject each:
 *  GP_TASKS_NOT_SET      (assertion) rcu_gp_init() leaves gp_tasks NULL:
 *                        a task queued before the grace period began,
 *                        still in its section, no longer holds it.
 *  UNLOCK_SKIPS_ADVANCE  (assertion) the special path, unlinking the task
 *                        gp_tasks names, sets gp_tasks to NULL instead of
 *                        the next (older) entry: older tasks queued before
 *                        the grace period, still inside, stop holding it.
 *  QUEUE_IGNORES_QSMASK  (assertion) the context switch always queues at
 *                        the head and never sets gp_tasks/exp_tasks: a
 *                        reader that began before the grace period, on a
 *                        CPU that had not reported yet, is queued where
 *                        no pointer covers it, and the CPU then reports.
 *  EXP_TASKS_NOT_SET     (assertion) the expedited start leaves exp_tasks
 *                        NULL: an expedited grace period ignores readers
 *                        that were preempted before it began.
 *  UNLOCK_NO_REPORT      (endstate) the special path moves gp_tasks to
 *                        NULL but does not report the leaf, though qsmask
 *                        is already empty: nobody else will, and the
 *                        grace period never ends.
 *  INNER_UNLOCK_SPECIAL  (assertion, with NESTING) the special path runs
 *                        at any unlock of a blocked task, not only the
 *                        outermost (nest back to 0): the task leaves
 *                        the list while its outer section is still
 *                        running.
 *
 * NOT A BUG, checked to verify:
 *  QUEUE_AT_TAIL         every new entry goes to the tail, gp_tasks or
 *                        exp_tasks set to it only if its CPU owes the
 *                        grace period and the pointer is NULL. A pointer
 *                        then covers tasks queued after its grace period
 *                        began: no reader it must wait for is left out,
 *                        so this is safe, but a steady stream of readers
 *                        preempted during a grace period can hold it off
 *                        for ever (a liveness cost, which this bounded
 *                        safety search cannot show). Head insertion is
 *                        what bounds a grace period's wait by the readers
 *                        that predate it.
 */

#define NCPU		2	/* the scheduler's options below spell out 2 */
#ifndef NTASK
#define NTASK		3	/* and 3 at most; task t is process t */
#endif
#define NSECT		1	/* sections per task */
#define NPREEMPT	3	/* preemptions of a task in a reader, in all */
#define NGP		2	/* normal grace periods */
#define NEXP		1	/* expedited grace periods */
#define NONE		255
#define EXITED		254
#define ONLINE		3	/* both CPUs */

#define BIT(c)		(1 << (c))
#define RUNNING(t)	(oncpu[t] != NONE && oncpu[t] != EXITED)
/* the task on CPU c is outside any reader, or CPU c is idle */
#define QUIET(c)	(cur[c] == NONE || nest[cur[c]] == 0)

/* The leaf rcu_node, under its lock. blkd_tasks is lst[0 .. nblk - 1],
 * lst[0] the head (most recently queued); a pointer is a task number. */
byte qsmask;
byte expmask;
byte lst[NTASK] = NONE;
byte nblk;
byte gp_tasks = NONE;
byte exp_tasks = NONE;
bool root_qs;		/* the leaf's bit in the root's qsmask */
bool root_exp;		/* and in its expmask */

byte cur[NCPU] = NONE;	/* the task a CPU runs */
byte oncpu[NTASK] = NONE;	/* the CPU a task runs on, NONE, EXITED */
byte nest[NTASK];	/* t->rcu_read_lock_nesting */
bool blocked[NTASK];	/* t->rcu_read_unlock_special.b.blocked */
byte preempts = NPREEMPT;

/* Ghost state: the tasks inside a section when the grace period (of
 * each kind) in progress began, each removed as that section ends. */
byte gp_rd;
byte exp_rd;

/* Scratch for the list inlines, used only inside one d_step. */
hidden byte hp, hn, hi;

/* hp = position of task x in the list */
inline find(x)
{
	hp = 0;
	do
	:: hp < nblk && lst[hp] != x -> hp++
	:: else -> break
	od;
	assert(hp < nblk)
}

/* task t enters the list at position hp */
inline insert(t)
{
	assert(nblk < NTASK);
	hi = nblk;
	do
	:: hi > hp -> lst[hi] = lst[hi - 1]; hi--
	:: else -> break
	od;
	lst[hp] = t;
	nblk++
}

/* the task at position hp leaves the list; hn = the next (older) one */
inline unlink()
{
	hn = NONE;
	if
	:: hp + 1 < nblk -> hn = lst[hp + 1]
	:: else -> skip
	fi;
	hi = hp;
	do
	:: hi + 1 < nblk -> lst[hi] = lst[hi + 1]; hi++
	:: else -> break
	od;
	nblk--;
	lst[nblk] = NONE
}

/* The leaf reports upward once nothing holds it: no CPU bit, no task. */
inline leaf_report_gp()
{
	if
	:: root_qs && qsmask == 0 && gp_tasks == NONE -> root_qs = false
	:: else -> skip
	fi
}

inline leaf_report_exp()
{
	if
	:: root_exp && expmask == 0 && exp_tasks == NONE -> root_exp = false
	:: else -> skip
	fi
}

inline cpu_report(c)
{
	if
	:: qsmask & BIT(c) ->
		qsmask = qsmask & ~BIT(c);
		leaf_report_gp()
	:: else -> skip
	fi;
	if
	:: expmask & BIT(c) ->
		expmask = expmask & ~BIT(c);
		leaf_report_exp()
	:: else -> skip
	fi
}

/* rcu_preempt_ctxt_queue(): task t, inside a reader, leaves CPU c. */
inline ctxt_queue(c, t)
{
#if defined(QUEUE_AT_TAIL)
	hp = nblk;
	insert(t);
	if
	:: (qsmask & BIT(c)) && gp_tasks == NONE -> gp_tasks = t
	:: else -> skip
	fi;
	if
	:: (expmask & BIT(c)) && exp_tasks == NONE -> exp_tasks = t
	:: else -> skip
	fi
#elif defined(QUEUE_IGNORES_QSMASK)
	hp = 0;
	insert(t)
#else
	/* Before the owed entry nearest the head, else at the head. */
	hi = 0;
	if
	:: (qsmask & BIT(c)) && gp_tasks != NONE -> find(gp_tasks); hi = hp
	:: else -> hi = NONE
	fi;
	if
	:: (expmask & BIT(c)) && exp_tasks != NONE ->
		find(exp_tasks);
		if
		:: hp < hi -> hi = hp
		:: else -> skip
		fi
	:: else -> skip
	fi;
	hp = (hi == NONE -> 0 : hi);
	insert(t);
	if
	:: qsmask & BIT(c) -> gp_tasks = t
	:: else -> skip
	fi;
	if
	:: expmask & BIT(c) -> exp_tasks = t
	:: else -> skip
	fi
#endif
}

/* rcu_note_context_switch() and the switch: CPU c goes idle. */
inline switch_out(c)
{
	hn = cur[c];
	if
	:: nest[hn] > 0 && !blocked[hn] ->
		ctxt_queue(c, hn);
		blocked[hn] = true
	:: else -> skip
	fi;
	cpu_report(c);
	oncpu[hn] = NONE;
	cur[c] = NONE
}

/* The blocked part of rcu_read_unlock_special(), for task t. */
inline unlock_special(t)
{
	find(t);
	unlink();
	if
	:: gp_tasks == t ->
#ifdef UNLOCK_SKIPS_ADVANCE
		gp_tasks = NONE
#else
		gp_tasks = hn
#endif
	:: else -> skip
	fi;
	if
	:: exp_tasks == t -> exp_tasks = hn
	:: else -> skip
	fi;
	blocked[t] = false;
#ifndef UNLOCK_NO_REPORT
	leaf_report_gp();
#endif
	leaf_report_exp()
}

/* The tasks inside a section now: the snapshot of a grace period start. */
inline readers_now(m)
{
	m = 0;
	hi = 0;
	do
	:: hi < NTASK ->
		if
		:: nest[hi] > 0 -> m = m | BIT(hi)
		:: else -> skip
		fi;
		hi++
	:: else -> break
	od
}

/* Declared first: task t is process t. Its steps run only on a CPU. */
active [NTASK] proctype task()
{
	byte n;

	do
	:: n < NSECT ->
		atomic { RUNNING(_pid) -> nest[_pid] = 1 };
#ifdef NESTING
		if
		:: atomic { RUNNING(_pid) -> nest[_pid]++ };
		   atomic { RUNNING(_pid) -> nest[_pid]-- };
#ifdef INNER_UNLOCK_SPECIAL
		   if
		   :: blocked[_pid] -> d_step { RUNNING(_pid) -> unlock_special(_pid) }
		   :: else -> skip
		   fi
#endif
		:: skip
		fi;
#endif
		atomic {
			RUNNING(_pid) ->
			nest[_pid] = 0;
			gp_rd = gp_rd & ~BIT(_pid);
			exp_rd = exp_rd & ~BIT(_pid)
		};
		/* blocked[] changes only at a switch with nest > 0, or here */
		if
		:: blocked[_pid] -> d_step { RUNNING(_pid) -> unlock_special(_pid) }
		:: else -> skip
		fi;
		n++
	:: else ->
		/* exit: the CPU goes idle (its quiescent state is the tick's) */
		d_step {
			RUNNING(_pid) ->
			cur[oncpu[_pid]] = NONE;
			oncpu[_pid] = EXITED;
			n = 0
		};
		break
	od
}

#define RUN(c, t)	d_step { cur[c] == NONE && oncpu[t] == NONE -> \
				cur[c] = t; oncpu[t] = c }
#define PREEMPT(c)	d_step { cur[c] != NONE && preempts > 0 && \
				(nest[cur[c]] > 0 || blocked[cur[c]]) -> \
				preempts--; switch_out(c) }

/* Preempted by another reader: PREEMPT, then RUN of that reader. */
active proctype sched()
{
end:	do
	:: RUN(0, 0)
	:: RUN(0, 1)
#if NTASK > 2
	:: RUN(0, 2)
	:: RUN(1, 2)
#endif
	:: RUN(1, 0)
	:: RUN(1, 1)
	:: PREEMPT(0)
	:: PREEMPT(1)
	od
}

active proctype tick()
{
end:	do
	:: d_step { ((qsmask | expmask) & BIT(0)) && QUIET(0) -> cpu_report(0) }
	:: d_step { ((qsmask | expmask) & BIT(1)) && QUIET(1) -> cpu_report(1) }
	od
}

active proctype gp_kthread()
{
	byte n;

	do
	:: n < NGP ->
		d_step {	/* rcu_gp_init() */
			assert(qsmask == 0 && gp_tasks == NONE && !root_qs);
			readers_now(gp_rd);
			qsmask = ONLINE;
			root_qs = true;
#ifndef GP_TASKS_NOT_SET
			if
			:: nblk > 0 -> gp_tasks = lst[0]
			:: else -> skip
			fi
#endif
		}
		!root_qs;
		d_step {	/* rcu_gp_cleanup() */
			assert(qsmask == 0 && gp_tasks == NONE);
			assert(gp_rd == 0);	/* the safety property */
			n++
		}
	:: else -> break
	od
}

active proctype exp_kthread()
{
	byte n;

	do
	:: n < NEXP ->
		d_step {
			assert(expmask == 0 && exp_tasks == NONE && !root_exp);
			readers_now(exp_rd);
			expmask = ONLINE;
			root_exp = true;
#ifndef EXP_TASKS_NOT_SET
			if
			:: nblk > 0 -> exp_tasks = lst[0]
			:: else -> skip
			fi
#endif
		}
		!root_exp;
		d_step {
			assert(expmask == 0 && exp_tasks == NONE);
			assert(exp_rd == 0);	/* the safety property */
			n++
		}
	:: else -> break
	od
}
