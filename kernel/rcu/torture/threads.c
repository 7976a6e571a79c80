/*
 * rcutorture's readers, CPU hogs and thread management.
 */
#include "internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/rcu/stats.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/format.h"
#include "lib/string.h"

static const char *const gp_names[TGP_COUNT] = {
	"sync", "exp", "poll", "async", "barrier",
};

enum torture_gp torture_pick_gp(struct prng *rng)
{
	for (;;) {
		enum torture_gp g = prng_below(rng, TGP_COUNT);

		if (torture.gp_enabled[g])
			return g;
	}
}

/* Parse "sync,exp,..."; false (after saying why) on an unknown name. */
static bool parse_gp_list(const char *list)
{
	char word[16];
	const char *p = list;
	bool any = false;

	memset(torture.gp_enabled, 0, sizeof(torture.gp_enabled));
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		unsigned int g;

		strlcpy(word, p, MIN(len + 1, sizeof(word)));
		for (g = 0; g < TGP_COUNT; g++)
			if (!strcmp(word, gp_names[g]))
				break;
		if (g == TGP_COUNT) {
			pr_err("rcu-torture: torture.gp: unknown flavour '%s'; "
			       "expected sync, exp, poll, async or barrier\n",
			       word);
			return false;
		}
		torture.gp_enabled[g] = any = true;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (!any)
		pr_err("rcu-torture: torture.gp is empty\n");
	return any;
}

/* Busy for a while inside a section: mostly short, often long enough
 * for ticks and IPIs to interrupt it, and rarely long enough for a
 * callback to be invoked several times over if grace periods end early. */
static void reader_delay(struct prng *rng)
{
	u64 us = prng_below(rng, 16) ? prng_below(rng, 50)
				     : 1000 + prng_below(rng, 3000);

	if (prng_below(rng, 1024) == 0)
		us = 20000 + prng_below(rng, 40000);
	u64 end = clock_ns() + us * NSEC_PER_USEC;

	while (clock_ns() < end)
		arch_cpu_relax();
}

static void count(unsigned long *hist, unsigned long v)
{
	atomic_add_relaxed(&hist[MIN(v, (unsigned long)TORTURE_PIPE_LEN)], 1);
}

static unsigned long completed_gps(void)
{
	return torture.ops->gp_seq() >> 1;
}

/* An interrupt handler's section is short: it holds off the CPU's other
 * interrupts. Mostly tens of microseconds, now and then a few hundred. */
static void irq_reader_delay(struct prng *rng)
{
	u64 us = prng_below(rng, 16) ? 5 + prng_below(rng, 50)
				     : 100 + prng_below(rng, 200);
	u64 end = clock_ns() + us * NSEC_PER_USEC;

	while (clock_ns() < end)
		arch_cpu_relax();
}

/* An SRCU reader thread now and then sleeps inside its section, for a
 * tick or a few: the grace periods must wait for it all the same. */
static void sleep_inside_maybe(struct prng *rng)
{
	if (prng_below(rng, 8) == 0)
		sleep_ms(1 + prng_below(rng, 3));
}

void torture_read_section(struct prng *rng, unsigned int reader)
{
	const struct torture_ops *ops = torture.ops;
	bool in_interrupt = reader == ORACLE_IRQ;
	unsigned int depth = 1 + prng_below(rng, 3), i;
	bool irqs_off = !in_interrupt && prng_below(rng, 8) == 0;
	unsigned long flags = 0, batch_start, cookie, pipe, seq_start;
	struct torture_elem *e;
	int idx[3];

	/* The cookie is taken inside the section: a grace period that
	 * starts after it must wait for this reader, so the cookie cannot
	 * complete before the section ends. (Taken before the lock, a grace
	 * period could start in between and rightly end under us.) */
	for (i = 0; i < depth; i++)
		idx[i] = ops->read_lock();
	oracle_reader_begin(reader);
	cookie = ops->get_state();
	seq_start = ops->gp_seq();
	if (irqs_off)
		local_irq_save(flags);
	batch_start = completed_gps();
	e = rcu_dereference_check(torture.current, ops->read_held());
	if (e) {
		if (in_interrupt)
			irq_reader_delay(rng);
		else
			reader_delay(rng);
		if (ops->readers_sleep && !in_interrupt && !irqs_off)
			sleep_inside_maybe(rng);
		if (!in_interrupt && !irqs_off)
			torture_preempt_reader_maybe(rng);
		if (READ_ONCE(e->mbtest) == 0)
			atomic_add_relaxed(&torture.poison_seen, 1);
		pipe = READ_ONCE(e->pipe_count);
		count(torture.reader_pipe, pipe);
		count(torture.reader_batch, completed_gps() - batch_start);
		if (ops->poll_state(cookie)) {
			atomic_add_relaxed(&torture.poll_early, 1);
			pr_err("rcu-torture: !!! cpu%u's %s section: its cookie "
			       "%lu (taken inside it, gp_seq %lu at its start) "
			       "completed before its end (gp_seq %lu)\n",
			       this_cpu_id(), in_interrupt ? "interrupt" :
			       "thread", cookie, seq_start, ops->gp_seq());
		}
	}
	if (irqs_off)
		local_irq_restore(flags);
	oracle_reader_end(reader);
	while (depth--)
		ops->read_unlock(idx[depth]);
	atomic_add_relaxed(&torture.sections, 1);
	if (in_interrupt)
		atomic_add_relaxed(&torture.irq_sections, 1);
}

static void reader_fn(void *arg)
{
	unsigned int me = (unsigned int)(uptr)arg;
	struct prng rng;
	unsigned int n = 0;

	prng_seed(&rng, torture.cfg.seed * 31 + (uptr)arg);
	while (!READ_ONCE(torture.stop)) {
		if (READ_ONCE(torture.stutter) != STUTTER_NONE) {
			torture_sit_out_pause();
			continue;
		}
		torture_read_section(&rng, me);
		if (++n % 64 == 0 || prng_below(&rng, 256) == 0)
			sleep_ms(prng_below(&rng, 2));
		else if (n % 8 == 0)
			yield();
	}
}

/*
 * Keeps its CPU busy with preemption enabled, sleeping now and then.
 * During a hogs pause the hogs of CPUs 1 and up spin without a break,
 * alone on their CPUs (every other torture thread sits the pause out on a
 * wait queue, and rcu_gp lives on CPU 0), while CPU 0's hog asks for one
 * grace period after another: those end only if RCU nudges the spinning
 * CPUs. During an idle pause every hog sleeps.
 */
static void hog_fn(void *arg)
{
	unsigned int cpu = (unsigned int)(uptr)arg;
	struct prng rng;

	prng_seed(&rng, torture.cfg.seed * 131 + cpu);
	while (!READ_ONCE(torture.stop)) {
		u64 end = clock_ns() + (1 + prng_below(&rng, 20)) * NSEC_PER_MSEC;
		enum torture_stutter stutter;

		while (clock_ns() < end && !READ_ONCE(torture.stop))
			arch_cpu_relax();
		stutter = READ_ONCE(torture.stutter);
		if (stutter == STUTTER_HOGS && cpu == 0)
			synchronize_kernel();
		else if (stutter == STUTTER_IDLE)
			sleep_ms(STUTTER_PAUSE_MS / 4);
		else if (stutter == STUTTER_NONE)
			sleep_ms(prng_below(&rng, 5));
	}
}

/* The nth online CPU: CPUs may be offline when the run begins. */
static unsigned int online_cpu(unsigned int n)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (n-- == 0)
			return cpu;
	return 0;
}

int torture_setup(const struct torture_config *cfg)
{
	unsigned int i;

	memset(&torture, 0, sizeof(torture));
	torture.cfg = *cfg;
	torture.ops = torture_find_ops(cfg->type);
	if (!torture.ops) {
		pr_err("rcu-torture: torture.type=%s: unknown; expected rcu or "
		       "srcu\n", cfg->type);
		return -1;
	}
	if (!torture.cfg.readers)
		torture.cfg.readers = nr_cpus_online;
	if (!parse_gp_list(cfg->gp))
		return -1;
	torture.elems = kzalloc(TORTURE_POOL_SIZE * sizeof(*torture.elems));
	torture.threads = kmalloc(TORTURE_MAX_THREADS *
				  sizeof(*torture.threads));
	if (!torture.elems || !torture.threads) {
		pr_err("rcu-torture: no memory for the element pool and "
		       "the thread table\n");
		kfree(torture.elems);
		kfree(torture.threads);
		return -1;
	}
	INIT_LIST_HEAD(&torture.pool);
	INIT_LIST_HEAD(&torture.writer_pipe);
	wait_queue_init(&torture.pause_end);
	spin_lock_init(&torture.pool_lock);
	for (i = 0; i < TORTURE_POOL_SIZE; i++)
		list_add_tail(&torture.elems[i].link, &torture.pool);
	RCU_INIT_POINTER(torture.current, NULL);
	return 0;
}

static void spawn(thread_fn fn, uptr arg, const char *name, int cpu)
{
	struct thread *t;

	if (torture.nr_threads == TORTURE_MAX_THREADS)
		return;
	t = cpu >= 0 ? thread_create_on(fn, (void *)arg, name, cpu)
		     : thread_create(fn, (void *)arg, name);
	if (t)
		torture.threads[torture.nr_threads++] = t;
	else
		pr_err("rcu-torture: could not start %s\n", name);
}

void torture_start_threads(thread_fn writer)
{
	unsigned int i;

	pr_info("rcu-torture: type=%s nreaders=%u nfakewriters=%u "
		"stat_interval=%u secs=%u gp=%s seed=%llu\n", torture.ops->name,
		torture.cfg.readers, torture.cfg.fakewriters,
		torture.cfg.stat_interval, torture.cfg.secs, torture.cfg.gp,
		torture.cfg.seed);
	spawn(writer, 0, "rcu_torture_writer", -1);
	for (i = 0; i < torture.cfg.fakewriters; i++)
		spawn(torture_fakewriter, i, "rcu_torture_fakewriter", -1);
	for (i = 0; i < torture.cfg.readers; i++)
		spawn(reader_fn, i, "rcu_torture_reader",
		      online_cpu(i % nr_cpus_online));
	for (i = 0; i < nr_cpus_online; i++)
		spawn(hog_fn, online_cpu(i), "rcu_torture_hog",
		      online_cpu(i));
}

void torture_stop_threads(void)
{
	unsigned int i;

	WRITE_ONCE(torture.stop, true);
	wake_up_all(&torture.pause_end);
	for (i = 0; i < torture.nr_threads; i++)
		thread_join(torture.threads[i]);
}

void torture_teardown(void)
{
	torture.ops->cb_barrier();
	kfree(torture.elems);
	torture.elems = NULL;
	kfree(torture.threads);
	torture.threads = NULL;
}
