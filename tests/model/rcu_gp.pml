/*
 * The grace-period engine of kernel/rcu/ as a Promela model for spin;
 * tests/model/run checks it and its planted-bug variants.
 *
 * CONFIGURATION. Two CPUs. With 16 CPUs or fewer rcu_leaf_of() is the
 * root, so the one node below is the C's own tree for this size: report_up
 * never climbs. cpu0 runs the updater, rcu_gp and rcuc/0 and never idles;
 * cpu1 runs NSECT read-side sections, in threads or in interrupt handlers,
 * idles, and takes ticks and IPIs. The updater queues a callback, runs
 * synchronize_rcu_expedited(), and queues a second callback.
 *
 * WHAT SPIN CHECKS.
 *  - rcuc0 asserts that no callback runs while the cpu1 section that was
 *    running when it was queued is still running; the updater asserts the
 *    same for synchronize_rcu_expedited() and the section running when it
 *    was called. Sections are numbered (ghost state rd_sect, rd_in); the
 *    number is taken where the C's updater has unpublished the old version.
 *  - Invalid end states. Valid ends: rcu_gp asleep until a grace period is
 *    needed, rcuc0 asleep, cpu1 halted or in a CPU-bound thread, the tick
 *    with nothing to do. A grace period that cannot end leaves rcu_gp in
 *    its other wait, which is no end state.
 *  - at_rest: once nothing can move, a grace period is stuck (the end-state
 *    check reports that) or every callback has run. End labels alone would
 *    accept a callback never given a grace period, or a lost wake-up.
 *
 * PROCESSES AND INLINES -> C.
 *  cpu1            sched/idle.c:cpu_idle_loop with
 *                  rcu/tree/quiescent.c:rcu_idle_enter/rcu_idle_exit; a
 *                  thread's rcu_read_lock() and rcu_read_unlock()
 *                  (rcu/rcupdate.h, sched/preempt.h:preempt_enable)
 *  c1_irq          irq.c:irq_enter/irq_exit: rcu/tree/quiescent.c:rcu_irq_enter and
 *                  rcu_irq_exit around sched/core.c:sched_reschedule_ipi,
 *                  rcu/tree/exp.c:exp_ipi_handler or the tick
 *                  (rcu/tree/tree.c:rcu_tree_tick -> rcu/tree/exp.c:
 *                  rcu_exp_tick), then
 *                  sched/core.c:preempt_schedule_irq
 *  c1_schedule     sched/core.c:__schedule ->
 *                  rcu/tree/quiescent.c:rcu_note_context_switch
 *  c1_note_qs      rcu/tree/quiescent.c:note_quiescent_state (cpu1; rcu_gp's own
 *                  call for cpu0 is inline in gp_start)
 *  report_up       rcu/tree/report.c:rcu_report_qs, node_clear,
 *                  rcu_report_node_done
 *  c1_report_exp   rcu/tree/exp.c:rcu_exp_report_here
 *  rcu_gp          rcu/tree/tree.c:gp_thread_fn, gp_needed;
 *                  rcu/tree/gp.c:rcu_gp_start, leaf_wait_mask,
 *                  node_start, rcu_gp_complete, rcu_gp_end;
 *                  rcu/tree/fqs.c:rcu_force_quiescent_states, for_each_holdout,
 *                  leaf_holdouts, force_one
 *  cpu0_tick       rcu/tree/tree.c:rcu_tree_tick on cpu0: rcu/tree/callbacks.c:
 *                  rcu_callbacks_tick, and the fqs_due timing
 *  rcuc0           rcu/tree/callbacks.c:cb_thread_fn, invoke_batch;
 *                  rcu/cblist.c:rcu_cblist_take_done
 *  updater         the caller of rcu/tree/callbacks.c:call_rcu (accelerate) and
 *                  rcu/tree/exp.c:synchronize_rcu_expedited
 *  request_gp      rcu/tree/tree.c:rcu_tree_request_gp
 *  cblist_*        rcu/cblist.c:rcu_cblist_accelerate, rcu_cblist_advance
 *  store_buffer    x86 store buffer, for INJECT_IDLE_BARRIER only
 *
 * ABSTRACTIONS, AND WHY THEY LOSE NOTHING THE ASSERTIONS DEPEND ON.
 *  - Memory is sequentially consistent. x86-TSO reorders only a store
 *    with a later load, and the C puts a lock, a locked instruction or an
 *    mfence at each hand-off its argument rests on (rcu/tree/tree.c, "Memory
 *    ordering"). The one hand-off whose fence is planted away,
 *    INJECT_IDLE_BARRIER's, gets a store buffer.
 *  - Steps. An atomic/d_step block is C that runs with interrupts off on
 *    one CPU, under one lock, or as one locked instruction. The windows the
 *    C leaves open to other CPUs are kept where another CPU's step in them
 *    can change an outcome: a reader's section, note_quiescent_state's read
 *    before the locked report, rcu_irq_exit's report before its increment,
 *    gp_start's sample before node_start, force_one's read of eqs_seq
 *    before its report, the expedited caller's read of eqs_seq before its
 *    exchange, call_rcu's unpublish before its sample of gp_seq. Merged
 *    where every step another CPU can take in between commutes with the
 *    merged one: gp_start's store of gp_seq with its sample of eqs_seq;
 *    node_start with rcu_gp's own report (other reports clear other bits);
 *    leaf_holdouts with force_one's read; a test of exp_pending with the
 *    exchange that repeats it (only the caller clears the flag too, and
 *    only for a CPU it sees idle); the expedited caller's set-up stores,
 *    which nobody reads before its eqs_seq read.
 *  - eqs_seq is kept as its parity and whether it moved since rcu_gp last
 *    sampled it: all that leaf_wait_mask, force_one and the expedited
 *    caller use (the 64-bit counter never wraps).
 *  - wait_event(wq, cond) is: test cond, or sleep until a wake_up_all(wq)
 *    that came after the test (a *_woken flag per wait queue). So a
 *    missing wake-up deadlocks the model as it would the kernel.
 *  - Time. The tick on cpu0 may ask rcu_gp for a holdout scan at any time
 *    in a grace period, at most FQS_MAX times. A later scan only repeats
 *    the nudge of a CPU already nudged, or makes a report one scan taken
 *    at that later time makes too; bounding them is what turns a grace
 *    period that cannot end into a state with no successor. The callback
 *    half of the tick runs once after each change of what it reads
 *    (tick_due): it is idempotent, and a tick that changes nothing would
 *    leave no state without a successor.
 *  - cpu1's tick is taken only in the idle thread, where it ends hlt and
 *    may run a reader or wake a thread. In other threads its RCU effects,
 *    the expedited backstop report outside a reader and a preemption at
 *    the end of a slice, are a subset of a schedule() that cpu1 may do
 *    at the same point; a report made later cannot end a grace period
 *    earlier. Readers in interrupts run only in the idle thread for the
 *    same reason: elsewhere they are thread readers with interrupts off.
 *  - cpu0 has no readers: its readers cannot overlap its own updater
 *    (readers are not preemptible), and rcu_gp's report for cpu0 at each
 *    gp_start (it runs there) clears cpu0's bit at once, as in the C.
 *    FORGET_CPU then leaves out cpu1 = nr_cpus - 1, not rcu_gp's CPU.
 *  - Left out, as they decide no grace period: stall warnings, statistics,
 *    latency samples, blimit (a batch takes all of DONE: at most NCB),
 *    synchronize_rcu() and the polled API (gp_done), rcu_barrier(),
 *    exp_seq and exp_mutex (one expedited caller), sched_balance, more
 *    leaves than one, CPU hot-plug.
 *
 * PLANTED BUGS (kernel/rcu/torture/inject.c), one -D switch each:
 *  INJECT_FORGET_CPU      leaf_wait_mask() leaves cpu1 out of the mask
 *  INJECT_EARLY_ADVANCE   accelerate() tags callbacks one grace period early
 *  INJECT_IDLE_BARRIER    rcu_idle_exit() with a plain store: it may sit in
 *                         the store buffer, unseen by other CPUs, until
 *                         cpu1's next locked instruction
 *  INJECT_NO_NUDGE        force_one() never nudges a running holdout
 */

/* HOTPLUG: cpu1 also goes offline and may come back (the search grows
 * eightfold, so that run takes one section fewer). */
#ifdef HOTPLUG
#define NSECT	1
#else
#define NSECT	2	/* read-side sections cpu1 runs */
#endif
#define NTICK1	1	/* ticks that can wake cpu1 */
#define NCB	2	/* callbacks the updater queues */
#define FQS_MAX	1	/* holdout scans per grace period */
#define NHOTPLUG	1	/* times cpu1 goes offline and comes back */

#define SEG_DONE	0
#define SEG_WAIT	1
#define SEG_NR		2	/* SEG_NEXT_READY */
#define SEG_NEXT	3

#define CTX_EQS		0	/* halted in the idle loop */
#define CTX_IDLE	1	/* the idle thread, out of its EQS */
#define CTX_THREAD	2	/* any other thread */

#define IRQ_RESCHED	1
#define IRQ_EXP		2
#define IRQ_TICK	3

/* rcu_cblist.h. No value here comes near a wrap, so the signed
 * difference of rcu_seq_done() is a plain comparison. */
#define seq_done(now, t)	((now) >= (t))
#define seq_snap(now)		(((now) + 3) & ~1)

byte gp_seq;
byte gp_seq_needed;
byte node_gp;		/* root.gp_seq */
byte qsmask;		/* root.qsmask: bit 0 cpu0, bit 1 cpu1 */
bool fqs_due;
byte fqs_left;
bool gp_woken;

byte gp_seen0;		/* rcu_data[].gp_seq_seen */
byte gp_seen1;
bool eqs1_odd;		/* rcu_data[1].eqs_seq & 1 */
bool eqs1_moved;	/* rcu_data[1].eqs_seq != eqs_snapshot */
bool irq_eqs_exit1;
bool exp_pending1;
byte pc1;		/* cpu1's preempt_count */
bool need_resched1;
bool ipi_resched1;	/* sent and not yet taken */
bool ipi_exp1;

byte exp_outstanding;
bool exp_woken;

/* CPU hotplug (kernel/hotplug.c): cpu_down() clears online1 at once, while
 * cpu1 may still be in a reader, and asks it to go down (down_req); cpu1
 * goes down from its idle loop and parks (parked1) until cpu_up()
 * starts it again (start1). */
bool online1 = true;
bool down_req;
bool parked1;
bool start1;
byte hp_left = NHOTPLUG;

/* cpu0's rcu_cblist. Callback k is the k-th queued and a tail is the
 * index of the first callback after its segment, so the C's "tails[i] =
 * &l->head" in rcu_cblist_take_done() needs no counterpart here: the
 * tail keeps its index, which cb_head reaches. */
byte cb_head;
byte tails[4];
byte gp_wait;		/* gp_seq[SEG_WAIT] */
byte gp_nr;		/* gp_seq[SEG_NEXT_READY] */
bool has_work;		/* cb_thread_has_work */
bool cb_woken;
bool tick_due;

/* Ghost state: cpu1's sections are numbered from 1. */
byte rd_sect;		/* the section running, or the last one run */
bool rd_in;
byte cb_rd[NCB];	/* the section running when callback k was queued */
byte exp_rd;

#define GP_NEEDED	(!seq_done(gp_seq, gp_seq_needed))
#define WAIT_EMPTY	(tails[SEG_WAIT] == tails[SEG_DONE])
#define NR_EMPTY	(tails[SEG_NR] == tails[SEG_WAIT])
#define NEXT_EMPTY	(tails[SEG_NEXT] == tails[SEG_NR])
#define READER_NOW	(rd_in -> rd_sect : 0)
#define STILL_IN(s)	(rd_in && rd_sect == (s))

inline eqs1_inc()
{
	eqs1_odd = !eqs1_odd;
	eqs1_moved = true
}

#ifdef INJECT_IDLE_BARRIER
/* cpu1 reads its own buffered store; the others see the old value. */
bool eqs1_buffered;
#define EQS1_OWN_ODD	(eqs1_odd != eqs1_buffered)

inline c1_drain()
{
	if
	:: eqs1_buffered -> eqs1_inc(); eqs1_buffered = false
	:: else -> skip
	fi
}

inline c1_idle_exit()
{
	eqs1_buffered = true
}

active proctype store_buffer()
{
end:	do
	:: atomic { eqs1_buffered -> c1_drain() }
	od
}
#else
#define EQS1_OWN_ODD	eqs1_odd

/* Every locked instruction of cpu1 drains its store buffer: the one
 * place SC differs from TSO here is INJECT_IDLE_BARRIER's store. */
inline c1_drain()
{
	skip
}

inline c1_idle_exit()
{
	eqs1_inc()
}
#endif

inline report_up(b, g)
{
	if
	:: node_gp == g && (qsmask & b) ->
		qsmask = qsmask & ~b;
		if
		:: qsmask == 0 -> gp_woken = true
		:: else -> skip
		fi
	:: else -> skip
	fi
}

/* Only cpu0 asks, always with interrupts off: the lock and the fast-path
 * read of the C cannot be told apart from one step. */
inline request_gp(snap)
{
	if
	:: !seq_done(gp_seq_needed, snap) ->
		gp_seq_needed = snap;
		gp_woken = true
	:: else -> skip
	fi
}

inline cblist_accelerate(snap, req)
{
	if
	:: NEXT_EMPTY -> req = false
	:: !NEXT_EMPTY && !NR_EMPTY ->
		tails[SEG_NR] = tails[SEG_NEXT];
		if
		:: seq_done(gp_nr, snap) -> req = false
		:: else -> gp_nr = snap; req = true
		fi
	:: !NEXT_EMPTY && NR_EMPTY && !WAIT_EMPTY && gp_wait == snap ->
		tails[SEG_WAIT] = tails[SEG_NEXT];
		tails[SEG_NR] = tails[SEG_NEXT];
		req = false
	:: !NEXT_EMPTY && NR_EMPTY && !WAIT_EMPTY && gp_wait != snap ->
		tails[SEG_NR] = tails[SEG_NEXT];
		gp_nr = snap;
		req = true
	:: !NEXT_EMPTY && NR_EMPTY && WAIT_EMPTY ->
		tails[SEG_WAIT] = tails[SEG_NEXT];
		tails[SEG_NR] = tails[SEG_NEXT];
		gp_wait = snap;
		req = true
	fi
}

inline accelerate(snap, req)
{
	snap = seq_snap(gp_seq);
#ifdef INJECT_EARLY_ADVANCE
	snap = snap - 2;
#endif
	cblist_accelerate(snap, req);
	if
	:: req -> request_gp(snap)
	:: else -> skip
	fi;
	snap = 0;
	req = false
}

/* After WAIT joins DONE the C re-points the emptied WAIT at the end of
 * DONE, where it already points; that no-op has no counterpart here. */
inline cblist_advance(completed)
{
	do
	:: WAIT_EMPTY && !NR_EMPTY ->
		tails[SEG_WAIT] = tails[SEG_NR];
		gp_wait = gp_nr
	:: !WAIT_EMPTY && seq_done(completed, gp_wait) ->
		tails[SEG_DONE] = tails[SEG_WAIT]
	:: else -> break
	od
}

inline c1_report_exp()
{
	c1_drain();
	if
	:: exp_pending1 ->
		exp_pending1 = false;
		exp_outstanding--;
		if
		:: exp_outstanding == 0 -> exp_woken = true
		:: else -> skip
		fi
	:: else -> skip
	fi
}

/* g is 0 or the odd grace period to report, so it needs no flag. */
inline c1_note_qs()
{
	d_step {
		if
		:: (node_gp & 1) && gp_seen1 != node_gp && node_gp == gp_seq ->
			gp_seen1 = node_gp;
			g = node_gp
		:: else -> skip
		fi
	}
	if
	:: g != 0 -> d_step { c1_drain(); report_up(2, g); g = 0 }
	:: else -> skip
	fi
}

/* The run-queue lock after the RCU calls is a locked instruction. */
inline c1_schedule()
{
	c1_note_qs();
	d_step {
		if
		:: exp_pending1 -> c1_report_exp()
		:: else -> skip
		fi;
		c1_drain();
		need_resched1 = false
	}
}

inline c1_read_lock()
{
	d_step { pc1++; rd_sect++; rd_in = true }
}

inline c1_read_unlock()
{
	d_step { pc1--; rd_in = false }
}

/* Interrupts do not nest (handlers run with interrupts off), so every
 * one is outermost. A tick may make a thread runnable (need_resched). */
inline c1_irq(ctx)
{
	atomic {
		if
		:: ipi_resched1 -> ipi_resched1 = false; irq = IRQ_RESCHED
		:: ipi_exp1 -> ipi_exp1 = false; irq = IRQ_EXP
		:: ctx != CTX_THREAD && ticks < NTICK1 -> ticks++; irq = IRQ_TICK
		fi;
		if
		:: EQS1_OWN_ODD -> c1_drain(); eqs1_inc(); irq_eqs_exit1 = true
		:: else -> skip
		fi;
		if
		:: irq == IRQ_RESCHED -> need_resched1 = true
		:: irq != IRQ_RESCHED && exp_pending1 && pc1 == 0 -> c1_report_exp()
		:: irq == IRQ_EXP && exp_pending1 && pc1 != 0 -> need_resched1 = true
		:: else -> skip
		fi;
		if
		:: irq == IRQ_TICK -> need_resched1 = true
		:: skip
		fi;
		irq = 0
	}
	if
	:: ctx != CTX_THREAD && rd_sect < NSECT -> c1_read_lock(); c1_read_unlock()
	:: skip
	fi;
	if
	:: irq_eqs_exit1 ->
		irq_eqs_exit1 = false;
		c1_note_qs();
		d_step { c1_drain(); eqs1_inc() }
	:: else -> skip
	fi;
	if
	:: ctx == CTX_THREAD && need_resched1 && pc1 == 0 -> c1_schedule()
	:: else -> skip
	fi
}

/*
 * Each pass through a loop below either uses up a section, a tick or a
 * pending IPI, or repeats a state, so the state space is finite; cpu1
 * ends halted (end_hlt) or in a thread that never yields (end_busy),
 * the case that needs the nudge.
 */
active proctype cpu1()
{
	byte g, irq, ticks;

thread:
	do
	:: rd_sect < NSECT ->
		c1_read_lock();
		do
		:: c1_irq(CTX_THREAD)
		:: break
		od;
		c1_read_unlock();
		/* an interrupt between the decrement and the test */
		do
		:: c1_irq(CTX_THREAD)
		:: break
		od;
		if
		:: need_resched1 && pc1 == 0 -> c1_schedule()
		:: else -> skip
		fi
	:: c1_irq(CTX_THREAD)
	:: c1_schedule()
	:: c1_schedule(); goto idle_loop
	:: goto end_busy
	od;

idle_loop:
	do
#ifdef HOTPLUG
	:: down_req -> goto going_down
#endif
	:: !down_req && need_resched1 ->
		c1_schedule();
		if
		:: goto thread
		:: skip
		fi
	:: !down_req && !need_resched1 ->
		/* rcu_idle_enter(), interrupts off until sti; hlt */
		c1_note_qs();
		d_step {
			if
			:: exp_pending1 -> c1_report_exp()
			:: else -> skip
			fi;
			c1_drain();
			eqs1_inc()
		}
end_hlt:	c1_irq(CTX_EQS);
		c1_idle_exit();
		do
		:: c1_irq(CTX_IDLE)
		:: break
		od
	od;

end_busy:
	c1_irq(CTX_THREAD);
	goto end_busy;
#ifdef HOTPLUG
	/* cpu_die_here(), interrupts off: rcu_cpu_dying() is
	 * rcu_idle_enter() for good, then a second look at the expedited
	 * flag; then cpu1 parks, taking no interrupt, until INIT, which
	 * drops whatever IPIs were pending. */
going_down:
	c1_note_qs();
	d_step {
		if
		:: exp_pending1 -> c1_report_exp()
		:: else -> skip
		fi;
		c1_drain();
#ifndef INJECT_OFFLINE_IN_MASKS
		eqs1_inc()
#endif
	}
	c1_note_qs();
	d_step {
		if
		:: exp_pending1 -> c1_report_exp()
		:: else -> skip
		fi;
		down_req = false;
		parked1 = true
	}
end_parked:
	start1;
	/* secondary_cpu_main(): rcu_cpu_starting(), then online */
	d_step {
		start1 = false;
		ipi_resched1 = false;
		ipi_exp1 = false;
		need_resched1 = false;
		if
		:: EQS1_OWN_ODD -> c1_idle_exit()
		:: else -> skip
		fi;
		online1 = true
	}
	goto idle_loop
#endif
}

#ifdef HOTPLUG
/* cpu_down() for cpu1, then cpu_up() or never: a CPU may stay offline
 * for good, and no grace period may wait for it then. NHOTPLUG times. */
active proctype hotplug()
{
end:	do
	:: atomic {
		hp_left > 0 && online1 && !down_req && !parked1 ->
		hp_left--;
		online1 = false;
		down_req = true;
		need_resched1 = true;
		ipi_resched1 = true
	   };
	   if
	   :: atomic { parked1 -> parked1 = false; start1 = true }
	   :: goto end_offline
	   fi
	od;
end_offline:
	skip
}
#endif

active proctype rcu_gp()
{
	byte gp, mask, g0;

	do
	:: do
		:: GP_NEEDED -> break
		:: atomic { !GP_NEEDED -> gp_woken = false };
end_idle:	   gp_woken
		od;
		atomic {
			gp = gp_seq + 1;
			fqs_due = false;
			fqs_left = FQS_MAX;
			gp_seq = gp;
			tick_due = true;
			eqs1_moved = false;
			mask = (eqs1_odd -> 1 : 3);
#ifdef INJECT_GP_SKIPS_OFFLINE
			/* the bug the hotplug torture found: trusting online */
			mask = ((eqs1_odd || !online1) -> 1 : 3);
#endif
#ifdef INJECT_FORGET_CPU
			mask = mask & ~2;
#endif
		}
		d_step {
			qsmask = mask;
			node_gp = gp;
			mask = 0;
			if
			:: (node_gp & 1) && gp_seen0 != node_gp && node_gp == gp_seq ->
				gp_seen0 = node_gp;
				report_up(1, node_gp)
			:: else -> skip
			fi
		}
		do
		:: qsmask == 0 || fqs_due ->
			if
			:: qsmask == 0 -> break
			:: else -> skip
			fi;
			/* mask becomes: 0 no holdout, 1 report cpu1, 2 nudge it */
			d_step {
				fqs_due = false;
				mask = (node_gp == gp_seq -> qsmask : 0);
				g0 = gp_seq;
				assert(!(mask & 1));
				mask = ((mask & 2) == 0 -> 0 :
					((eqs1_odd || eqs1_moved) -> 1 : 2))
			}
			if
			:: mask == 1 -> d_step { report_up(2, g0); mask = 0; g0 = 0 }
			:: mask == 2 ->
#ifdef INJECT_NO_NUDGE
				d_step { mask = 0; g0 = 0 }
#else
				d_step {
					need_resched1 = true;
					ipi_resched1 = true;
					mask = 0;
					g0 = 0
				}
#endif
			:: mask == 0 -> g0 = 0
			fi
		:: atomic { !(qsmask == 0 || fqs_due) -> gp_woken = false };
		   gp_woken
		od;
		atomic { gp_seq = gp_seq + 1; gp = 0; tick_due = true }
	od
}

active proctype cpu0_tick()
{
	byte snap;
	bool req;

end:	do
	:: d_step {
		tick_due && tails[SEG_NEXT] != cb_head ->
		tick_due = false;
		cblist_advance(gp_seq);
		accelerate(snap, req);
		if
		:: tails[SEG_DONE] != cb_head && !has_work ->
			has_work = true;
			cb_woken = true
		:: else -> skip
		fi
	   }
	:: atomic {
		(gp_seq & 1) && !fqs_due && fqs_left > 0 ->
		fqs_left--;
		fqs_due = true;
		gp_woken = true
	   }
	od
}

active proctype rcuc0()
{
	byte k;

	do
	:: d_step {
		has_work ->
		k = cb_head;
		do
		:: k < tails[SEG_DONE] ->
			assert(!STILL_IN(cb_rd[k]));
			cb_rd[k] = 0;
			k++
		:: else -> break
		od;
		cb_head = tails[SEG_DONE];
		has_work = false;
		tick_due = true;
		k = 0
	   }
	:: atomic { !has_work -> cb_woken = false };
end_wait:
	   cb_woken
	od
}

inline call_rcu()
{
	d_step { cb_rd[tails[SEG_NEXT]] = READER_NOW }
	d_step {
		tails[SEG_NEXT]++;
		accelerate(snap, req);
		tick_due = true
	}
}

inline synchronize_rcu_expedited()
{
	d_step {
		exp_rd = READER_NOW;
		exp_outstanding = 1;
		exp_pending1 = true;
		exp_outstanding++
	}
	if
	:: eqs1_odd ->
		d_step {
			if
			:: exp_pending1 -> exp_pending1 = false; exp_outstanding--
			:: else -> skip
			fi
		}
	:: else -> ipi_exp1 = true
	fi;
	d_step {
		exp_outstanding--;
		if
		:: exp_outstanding == 0 -> exp_woken = true
		:: else -> skip
		fi
	}
	do
	:: exp_outstanding == 0 -> break
	:: atomic { exp_outstanding != 0 -> exp_woken = false };
	   exp_woken
	od;
	assert(!STILL_IN(exp_rd));
	exp_rd = 0
}

active proctype updater()
{
	byte snap;
	bool req;

	call_rcu();
	synchronize_rcu_expedited();
	call_rcu()
}

active proctype at_rest()
{
	timeout;
	assert((gp_seq & 1) || cb_head == NCB)
}
