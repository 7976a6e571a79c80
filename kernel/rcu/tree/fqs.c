/*
 * Forcing quiescent states and stall warnings: what the grace-period
 * thread does each time its alarm says a grace period has waited
 * RCU_NUDGE_TICKS ticks (see tree.c, step 4).
 */
#include "tree.h"
#include "kernel/rcu/inject.h"
#include "kernel/rcu/stats.h"
#include "kernel/hotplug.h"
#include "kernel/ipi.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/bitops.h"

/* The CPUs of `leaf` that still owe the current grace period. */
static u64 leaf_holdouts(struct rcu_node *leaf, unsigned long gp)
{
	unsigned long flags = rcu_node_lock_irqsave(leaf);
	u64 mask = leaf->gp_seq == gp ? leaf->qsmask : 0;

	spin_unlock_irqrestore(&leaf->lock, flags);
	return mask;
}

/* Visit every CPU that still owes gp: the leaves hold them all, at any
 * depth, so the scan never looks at an interior node. */
static void for_each_holdout(unsigned long gp,
			     void (*fn)(unsigned int cpu, unsigned long gp))
{
	struct rcu_node *leaf;
	unsigned int bit;

	rcu_for_each_leaf(leaf) {
		u64 mask = leaf_holdouts(leaf, gp);

		for (bit = 0; mask; bit++, mask >>= 1)
			if (mask & 1)
				fn(leaf->grplo + bit, gp);
	}
}

/* Idle now, or idle at some point since the sample in rcu_gp_start(): the
 * counter is odd, or has moved. The sample and this read are both of a
 * counter its CPU changes only with full barriers. */
static void force_one(unsigned int cpu, unsigned long gp)
{
	struct rcu_data *rdp = &rcu_data[cpu];
	/* Pairs with the locked increments of rcu_idle_enter() and
	 * rcu_irq_exit(): the CPU's readers before it went idle come
	 * before this load, and the report's lock (a locked instruction,
	 * a full barrier) keeps the load before the report, as x86-TSO
	 * would anyway. eqs_snapshot is the GP thread's own, from
	 * leaf_wait_mask(). */
	unsigned long now = READ_ONCE(rdp->eqs_seq);

	if ((now & 1) || now != rdp->eqs_snapshot) {
		trace_event(TRACE_RCU, cpu, TRACE_QS_FOR_IDLE, 0,
			    rcu_gp_number(gp), 0);
		rcu_report_qs(cpu, gp);
		return;
	}
	/* Running: nudge it through the scheduler. */
	rdp->found_running++;	/* GP thread only; for the stall warning */
	if (rcu_bug(RCU_BUG_NO_NUDGE))
		return;
	rdp->nudges++;		/* GP thread only; statistics */
	trace_event(TRACE_RCU, cpu, TRACE_NUDGE, 0, rcu_gp_number(gp), 0);
	/* No ordering needed against the IPI: its handler,
	 * sched_reschedule_ipi(), sets the flag again on the target. */
	WRITE_ONCE(cpu_area(cpu)->need_resched, 1);
	if (cpu != this_cpu_id())
		arch_send_ipi(cpu, IPI_RESCHEDULE);
}

void rcu_force_quiescent_states(void)
{
	/* The GP thread's own gp_seq: only it writes it. */
	for_each_holdout(READ_ONCE(rcu_state.gp_seq), force_one);
}

/*
 * A holdout that is not online, for the normal and the expedited stall
 * warnings alike: still waited for once it has parked is a bug in RCU;
 * before that it is on its way up or down. NULL for an online CPU.
 */
const char *rcu_offline_stall_verdict(unsigned int cpu)
{
	if (READ_ONCE(cpu_area(cpu)->online))
		return NULL;
	return cpu_is_parked(cpu) ?
	       "it is offline, parked, and still waited for: an RCU bug" :
	       "it is part-way online or offline: stuck in the hotplug path";
}

static const char starved[] =
	"the host hardly ran this vCPU: starved, not a kernel bug";

/* What the GP thread's snapshots at the grace period's start say about
 * a holdout since. Lock-free snapshots of another CPU's counters, which
 * may move as we read them; nothing is ordered. */
struct holdout_counts {
	u64 ticks, expected, switches, nudges, found_running;
};

/*
 * What a holdout did since the grace period began, and what that says.
 * The forcing scan finding it running and not nudging it is a bug in RCU
 * whatever the host did: both counts are the grace-period thread's own,
 * so they do not depend on the holdout's vCPU being run. Otherwise a
 * vCPU that took far fewer ticks than the grace period is old was not
 * run by the host (starvation, not a bug); one that ticked but never
 * reported either passed through schedule() without its report counting
 * (a bug in RCU), or never scheduled at all (a reader, or a region with
 * preemption off, that does not end).
 */
static const char *holdout_verdict(unsigned int cpu, struct holdout_counts *h)
{
	const struct rcu_data *rdp = &rcu_data[cpu];
	u64 age_ms = (clock_ns() - rcu_state.gp_start_ns) / NSEC_PER_MSEC;
	const char *offline = rcu_offline_stall_verdict(cpu);

	h->ticks = READ_ONCE(cpu_area(cpu)->ticks) - rdp->ticks_snapshot;
	h->expected = age_ms * hz / 1000;
	h->switches = READ_ONCE(rdp->context_switches) - rdp->switches_snapshot;
	h->nudges = rdp->nudges - rdp->nudges_snapshot;
	h->found_running = rdp->found_running - rdp->found_running_snapshot;
	if (offline)
		return offline;
	if (h->found_running && !h->nudges)
		return "it was never nudged to schedule: an RCU bug";
	if (rcu_vcpu_starved(h->ticks, age_ms))
		return starved;
	if (h->switches)
		return "it scheduled, yet its quiescent state was not counted: "
		       "an RCU bug";
	return "it ran but never scheduled: a reader or a preempt-off "
	       "region that does not end";
}

static void print_stalled_cpu(unsigned int cpu)
{
	const struct rcu_data *rdp = &rcu_data[cpu];
	struct thread *t = READ_ONCE(cpu_area(cpu)->current);
	struct holdout_counts h;
	const char *verdict = holdout_verdict(cpu, &h);

	/* The idle counter against its sample and need_resched say whether
	 * the CPU idled unseen or ignored its nudges. */
	pr_err("rcu:     cpu%u: running %s, preempt_count %u, need_resched "
	       "%u, idle counter %lu (at the start %lu)\n",
	       cpu, t ? t->name : "?", READ_ONCE(cpu_area(cpu)->preempt_count),
	       READ_ONCE(cpu_area(cpu)->need_resched),
	       READ_ONCE(rdp->eqs_seq), rdp->eqs_snapshot);
	pr_err("rcu:     cpu%u: since the grace period began: %llu ticks of "
	       "~%llu expected, nudged %llu times, %llu passes through "
	       "schedule(): %s\n", cpu, h.ticks, h.expected, h.nudges,
	       h.switches, verdict);
	if (cpu != this_cpu_id())
		arch_backtrace_cpu(cpu);
}

/* One warning's holdouts: the first RCU_STALL_CPUS_IN_FULL in full,
 * the rest named by leaf (engine.h says why), and whether any of them
 * was not simply starved by the host. The GP thread's own. */
static unsigned int holdouts_in_full, holdouts_found;
static struct cpumask holdouts_rest, holdouts_starved;
static bool holdout_not_starved;

static void report_holdout(unsigned int cpu, unsigned long gp)
{
	struct holdout_counts h;
	bool is_starved = holdout_verdict(cpu, &h) == starved;

	(void)gp;
	holdouts_found++;
	holdout_not_starved |= !is_starved;
	if (holdouts_in_full < RCU_STALL_CPUS_IN_FULL) {
		holdouts_in_full++;
		print_stalled_cpu(cpu);
		return;
	}
	cpumask_set(&holdouts_rest, cpu);
	if (is_starved)
		cpumask_set(&holdouts_starved, cpu);
}

/* A line per leaf for the holdouts not printed in full. */
static void summarise_rest(void)
{
	const struct rcu_node *leaf;
	unsigned int cpu;

	rcu_for_each_leaf(leaf) {
		unsigned int n = 0, n_starved = 0;
		struct cpumask mine;
		char cpus[96];

		cpumask_clear(&mine);
		for (cpu = leaf->grplo; cpu <= leaf->grphi; cpu++) {
			if (!cpumask_test(&holdouts_rest, cpu))
				continue;
			cpumask_set(&mine, cpu);
			n++;
			n_starved += cpumask_test(&holdouts_starved, cpu);
		}
		if (!n)
			continue;
		atomic_add_relaxed(&rcu_stall_rest_reported, n); /* engine.h */
		bitmap_format_ranges(cpus, sizeof(cpus), mine.bits, MAX_CPUS);
		pr_err("rcu:     leaf %u (cpu%u-%u): %u more holdouts, %u of "
		       "them starved by the host: cpu%s\n", leaf->index,
		       leaf->grplo, leaf->grphi, n, n_starved, cpus);
	}
}

/* Whether readers preempted before the grace period still hold up any
 * node (a lock-free hint, as in rcu_gp_complete()). */
static bool readers_hold_gp(void)
{
	const struct rcu_node *node;

	rcu_for_each_node(node)
		if (rcu_preempt_blocks_gp_hint(node))
			return true;
	return false;
}

/*
 * No CPU owes the grace period and no reader holds it, yet the root
 * waits: a node emptied and its report did not reach its parent. Name
 * the nodes still waiting, whose children are all done: where the
 * report stopped. (A vCPU the host stopped in the middle of a climb
 * looks the same for as long as it is stopped.) Lock-free snapshots.
 */
static void show_lost_reports(void)
{
	const struct rcu_node *node;

	pr_err("rcu:     no CPU and no preempted reader holds it up: a report "
	       "lost on its way up the tree (or still climbing on a vCPU "
	       "the host stopped); nodes still waiting:\n");
	rcu_for_each_node(node)
		if (READ_ONCE(node->qsmask))
			pr_err("rcu:     node %u:%u (cpu%u-%u) mask %llx\n",
			       node->level, node->index, node->grplo,
			       node->grphi, READ_ONCE(node->qsmask));
}

/* Once per rcu.stall_timeout_ms of a grace period's age. */
void rcu_check_stall(void)
{
	u64 now = clock_ns();
	/* gp_seq, next_stall_ns and stalls are the GP thread's own. */
	unsigned long gp = READ_ONCE(rcu_state.gp_seq);
	bool readers;
	u64 age_ms;

	if (now < rcu_state.next_stall_ns)
		return;
	rcu_state.next_stall_ns = now + rcu_stall_timeout_ms * NSEC_PER_MSEC;
	rcu_state.stalls++;
	age_ms = (now - rcu_state.gp_start_ns) / NSEC_PER_MSEC;
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_STALL, 0,
		    rcu_gp_number(gp), age_ms);
	pr_err("rcu: INFO: rcu detected stalls on CPUs: grace period %lu is "
	       "%llu ms old; still waiting for:\n", rcu_gp_number(gp), age_ms);
	holdouts_in_full = holdouts_found = 0;
	holdout_not_starved = false;
	cpumask_clear(&holdouts_rest);
	cpumask_clear(&holdouts_starved);
	for_each_holdout(gp, report_holdout);
	atomic_add_relaxed(&rcu_stall_full_reported, holdouts_in_full);
	summarise_rest();
	rcu_preempt_show_blocked(false);
	readers = readers_hold_gp();
	if (!holdouts_found && !readers && !rcu_gp_complete()) {
		show_lost_reports();
		return;
	}
	/* Every CPU it waits for was starved, and no preempted reader
	 * holds it up: the host's doing. rcutorture does not fail on it,
	 * and tests/boot does not count a warning this line closes. */
	if (!holdout_not_starved && !readers) {
		WRITE_ONCE(rcu_state.stalls_starved,
			   rcu_state.stalls_starved + 1);
		pr_warn("rcu: the stall warning of grace period %lu at %llu "
			"ms named only vCPUs the host starved: not a kernel "
			"bug\n", rcu_gp_number(gp), age_ms);
	}
}

/*
 * The grace-period machinery's state, for reports of a hang (Linux's
 * show_rcu_gp_kthreads()): whether a grace period runs and is wanted,
 * which CPUs it still waits for, and where the GP thread is. Lock-free
 * snapshots, each untorn, not consistent with one another.
 */
void rcu_tree_show_gp_state(void)
{
	unsigned long gp = READ_ONCE(rcu_state.gp_seq);
	struct thread *t = rcu_state.gp_thread;
	const struct rcu_node *node;

	pr_err("rcu: gp_seq %lu (%s), needed %lu; the last grace period "
	       "began %llu ms ago; fqs_due %u, scan alarm %s\n", gp,
	       gp & 1 ? "running" : "idle",
	       READ_ONCE(rcu_state.gp_seq_needed),
	       (clock_ns() - READ_ONCE(rcu_state.gp_start_ns)) / NSEC_PER_MSEC,
	       READ_ONCE(rcu_state.fqs_due),
	       READ_ONCE(rcu_state.fqs_timer.pending) ? "set" : "not set");
	/* Level and place in it, as Linux's "rcu_node L:i" lines. */
	rcu_for_each_node(node)
		pr_err("rcu: node %u:%u (cpu%u-%u) gp_seq %lu mask %llx\n",
		       node->level, node->index, node->grplo, node->grphi,
		       READ_ONCE(node->gp_seq), READ_ONCE(node->qsmask));
	if (t)
		pr_err("rcu: rcu_gp is %s on cpu%u%s%s\n",
		       thread_state_name(READ_ONCE(t->state)), READ_ONCE(t->cpu),
		       READ_ONCE(t->on_cpu) ? ", running" : "",
		       READ_ONCE(t->on_queue) ? ", queued" : "");
	rcu_exp_show_state();
}
