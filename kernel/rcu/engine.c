/*
 * rcu.engine=: which grace-period engine runs (engine.h), and the API's
 * entry points that hand each call to it.
 */
#include "engine.h"
#include "flavour.h"
#include "hooks.h"
#include "inject.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "lib/format.h"
#include "lib/atomic.h"
#include "lib/sort.h"
#include "lib/string.h"

/* The tree until rcu_choose_engine(): the boot CPU's first hook
 * (rcu_cpu_starting() in kmain()) runs before the command line is read. */
const struct rcu_engine *rcu_engine = &rcu_tree_engine;

u64 rcu_stall_full_reported, rcu_stall_rest_reported;

static char engine_name[16] = "tree";
CMDLINE_STRING("rcu.engine", engine_name,
	       "the grace-period engine: tree (Linux's Tree RCU) or classic "
	       "(Linux 2.6.0's, the 2003 article's; not with RCU=preempt)");

/* The engine named engine, or NULL with the line that says why not. */
static const struct rcu_engine *engine_named(const char *name)
{
	if (!strcmp(name, "tree"))
		return &rcu_tree_engine;
#if CONFIG_PREEMPT_RCU
	if (!strcmp(name, "classic")) {
		pr_err("rcu: rcu.engine=classic: the preemptible flavour runs on "
		       "the tree engine only (classic RCU was never "
		       "preemptible); using tree\n");
		return NULL;
	}
#else
	if (!strcmp(name, "classic"))
		return &rcu_classic_engine;
#endif
	pr_err("rcu: rcu.engine=%s: expected tree or classic; using tree\n",
	       name);
	return NULL;
}

/**
 * rcu_choose_engine - take rcu.engine= from the command line
 *
 * Context: boot, once, on the boot CPU, after cmdline_parse() and before
 * any AP starts or any grace period is asked for: the hooks the boot CPU
 * ran before are the tree's, which only touched its own state.
 */
__init void rcu_choose_engine(void)
{
	const struct rcu_engine *e = engine_named(engine_name);

	rcu_engine = e ? e : &rcu_tree_engine;
}

void rcu_note_context_switch(void)
{
	rcu_engine->note_context_switch();
}

void rcu_idle_enter(void)
{
	rcu_engine->idle_enter();
}

void rcu_idle_exit(void)
{
	rcu_engine->idle_exit();
}

void rcu_irq_enter(void)
{
	rcu_engine->irq_enter();
}

void rcu_irq_exit(void)
{
	rcu_engine->irq_exit();
}

void rcu_tick(void)
{
	rcu_engine->tick();
}

u64 rcu_needs_cpu(void)
{
	return rcu_engine->needs_cpu();
}

void rcu_cpu_dying(void)
{
	rcu_engine->cpu_dying();
}

void rcu_cpu_dead(unsigned int cpu)
{
	rcu_engine->cpu_dead(cpu);
}

void rcu_cpu_starting(void)
{
	rcu_engine->cpu_starting();
}

__init void rcu_setup(void)
{
	if (rcu_engine->setup)
		rcu_engine->setup();
}

__init void rcu_init(void)
{
	pr_info("rcu: %s engine\n", rcu_engine->name);
	rcu_inject_init();
	rcu_engine->init();
}

/* Either engine's callback thread for cpu, "rcuc/N", bound to it; the
 * boot cannot go on without it. */
__init struct thread *rcu_start_cb_thread(unsigned int cpu,
					  void (*fn)(void *arg), void *arg)
{
	char name[THREAD_NAME_MAX];
	struct thread *t;

	ksnprintf(name, sizeof(name), "rcuc/%u", cpu);
	t = thread_create_on(fn, arg, name, cpu);
	if (!t)
		panic("rcu: no memory for %s", name);
	/* A CPU going offline lets it finish the batch it took. */
	thread_mark_per_cpu(t);
	return t;
}

__init void rcu_start_kthreads(void)
{
	rcu_engine->start_kthreads();
	rcu_kthreads_apply_boot_priority();
}

/**
 * synchronize_rcu - wait for a full grace period
 *
 * Context: thread context with preemption and interrupts enabled, after
 * rcu_start_kthreads(); sleeps, so never inside rcu_read_lock(), with a
 * spinlock held or in an interrupt handler (the debug build panics:
 * "scheduling while atomic"). Normally returns within a few ticks.
 * On return every reader that began before the call has ended, and its
 * accesses happen before the caller's later ones; a reader still running
 * at the return sees every update the caller made before the call.
 */
void synchronize_rcu(void)
{
	rcu_engine->synchronize();
}

/**
 * synchronize_rcu_expedited - wait for a grace period, at some cost to
 * the other CPUs: the tree interrupts every CPU not idle; the classic
 * engine starts a batch at once and reschedules the CPUs it waits for
 *
 * Context and guarantee as synchronize_rcu().
 */
void synchronize_rcu_expedited(void)
{
	rcu_engine->synchronize_expedited();
}

void rcu_request_gp(unsigned long snap)
{
	rcu_engine->request_gp(snap);
}

void rcu_show_gp_state(void)
{
	rcu_engine->show_gp_state();
}

unsigned long rcu_gp_seq_now(void)
{
	/* For reports and the torture test: the acquire is more than they
	 * need, and costs nothing on x86. */
	return rcu_engine->gp_seq();
}

/* The latency fields of s from an engine's ring of grace-period
 * durations, of which `written` have been stored (published with
 * release; the caller read the count with acquire). Once the ring has
 * wrapped, a slot being rewritten reads as the old sample or the new. */
void rcu_fill_latency(struct rcu_stats *s, const u64 *ring,
		      unsigned int written)
{
	static u64 sorted[RCU_LATENCY_RING];
	unsigned int n = MIN(written, RCU_LATENCY_RING), i;

	for (i = 0; i < n; i++)
		sorted[i] = READ_ONCE(ring[i]);
	sort_u64(sorted, n);
	s->latency_samples = n;
	s->latency_min_ns = n ? sorted[0] : 0;
	s->latency_median_ns = n ? percentile_u64(sorted, n, 50) : 0;
	s->latency_p99_ns = n ? percentile_u64(sorted, n, 99) : 0;
	s->latency_max_ns = n ? sorted[n - 1] : 0;
}

void rcu_get_stats(struct rcu_stats *s)
{
	s->kfree_blocks = READ_ONCE(rcu_kfree_blocks);	/* a statistic */
	s->flavour = RCU_FLAVOUR_NAME;
	s->engine = rcu_engine->name;
	s->kthreads = rcu_engine->kthreads;
	s->kthread_prio = rcu_kthread_priority();
	s->stall_cpus_in_full = READ_ONCE(rcu_stall_full_reported);
	s->stall_cpus_summarised = READ_ONCE(rcu_stall_rest_reported);
	s->stalls_starved = 0;		/* an engine that can tell sets it */
	rcu_engine->get_stats(s);
}

void rcu_get_cpu_stats(unsigned int cpu, struct rcu_cpu_stats *s)
{
	rcu_engine->get_cpu_stats(cpu, s);
}
