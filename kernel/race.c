/*
 * Race windows (race.h): the command line, and holding a window open.
 *
 * A window opens on one pass in RACE_ONE_IN (a random draw from a per-CPU
 * generator, so CPUs do not open theirs in step). It then spins for 1 to
 * RACE_MAX_SPIN_US microseconds, now and then for up to
 * RACE_LONG_SPIN_US; where the caller could sleep
 * (preemption and interrupts on) it may instead yield, letting another
 * thread run in the window, or sleep for a tick, long enough for a grace
 * period to end inside the window. Inside a preemptible reader, which
 * may be preempted but never sleep, the yield is a preemption and the
 * sleep a spin. Spinning, never sleeping, is what
 * keeps the windows legal in interrupt handlers and under spinlocks.
 *
 * An armed action (race_window_arm()) belongs to one thread: the others
 * only compare their own thread with its owner, so only the owner reads
 * the rest of it, which it wrote itself, and no barrier is needed.
 */
#include "race.h"
#include "cmdline.h"
#include "init.h"
#include "percpu.h"
#include "printk.h"
#include "time.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/sched.h"
#include "lib/atomic.h"
#include "lib/format.h"
#include "lib/random.h"
#include "lib/rculist_window.h"
#include "lib/string.h"

#define RACE_ONE_IN		8
#define RACE_MAX_SPIN_US	30
/* One spin in RACE_LONG_ONE_IN lasts up to RACE_LONG_SPIN_US: long
 * enough for the grace-period thread's next scan to end a grace period
 * and start the next one inside a window that cannot sleep. */
#define RACE_LONG_ONE_IN	64
#define RACE_LONG_SPIN_US	2000

/* Set once at boot, before any window is reached; read with no lock. */
bool race_windows_open;
/* race_windows_open, or an action armed: written by race_windows_init()
 * and by the arming thread, read by race_window() with READ_ONCE(). */
bool race_windows_active;
/* lib/rculist_window.h's switch, set with race_windows_open. */
bool rcu_list_windows_open;
static bool window_wanted[NR_RACE_WINDOWS];
static unsigned long window_count[NR_RACE_WINDOWS];
/* Seeded per CPU, so that a run's windows repeat with its CPUs. */
static void race_rng_init(void *elem, unsigned int cpu)
{
	prng_seed(elem, 0x5eed + cpu);
}

static DEFINE_PERCPU_ARRAY_INIT(struct prng, race_rng, race_rng_init);

/* The armed action: its owner, read by every thread passing a window
 * (READ_ONCE(), against the owner's WRITE_ONCE()); the rest, read and
 * written by the owner alone. */
static struct thread *action_owner;
static enum race_window action_window;
static unsigned int action_passes_left;
static void (*action_fn)(void *arg);
static void *action_arg;
static bool action_ran;

static char race_spec[96];
CMDLINE_STRING("race.windows", race_spec,
	       "debug: hold race windows open: all, or a comma list of "
	       "qs_report, cb_advance, gp_start, gp_request, gp_request_wake, "
	       "exp_scan, barrier_call, kfree_flush, srcu_lock, "
	       "preempt_dequeue, dcache_kill, dcache_unhash, dcache_unlinked, "
	       "dcache_unhashed, dcache_free, dcache_queued, dcache_rename, "
	       "dcache_renamed, dcache_name_queued, dcache_rehashed, "
	       "dcache_walk, dcache_chain, dcache_name, rculist");

static const char *const window_names[NR_RACE_WINDOWS] = {
	[RACE_QS_REPORT] = "qs_report",
	[RACE_CB_ADVANCE] = "cb_advance",
	[RACE_GP_START] = "gp_start",
	[RACE_GP_REQUEST] = "gp_request",
	[RACE_GP_REQUEST_WAKE] = "gp_request_wake",
	[RACE_EXP_SCAN] = "exp_scan",
	[RACE_BARRIER_CALL] = "barrier_call",
	[RACE_KFREE_FLUSH] = "kfree_flush",
	[RACE_SRCU_LOCK] = "srcu_lock",
	[RACE_PREEMPT_DEQUEUE] = "preempt_dequeue",
	[RACE_DCACHE_KILL] = "dcache_kill",
	[RACE_DCACHE_UNHASH] = "dcache_unhash",
	[RACE_DCACHE_UNLINKED] = "dcache_unlinked",
	[RACE_DCACHE_UNHASHED] = "dcache_unhashed",
	[RACE_DCACHE_FREE] = "dcache_free",
	[RACE_DCACHE_QUEUED] = "dcache_queued",
	[RACE_DCACHE_RENAME] = "dcache_rename",
	[RACE_DCACHE_RENAMED] = "dcache_renamed",
	[RACE_DCACHE_NAME_QUEUED] = "dcache_name_queued",
	[RACE_DCACHE_REHASHED] = "dcache_rehashed",
	[RACE_DCACHE_WALK] = "dcache_walk",
	[RACE_DCACHE_CHAIN] = "dcache_chain",
	[RACE_DCACHE_NAME] = "dcache_name",
	[RACE_RCULIST] = "rculist",
};

const char *race_window_name(enum race_window w)
{
	return w < NR_RACE_WINDOWS ? window_names[w] : "?";
}

unsigned long race_window_count(enum race_window w)
{
	return w < NR_RACE_WINDOWS ? READ_ONCE(window_count[w]) : 0;
}

bool race_window_arm(enum race_window w, unsigned int nth,
		     void (*fn)(void *arg), void *arg)
{
	if (!KERNEL_DEBUG) {
		pr_err("race: race_window_arm(%s) needs the debug build, where "
		       "the windows exist; not armed\n", race_window_name(w));
		return false;
	}
	if (READ_ONCE(action_owner) || w >= NR_RACE_WINDOWS || !nth) {
		pr_err("race: race_window_arm(%s, %u): expected a known "
		       "window, a pass from 1, and no action armed already; "
		       "not armed\n", race_window_name(w), nth);
		return false;
	}
	action_window = w;
	action_passes_left = nth;
	action_fn = fn;
	action_arg = arg;
	action_ran = false;
	WRITE_ONCE(action_owner, current_thread());
	WRITE_ONCE(race_windows_active, true);
	return true;
}

bool race_window_disarm(void)
{
	WRITE_ONCE(action_owner, NULL);
	WRITE_ONCE(race_windows_active, race_windows_open);
	return action_ran;
}

/* The owner's pass through window w: true if its action ran here, in
 * place of holding the window. Disarmed before it runs, so that the
 * windows it passes itself run as usual. */
static bool run_action(enum race_window w)
{
	if (w != action_window || --action_passes_left)
		return false;
	WRITE_ONCE(action_owner, NULL);
	action_fn(action_arg);
	action_ran = true;
	return true;
}

/* Interrupts or preemption may be off (the per-CPU generator is then
 * ours alone); with both on we might migrate, which only mixes the
 * draws of two CPUs. */
void race_window_hold(enum race_window w)
{
	struct thread *owner = READ_ONCE(action_owner);
	struct prng *rng;
	u64 end;

	if (unlikely(owner) && owner == current_thread() && run_action(w))
		return;
	rng = &race_rng[this_cpu_id()];
	if (!window_wanted[w] || prng_below(rng, RACE_ONE_IN))
		return;
	atomic_add_relaxed(&window_count[w], 1);
	if (preempt_count() == 0 && arch_irqs_enabled() && current_thread()) {
		bool in_reader = rcu_preempt_depth() > 0;

		switch (prng_below(rng, 4)) {
		case 0:
			if (in_reader)
				preempt_schedule();
			else
				yield();
			return;
		case 1:
			if (in_reader)
				break;
			sleep_ms(1);
			return;
		default:
			break;
		}
	}
	end = clock_ns() + (1 + prng_below(rng, prng_below(rng,
		RACE_LONG_ONE_IN) ? RACE_MAX_SPIN_US : RACE_LONG_SPIN_US)) *
		NSEC_PER_USEC;
	while (clock_ns() < end)
		arch_cpu_relax();
}

/* lib/rculist_window.h: the list helpers' window, between their
 * publishing (or unlinking) store and the rest. */
void rcu_list_window_hold(void)
{
	race_window_hold(RACE_RCULIST);
}

/* The window named word, NR_RACE_WINDOWS for "all", or -1. */
static int window_named(const char *word)
{
	unsigned int w;

	if (!strcmp(word, "all"))
		return NR_RACE_WINDOWS;
	for (w = 0; w < NR_RACE_WINDOWS; w++)
		if (!strcmp(word, window_names[w]))
			return w;
	return -1;
}

/* " qs_report cb_advance ...": every window's name, for an error. */
static const char *window_list(void)
{
	static char list[NR_RACE_WINDOWS * 16];
	size_t n = 0;
	unsigned int w;

	for (w = 0; w < NR_RACE_WINDOWS; w++)
		n += ksnprintf(list + n, sizeof(list) - n, " %s",
			       window_names[w]);
	return list;
}

/* race.windows=, once the command line is read: every name must be
 * known; a bad one opens nothing and says what was expected. */
__init void race_windows_init(void)
{
	char word[24];
	const char *p = race_spec;
	int w;

	if (!race_spec[0] || !strcmp(race_spec, "none"))
		return;
	if (!KERNEL_DEBUG) {
		pr_err("race: race.windows=%s needs the debug build; ignored\n",
		       race_spec);
		return;
	}
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		strlcpy(word, p, MIN(len + 1, sizeof(word)));
		w = window_named(word);
		if (w < 0) {
			pr_err("race: race.windows: unknown window '%s'; expected "
			       "all or a comma list of:%s; none opened\n", word,
			       window_list());
			return;
		}
		if (w == NR_RACE_WINDOWS)
			memset(window_wanted, 1, sizeof(window_wanted));
		else
			window_wanted[w] = true;
		if (!comma)
			break;
		p = comma + 1;
	}
	race_windows_open = true;
	race_windows_active = true;
	rcu_list_windows_open = window_wanted[RACE_RCULIST];
	pr_warn("race: holding race windows open (race.windows=%s), as asked\n",
		race_spec);
}
