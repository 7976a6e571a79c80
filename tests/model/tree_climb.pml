/*
 * A quiescent-state report climbing a three-level combining tree, as a
 * Promela model for spin; tests/model/run checks it and its planted bugs.
 * It pins down what the tree of any depth (issue 36) must do, level by
 * level, as Linux's rcu_report_qs_rnp() climbs: rcu_gp.pml models the
 * engine around it on the two-level tree (a root over leaves).
 *
 * THE TREE. A root, an interior node under it, two leaves under that, a
 * CPU per leaf: the two CPUs' reports race up through the interior node.
 * WIDE adds a second interior node with a leaf and a third CPU, so that
 * the root itself waits for two children and two climbs race there.
 * Nodes are numbered parents first, so ascending order is top-down on
 * every path:
 *	0 root;  1 interior;  2, 3 its leaves (cpu0, cpu1);
 *	4 second interior, 5 its leaf (cpu2)		(WIDE only)
 *
 * THE ALGORITHM -> C (kernel/rcu/tree/: tree.c, gp.c, report.c and
 * quiescent.c).
 *  gp()     gp_thread_fn: gp_start() stores the new, odd rcu_state.gp_seq,
 *           samples which CPUs are idle (leaf_wait_mask()), makes every
 *           node's mask from its children's (a parent waits for a child
 *           that waits), and publishes them top-down, each node's qsmask
 *           and gp_seq together under its lock (node_start()); waits
 *           until the root's qsmask is empty (gp_complete()); gp_end()
 *           makes gp_seq even.
 *  note     note_quiescent_state(), first half: a CPU outside a reader
 *           reads its leaf's gp_seq lock-free and, if that grace period
 *           is running and new to it, notes a quiescent state for it.
 *  climb    rcu_report_qs(), node_clear() and rcu_report_node_done(), as
 *           rcu_report_qs_rnp(): under each node's lock, stop if the node
 *           is in another grace period or the bit is clear already; clear
 *           it; stop if the node still waits; else go up with the node's
 *           own bit in its parent. The root emptied wakes gp().
 *
 * WHY REPORTS CAN BE STALE. A CPU idle when a grace period starts owes
 * it nothing (eqs_seq odd). Such a CPU may still note a quiescent state
 * for it, and, as Linux does (rcu_qs() notes, rcu_core() reports later,
 * from a softirq that may run inside a reader), report it later: here
 * the note and the report are separate steps, and the report may come
 * inside a reader begun since. By then that grace period may have ended
 * and the next one started, with this CPU's bit set. Quiesce's C reports
 * at once, interrupts off; the model allows more than the C does. An
 * idle CPU's own note also stands for the holdout scan (fqs.c), which
 * reports an idle CPU on its behalf through the same climb.
 *
 * WHAT SPIN CHECKS.
 *  - Safety: when gp() sees the root empty, no reader that began before
 *    that grace period started (rd_gp < gp_seq) is still running
 *    (assert pre_reader == 0).
 *  - No lost report: every action is bounded and enabled only while it
 *    changes something, so a grace period that can never end leaves gp()
 *    blocked in its wait with nothing else able to move: an invalid end
 *    state. gp() runs NGP grace periods and ends.
 *
 * ABSTRACTIONS. Memory is sequentially consistent (rcu_gp.pml's header
 * says why the C's locks and barriers allow it). Each atomic block is
 * one node's critical section, or one CPU's step with interrupts off; the
 * windows between levels of a climb, and between node_start()s, are
 * kept: that is where the racing reports and the start interleave.
 * gp_start()'s store of gp_seq and its sampling of the idle flags are one
 * step (the smp_mb() between them; each sample is after the start, which
 * is all a sample needs). Left out: the callbacks, the holdout scan's
 * nudge, expedited grace periods, preemptible RCU's blocked readers,
 * hotplug, gp_seq wrap.
 *
 * PLANTED BUGS, one -D switch each:
 *  EARLY_PARENT     (assertion) an interior node tells its parent when
 *                   a child reports while other children still owe
 *  NO_GP_CHECK      (assertion) the climb omits the gp_seq check at every
 *                   level: a stale report of grace period N, held back,
 *                   clears the bit of N+1 at its leaf and climbs
 *  BOTTOM_UP        (invalid end state) node_start() leaves first: a
 *                   leaf that empties at once climbs into a parent still
 *                   in the last grace period, is dropped there, and the
 *                   parent, set up after, waits for it for ever
 * And one that must verify, NO_PARENT_GP_CHECK: the gp_seq check omitted
 * above the leaves only. A node empties once per grace period, so one
 * climber leaves it, and its parent cannot move on to another grace
 * period before that climber has cleared its bit: above a leaf a climb
 * is never stale. The check there is defensive; the leaf's is not.
 */

#ifdef WIDE
#define NCPU	3
#define NNODE	6
#else
#define NCPU	2
#define NNODE	4
#endif
#ifndef NGP
#define NGP	2	/* grace periods gp() runs */
#endif
#ifndef NSECT
#define NSECT	1	/* readers per CPU */
#endif
#ifndef NIDLE
#define NIDLE	1	/* idle periods per CPU */
#endif
/* cpu2 only notes and reports: given a reader and an idle period too,
 * the WIDE search grows from 1.6 to 84 million states (8.5 GB). */
#define NSECT_OF(c)	((c) == 2 -> 0 : NSECT)
#define NIDLE_OF(c)	((c) == 2 -> 0 : NIDLE)
#define NONE	255	/* no node: the climb is over */

#define PARENT(n)	(((n) == 1 || (n) == 4) -> 0 : ((n) == 5 -> 4 : 1))
#define BIT_IN_PARENT(n)	(((n) == 3 || (n) == 4) -> 2 : 1)
#define LEAF_OF(c)	((c) == 0 -> 2 : ((c) == 1 -> 3 : 5))
#define IS_LEAF(n)	((n) == 2 || (n) == 3 || (n) == 5)

byte gp_seq;		/* rcu_state.gp_seq: odd while a grace period runs */
byte ngp[NNODE];	/* rcu_node.gp_seq */
byte qsmask[NNODE];	/* rcu_node.qsmask: a leaf's bit 0 is its CPU */

bool idle[NCPU];	/* eqs_seq odd */
byte seen[NCPU];	/* rcu_data.gp_seq_seen */
byte pend[NCPU];	/* the grace period of a noted, unreported state */

/* Ghost state: each CPU's reader and the gp_seq when it began. */
bool rd_in[NCPU];
byte rd_gp[NCPU];
#define PRE(c)	(rd_in[c] && rd_gp[c] < gp_seq)
#ifdef WIDE
#define ANY_PRE	(PRE(0) || PRE(1) || PRE(2))
#else
#define ANY_PRE	(PRE(0) || PRE(1))
#endif

/* Clear bit b of node n for grace period g, and climb while nodes
 * empty; n, b and g are the caller's, n is NONE at the end. */
inline climb()
{
	do
	:: n == NONE -> break
	:: else ->
		atomic {
			/* under node n's lock: stale, or reported already */
			if
#if defined(NO_GP_CHECK)
			:: !(qsmask[n] & b) -> n = NONE
#elif defined(NO_PARENT_GP_CHECK)
			:: (IS_LEAF(n) && ngp[n] != g) || !(qsmask[n] & b) ->
				n = NONE
#else
			:: ngp[n] != g || !(qsmask[n] & b) -> n = NONE
#endif
			:: else ->
				qsmask[n] = qsmask[n] & ~b;
				/* the node still waits: its last report climbs */
				if
#ifdef EARLY_PARENT
				/* the interior node tells its parent at once */
				:: qsmask[n] != 0 && (IS_LEAF(n) || n == 0) ->
					n = NONE
#else
				:: qsmask[n] != 0 -> n = NONE
#endif
				:: n == 0 -> n = NONE	/* gp() sees it */
				/* emptied: unlock it, lock the parent (the
				 * window where the other climbs interleave) */
				:: else -> b = BIT_IN_PARENT(n); n = PARENT(n)
				fi
			fi
		}
	od;
	b = 0;
	g = 0
}

proctype cpu(byte c)
{
	byte n, b, g;
	byte nsect, nidle;

end:	do
	/* rcu_read_lock(); a reader never starts in the idle loop */
	:: d_step {
		!idle[c] && !rd_in[c] && nsect < NSECT_OF(c) ->
		nsect++;
		rd_in[c] = true;
		rd_gp[c] = gp_seq
	   }
	:: d_step { rd_in[c] -> rd_in[c] = false }
	/* note_quiescent_state()'s lock-free read: the leaf's grace
	 * period, screened by the global one, new to this CPU */
	:: d_step {
		!rd_in[c] && (ngp[LEAF_OF(c)] & 1) &&
		ngp[LEAF_OF(c)] == gp_seq && seen[c] != gp_seq ->
		seen[c] = gp_seq;
		pend[c] = gp_seq
	   }
	/* the report: rcu_report_qs() from here or from an interrupt's
	 * exit, inside a reader or not */
	:: pend[c] != 0 ->
		atomic { n = LEAF_OF(c); b = 1; g = pend[c]; pend[c] = 0 };
		climb()
	/* rcu_idle_enter(), rcu_idle_exit(): idle at a grace period's
	 * start, the CPU is left out of it (the source of stale reports) */
	:: d_step {
		!idle[c] && !rd_in[c] && nidle < NIDLE_OF(c) ->
		nidle++;
		idle[c] = true
	   }
	:: d_step { idle[c] -> idle[c] = false }
	od
}

/* gp_start()'s masks: a leaf waits for its CPU unless idle, a parent for
 * its children that wait. */
inline make_masks()
{
	m[2] = !idle[0];
	m[3] = !idle[1];
	m[1] = (m[2] != 0) | (m[3] != 0) << 1;
#ifdef WIDE
	m[5] = !idle[2];
	m[4] = (m[5] != 0);
	m[0] = (m[1] != 0) | (m[4] != 0) << 1
#else
	m[0] = (m[1] != 0)
#endif
}

/* node_start(): mask and grace period together, under the node's lock. */
inline node_start(k)
{
	d_step { qsmask[k] = m[k]; ngp[k] = gp_seq; m[k] = 0 }
}

proctype gp()
{
	byte m[NNODE];
	byte k, ngps;
	bool pre_reader;

	do
	:: ngps == NGP -> break
	:: else ->
		/* gp_start(): the grace period starts here for the
		 * readers (rd_gp); the masks are made before any is
		 * published */
		d_step { ngps++; gp_seq++; make_masks() };
#ifdef BOTTOM_UP
		k = NNODE;
		do
		:: k > 0 -> k--; node_start(k)
		:: else -> break
		od;
#else
		/* top-down: a node that empties always finds its parent
		 * already in this grace period */
		k = 0;
		do
		:: k < NNODE -> node_start(k); k++
		:: else -> break
		od;
#endif
		k = 0;
		/* gp_complete(): wait_event() on the root's mask */
		qsmask[0] == 0;
		/* the safety property: the C's gp_end() orders every
		 * report before the callbacks run */
		d_step { pre_reader = ANY_PRE };
		assert(pre_reader == 0);
		gp_seq++	/* gp_end() */
	od
}

init {
	atomic {
		run gp();
		run cpu(0);
		run cpu(1);
#ifdef WIDE
		run cpu(2);
#endif
		skip
	}
}
