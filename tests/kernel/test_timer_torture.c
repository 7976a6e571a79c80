/*
 * The timers suite: a torture of timers and wake-ups on CPUs that stop
 * their tick in idle (kernel/sched/tick.c) and go down and up.
 *
 * Workers, two per CPU (one pinned to it, one free to move), arm timers
 * on their own CPU and on others (timer_add_on()), some due already and
 * some that rearm from their callback, cancel some before or while they
 * expire, sleep, and wake each other in a ring, so that CPUs keep going
 * idle and being woken. Meanwhile a driver takes CPUs down and up, and
 * checks that a timer aimed at an offline CPU lands on its own. The work
 * is a fixed number of rounds shared by all workers: more CPUs make each
 * one's share shorter, never the run longer.
 *
 * Every timer is accounted (test_timer_torture_slot.c). The end adds
 * last shots, each where a lost kick cannot be covered by other work: a
 * timer from another CPU at each CPU idle with its tick stopped and no
 * clock event due, then, one at a time, timers moved to such a cpu0 by
 * a CPU going down. A kick lost there leaves a timer that nothing will
 * ever run, and the final account names it.
 */
#include "test_timer_torture.h"
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/tick.h"
#include "lib/atomic.h"
#include "lib/format.h"
#include "lib/string.h"

#define TT_WORKERS_PER_CPU	2u
#define TT_TOTAL_ROUNDS		2400u
#define TT_SLOTS		4
#define TT_RING_EVERY		4	/* rounds per wait in the ring */
#define TT_MAX_SLEEP_NS		(2 * NSEC_PER_MSEC)
#define TT_MAX_SPINS		100000u
#define TT_HOTPLUG_CYCLES	40u
/* Waits of 1 ms for a CPU to idle with no clock event due before a last
 * shot, which goes anyway if it never does (that only hides less). */
#define TT_IDLE_SAMPLES		200u
#define TT_SHOT_NS		NSEC_PER_MSEC
/* Long enough for the CPU it is on to go down first, most runs. Any
 * wake-up of cpu0 (RCU, a thread moved there) covers a lost kick: a few
 * shots, each alone. */
#define TT_MOVE_SHOT_NS		(200 * NSEC_PER_MSEC)
#define TT_MOVED_SHOTS		4u
/* A run takes seconds; a lost timer is named within about ten. Under
 * the boot's own timeout (120 s), so that a hang that stops the
 * watchdog's timer too is still the harness's to report. */
#define TT_TIMEOUT_MS		90000

struct tt_worker {
	struct thread *thread;
	struct tt_slot *slots;		/* TT_SLOTS of them */
	struct completion ring;		/* completed by the one before */
	struct tt_worker *next;
	struct prng rng;
	struct tt_counts counts;
	char name[THREAD_NAME_MAX];
};

struct tt_driver {
	struct ktest_context *t;
	struct prng rng;
	struct tt_counts counts;
	unsigned int cpu, workers, cycles, hotplug_errors, shots, moved;
	unsigned int probes_wrong, wrong;
};

/* The workers' slots, then one last shot per CPU (per-CPU arrays: for
 * the CPUs present), the probe of offline CPUs and the moved shot (armed
 * again for each of TT_MOVED_SHOTS): never freed under a callback. */
#define TT_SLOTS_PER_CPU	(TT_WORKERS_PER_CPU * TT_SLOTS + 1)
static DEFINE_PERCPU_ARRAY_N(struct tt_slot, tt_slots, TT_SLOTS_PER_CPU);
static DEFINE_PERCPU_ARRAY_N(struct tt_worker, tt_workers, TT_WORKERS_PER_CPU);
static struct tt_slot tt_probe_slot, tt_moved_slot;

/* The first last shot's index in tt_slots. */
static unsigned int tt_shot0(void)
{
	return nr_cpus * TT_WORKERS_PER_CPU * TT_SLOTS;
}
static struct completion tt_go;
static unsigned int tt_rounds, tt_running;
static bool tt_abort;

static void tt_counts_add(struct tt_counts *to, const struct tt_counts *c)
{
	to->local += c->local;
	to->remote += c->remote;
	to->past += c->past;
	to->rearms += c->rearms;
	to->fired += c->fired;
	to->cancelled += c->cancelled;
	to->cancel_missed += c->cancel_missed;
}

/* Each free slot, one time in two: on this CPU or another, due in up to
 * a few ms or already, one time in four rearming once or twice. */
static void tt_arm_some(struct tt_worker *w)
{
	unsigned int i, rearms;
	int target;

	for (i = 0; i < TT_SLOTS; i++) {
		if (READ_ONCE(w->slots[i].armed) || prng_below(&w->rng, 2))
			continue;
		target = prng_below(&w->rng, 2) ?
			 (int)prng_below(&w->rng, nr_cpus) : -1;
		rearms = prng_below(&w->rng, 4) ? 0 :
			 1 + (unsigned int)prng_below(&w->rng, 2);
		tt_slot_arm(&w->slots[i], target,
			    tt_pick_deadline(&w->rng, clock_ns()), rearms,
			    &w->counts);
	}
}

/* Sleep, yield or spin a little, or not at all: sleeping stops a CPU's
 * tick when it has nothing else to run. */
static void tt_pause(struct tt_worker *w)
{
	unsigned int spins;

	switch (prng_below(&w->rng, 5)) {
	case 0:
		sleep_ns(prng_below(&w->rng, TT_MAX_SLEEP_NS + 1));
		break;
	case 1:
		sleep_ms(1);
		break;
	case 2:
		yield();
		break;
	case 3:
		for (spins = prng_below(&w->rng, 2000); spins; spins--)
			arch_cpu_relax();
		break;
	default:
		break;
	}
}

/* Cancel a slot at once, after a pause, or as near its deadline as a
 * bounded spin gets, where the cancel races with the fire on its CPU. */
static void tt_cancel_one(struct tt_worker *w)
{
	struct tt_slot *s = &w->slots[prng_below(&w->rng, TT_SLOTS)];
	unsigned int spins;

	switch (prng_below(&w->rng, 3)) {
	case 0:
		tt_pause(w);
		break;
	case 1:
		for (spins = 0; spins < TT_MAX_SPINS && READ_ONCE(s->armed) &&
				clock_ns() < READ_ONCE(s->deadline); spins++)
			arch_cpu_relax();
		break;
	default:
		break;
	}
	tt_slot_settle(s, true, &w->counts);
}

/* Every worker runs the same number of rounds and waits in the ring
 * once every TT_RING_EVERY of them, after completing the next worker's
 * wait: each wait has its completion, and none waits for ever. */
static void tt_worker_fn(void *arg)
{
	struct tt_worker *w = arg;
	unsigned int round, i;

	wait_for_completion(&tt_go);
	for (round = 0; round < tt_rounds && !READ_ONCE(tt_abort); round++) {
		for (i = 0; i < TT_SLOTS; i++)
			tt_slot_settle(&w->slots[i], false, &w->counts);
		tt_arm_some(w);
		if (prng_below(&w->rng, 3) == 0)
			tt_cancel_one(w);
		tt_pause(w);
		if (round % TT_RING_EVERY == 0) {
			complete(&w->next->ring);
			wait_for_completion(&w->ring);
		}
	}
	/* A hint for the driver's loop; the join orders the counts. */
	atomic_sub_return(&tt_running, 1);
}

/* A CPU to take down: any but cpu0 and the driver's, 0 if none. */
static unsigned int tt_victim(struct tt_driver *d)
{
	unsigned int others = nr_cpus - 1 - (d->cpu != 0), c;

	if (!others)
		return 0;
	c = 1 + (unsigned int)prng_below(&d->rng, others);
	return c >= d->cpu && d->cpu ? c + 1 : c;
}

/* timer_add_on() for an offline CPU must queue the timer here; the
 * first time it does not is named, the others counted. */
static void tt_probe_offline(struct tt_driver *d, unsigned int cpu)
{
	struct tt_slot *s = &tt_probe_slot;
	unsigned int on;

	tt_slot_settle(s, false, &d->counts);
	if (READ_ONCE(s->armed))
		return;
	tt_slot_arm(s, (int)cpu, tt_pick_deadline(&d->rng, clock_ns()), 0,
		    &d->counts);
	on = READ_ONCE(s->timer.cpu);
	if (on != d->cpu && !d->probes_wrong++)
		ktest_fail(d->t, __FILE__, __LINE__,
			   "timer_add_on() for offline cpu%u queued the timer "
			   "on cpu%u, expected the caller's cpu%u", cpu, on,
			   d->cpu);
}

static void tt_hotplug(struct tt_driver *d)
{
	unsigned int cpu;

	while (READ_ONCE(tt_running) && d->cycles < TT_HOTPLUG_CYCLES) {
		cpu = tt_victim(d);
		if (!cpu)
			return;
		if (cpu_down(cpu)) {
			d->hotplug_errors++;
			return;
		}
		tt_probe_offline(d, cpu);
		sleep_ns(prng_below(&d->rng, TT_MAX_SLEEP_NS + 1));
		d->hotplug_errors += cpu_up(cpu) != 0;
		d->cycles++;
		sleep_ns(prng_below(&d->rng, TT_MAX_SLEEP_NS + 1));
	}
}

/* Until cpu idles with its tick stopped and its clock event set for
 * nothing, or for later than within_ns from now; or a bound. */
static void tt_wait_for_quiet(unsigned int cpu, u64 within_ns)
{
	struct tick_cpu_stats s;
	unsigned int i;

	for (i = 0; nohz_enabled && i < TT_IDLE_SAMPLES; i++) {
		tick_cpu_stats(cpu, &s);
		if (s.stopped && (!s.programmed_ns ||
				  s.programmed_ns > clock_ns() + within_ns))
			return;
		sleep_ms(1);
	}
}

/* One timer from here at every other CPU, each once it sleeps with no
 * clock event: only the kick of timer_add_on() can wake it for it. */
static void tt_last_shots(struct tt_driver *d)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (cpu == d->cpu)
			continue;
		tt_wait_for_quiet(cpu, 2 * TT_SHOT_NS);
		tt_slot_arm(&tt_slots[tt_shot0() + cpu], (int)cpu,
			    clock_ns() + TT_SHOT_NS, 0, &d->counts);
		d->shots++;
	}
}

/* A timer on a CPU that goes down while cpu0 sleeps with no clock event:
 * it moves to cpu0, which only timer_migrate_away()'s kick wakes for it.
 * When the timer fired before it could move, nothing was tested. */
static void tt_moved_shot(struct tt_driver *d)
{
	struct tt_slot *s = &tt_moved_slot;
	unsigned int cpu = tt_victim(d);

	if (!cpu || !d->cpu)
		return;
	tt_wait_for_quiet(0, 2 * TT_MOVE_SHOT_NS);
	tt_slot_arm(s, (int)cpu, clock_ns() + TT_MOVE_SHOT_NS, 0,
		    &d->counts);
	d->hotplug_errors += cpu_down(cpu) != 0;
	d->moved += READ_ONCE(s->timer.cpu) == 0 &&
		    !smp_load_acquire(&s->done);
	/* Before cpu_up(), which may wake cpu0 for its own work. */
	d->wrong += tt_check_all(d->t, s, 1, &d->counts);
	d->hotplug_errors += cpu_up(cpu) != 0;
}

static void tt_driver_fn(void *arg)
{
	struct tt_driver *d = arg;
	unsigned int i;

	complete_all(&tt_go);
	tt_hotplug(d);
	for (i = 0; i < d->workers; i++) {
		thread_join(tt_workers[i].thread);
		tt_counts_add(&d->counts, &tt_workers[i].counts);
	}
	tt_last_shots(d);
	d->wrong = tt_check_all(d->t, tt_slots, nr_cpus * TT_SLOTS_PER_CPU,
				&d->counts) +
		   tt_check_all(d->t, &tt_probe_slot, 1, &d->counts);
	for (i = 0; i < TT_MOVED_SHOTS; i++)
		tt_moved_shot(d);
}

static void tt_init(unsigned int workers)
{
	unsigned int i;

	memset(tt_slots, 0, nr_cpus * TT_SLOTS_PER_CPU * sizeof(*tt_slots));
	memset(tt_workers, 0,
	       nr_cpus * TT_WORKERS_PER_CPU * sizeof(*tt_workers));
	memset(&tt_probe_slot, 0, sizeof(tt_probe_slot));
	memset(&tt_moved_slot, 0, sizeof(tt_moved_slot));
	for (i = 0; i < nr_cpus * TT_SLOTS_PER_CPU; i++) {
		struct tt_slot *s = &tt_slots[i];

		if (i < tt_shot0())
			ksnprintf(s->name, sizeof(s->name), "worker %u slot %u",
				  i / TT_SLOTS, i % TT_SLOTS);
		else
			ksnprintf(s->name, sizeof(s->name),
				  "last shot at cpu%u", i - tt_shot0());
		prng_seed(&s->rng, i + 1);
	}
	strlcpy(tt_probe_slot.name, "offline probe",
		sizeof(tt_probe_slot.name));
	prng_seed(&tt_probe_slot.rng, i + 1);
	strlcpy(tt_moved_slot.name, "moved shot", sizeof(tt_moved_slot.name));
	prng_seed(&tt_moved_slot.rng, i + 2);
	for (i = 0; i < workers; i++) {
		struct tt_worker *w = &tt_workers[i];

		w->slots = &tt_slots[i * TT_SLOTS];
		w->next = &tt_workers[(i + 1) % workers];
		init_completion(&w->ring);
		prng_seed(&w->rng, 0x7100 + i);
		ksnprintf(w->name, sizeof(w->name), "timers/%u", i);
	}
	tt_rounds = MAX(TT_TOTAL_ROUNDS / workers, (unsigned int)TT_RING_EVERY);
	tt_running = workers;
	tt_abort = false;
	init_completion(&tt_go);
}

/* Workers alternately pinned to a CPU and free to move. */
static bool tt_start_workers(unsigned int workers)
{
	struct cpumask all;
	unsigned int i;

	cpumask_fill(&all);
	for (i = 0; i < workers; i++) {
		struct tt_worker *w = &tt_workers[i];

		w->thread = i % 2 ?
			    thread_create_mask(tt_worker_fn, w, w->name, &all) :
			    thread_create_on(tt_worker_fn, w, w->name,
					     i / 2 % nr_cpus);
		if (!w->thread)
			return false;
	}
	return true;
}

KTEST_TIMEOUT(timers, torture, TT_TIMEOUT_MS)
{
	struct tt_driver d = { .t = t };
	struct thread *driver = NULL;
	const struct tt_counts *c = &d.counts;
	unsigned int i;

	d.workers = TT_WORKERS_PER_CPU * nr_cpus;
	d.cpu = nr_cpus >= 3 ? nr_cpus - 1 : 0;
	prng_seed(&d.rng, 0x7d);
	tt_init(d.workers);
	if (tt_start_workers(d.workers))
		driver = thread_create_on(tt_driver_fn, &d, "timers/driver",
					  d.cpu);
	if (!driver) {
		WRITE_ONCE(tt_abort, true);
		complete_all(&tt_go);
		for (i = 0; i < d.workers && tt_workers[i].thread; i++)
			thread_join(tt_workers[i].thread);
		KTEST_FAIL("could not start %u workers and a driver",
			   d.workers);
		return;
	}
	thread_join(driver);
	console_printf("    # %lu timers armed (%lu local, %lu with "
		       "timer_add_on(), %lu already due), %lu rearms; %lu "
		       "fired, %lu cancelled, %lu cancels after the fire; %u "
		       "workers x %u rounds, %u CPU down/up cycles, %u last "
		       "shots, %u moved\n", c->local + c->remote, c->local, c->remote,
		       c->past, c->rearms, c->fired, c->cancelled,
		       c->cancel_missed, d.workers, tt_rounds, d.cycles,
		       d.shots, d.moved);
	KEXPECT_EQ(d.hotplug_errors, 0u);
	KEXPECT_EQ(d.probes_wrong, 0u);
	KEXPECT_EQ(d.wrong, 0u);
	KEXPECT_EQ(c->fired + c->cancelled, c->local + c->remote);
}
