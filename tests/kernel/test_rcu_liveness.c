/*
 * The rcu_liveness suite: a callback's wait ends while the traffic goes on.
 *
 * The torture's oracle checks that no wait ends too early, and its
 * forward-progress flood and rcu_barrier() check that every callback runs
 * once the traffic stops. Neither sees an engine that keeps moving waiting
 * callbacks on to a later grace period for as long as new ones arrive:
 * safe, and every callback runs at the end, but under steady load none
 * ever does. Linux's rcutorture forward-progress test checks for that
 * during its flood; this is that check, for whichever engine runs.
 *
 * One flooder on every online CPU queues call_rcu() callbacks without
 * waiting for anything, up to LIVE_PER_GP in each grace period (a quota,
 * so that memory stays bounded by counts, even under a bug that invokes
 * nothing). Once the flood has run LIVE_WARMUP_GPS grace periods, each
 * flooder queues a marker and keeps flooding. Its marker is late once
 * LIVE_BOUND_GPS grace periods have ended past the one it waited for and
 * its CPU has taken LIVE_BOUND_TICKS ticks since it was queued; the flood
 * goes on until every marker has run or is late. Counted, never timed,
 * and both counts, because each alone misleads: the engines move
 * callbacks on from their CPU's tick, while grace periods end many times
 * a tick when every CPU passes through schedule() all the time (a loaded
 * host delaying the ticks made one marker 33 grace periods late); and a
 * CPU keeps ticking while a vCPU the host starved holds grace periods up.
 * A bug that keeps moving the marker on passes both bounds, however the
 * host runs.
 */
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu/engine.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/seq.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"

#define LIVE_PER_GP		20ul
#define LIVE_WARMUP_GPS		3ul
#define LIVE_BOUND_GPS		30ul
#define LIVE_BOUND_TICKS	50ul
#define LIVE_YIELD_EVERY	256ul	/* let rcuc run beside the flood */

struct live_obj {
	struct rcu_head rcu;
};

struct flooder {
	struct rcu_head marker;
	unsigned int cpu;
	/* The flooder's own, but for invoked and invoked_at (its marker's
	 * callback, in rcuc) and the test's reads after the join. */
	bool marker_queued, resolved;
	unsigned long marker_snap;	/* gp_seq once its own has ended */
	unsigned long invoked_at;	/* gp_seq its callback saw */
	u64 queued_ticks;		/* its CPU's ticks when queued */
	u64 invoked_ticks;		/* and when its callback ran */
	bool invoked;
	unsigned long quota_hits;	/* grace periods it filled its quota */
};

static DEFINE_PERCPU_ARRAY(struct flooder, flooders);
static DEFINE_PERCPU_ARRAY(struct thread *, flood_threads);

static struct {
	unsigned int flooders;
	unsigned int resolved;		/* markers run or overdue (atomic) */
	unsigned long queued, invoked;	/* flood callbacks (atomic) */
	bool out_of_memory;
	bool stop;
} live;

static void flood_done(struct rcu_head *head)
{
	kfree(container_of(head, struct live_obj, rcu));
	atomic_add_relaxed(&live.invoked, 1);
}

static void marker_done(struct rcu_head *head)
{
	struct flooder *f = container_of(head, struct flooder, marker);

	WRITE_ONCE(f->invoked_at, rcu_engine->gp_seq());
	WRITE_ONCE(f->invoked_ticks, READ_ONCE(cpu_area(f->cpu)->ticks));
	/* Release: both before invoked; pairs with the flooder's
	 * acquire in check_marker(). */
	smp_store_release(&f->invoked, true);
}

/* A marker not yet run, both of whose counts are past their bounds. */
static bool marker_late(struct flooder *f, unsigned long gp_seq, u64 ticks)
{
	return rcu_seq_done(gp_seq, f->marker_snap + 2 * LIVE_BOUND_GPS) &&
	       ticks - f->queued_ticks >= LIVE_BOUND_TICKS;
}

/* Whether the marker's fate is known: run, or late. The last flooder to
 * know stops the flood. */
static void check_marker(struct flooder *f, unsigned long now)
{
	if (!smp_load_acquire(&f->invoked) &&
	    !marker_late(f, now, READ_ONCE(cpu_area(f->cpu)->ticks)))
		return;
	f->resolved = true;
	if (atomic_add_return(&live.resolved, 1) == live.flooders)
		WRITE_ONCE(live.stop, true);
}

static void queue_marker(struct flooder *f)
{
	f->queued_ticks = READ_ONCE(cpu_area(f->cpu)->ticks);
	call_rcu(&f->marker, marker_done);
	/* Taken after the call: the marker's grace period ends at this
	 * value or before, so the bound is never shorter than it says. */
	f->marker_snap = rcu_gp_snap();
	f->marker_queued = true;
}

static void flood(void *arg)
{
	struct flooder *f = arg;
	unsigned long start = rcu_engine->gp_seq(), seen = start;
	unsigned long this_gp = 0, n = 0;

	while (!READ_ONCE(live.stop)) {
		unsigned long now = rcu_engine->gp_seq();
		struct live_obj *o;

		if (now != seen) {
			seen = now;
			this_gp = 0;
		}
		if (!f->marker_queued &&
		    rcu_seq_done(now, (start & ~1ul) + 2 * LIVE_WARMUP_GPS))
			queue_marker(f);
		else if (f->marker_queued && !f->resolved)
			check_marker(f, now);
		if (this_gp == LIVE_PER_GP) {
			f->quota_hits++;
			this_gp++;
		}
		if (this_gp > LIVE_PER_GP || ++n % LIVE_YIELD_EVERY == 0) {
			yield();
			continue;
		}
		o = kmalloc(sizeof(*o));
		if (!o) {
			WRITE_ONCE(live.out_of_memory, true);
			WRITE_ONCE(live.stop, true);
			break;
		}
		call_rcu(&o->rcu, flood_done);
		atomic_add_relaxed(&live.queued, 1);
		this_gp++;
	}
}

KTEST_TIMEOUT(rcu_liveness, marker_invoked_within_bounded_gps_under_flood,
	      120000)
{
	unsigned int cpu, i, late = 0;
	unsigned long worst_gps = 0, quota_hits = 0;
	u64 worst_ticks = 0;

	live.flooders = live.resolved = 0;
	live.queued = live.invoked = 0;
	live.out_of_memory = live.stop = false;
	for_each_online_cpu(cpu) {
		struct flooder *f = &flooders[live.flooders];

		*f = (struct flooder){ .cpu = cpu };
		live.flooders++;
	}
	for (i = 0; i < live.flooders; i++) {
		flood_threads[i] = thread_create_on(flood, &flooders[i],
						    "live_flood", flooders[i].cpu);
		KASSERT_TRUE(flood_threads[i] != NULL);
	}
	for (i = 0; i < live.flooders; i++)
		thread_join(flood_threads[i]);
	rcu_barrier();
	KEXPECT_FALSE(READ_ONCE(live.out_of_memory));
	KEXPECT_EQ(READ_ONCE(live.invoked), READ_ONCE(live.queued));
	for (i = 0; i < live.flooders; i++) {
		struct flooder *f = &flooders[i];
		unsigned long gps;
		u64 ticks;

		KEXPECT_TRUE(f->marker_queued);
		KEXPECT_TRUE(READ_ONCE(f->invoked));
		if (!f->marker_queued || !READ_ONCE(f->invoked))
			continue;
		quota_hits += f->quota_hits;
		/* Grace periods ended past the marker's own when it ran
		 * (none, if its own ended before the snapshot was taken). */
		gps = READ_ONCE(f->invoked_at) - f->marker_snap;
		gps = (long)gps > 0 ? gps / 2 : 0;
		ticks = READ_ONCE(f->invoked_ticks) - f->queued_ticks;
		worst_gps = MAX(worst_gps, gps);
		worst_ticks = MAX(worst_ticks, ticks);
		if (marker_late(f, READ_ONCE(f->invoked_at),
				READ_ONCE(f->invoked_ticks))) {
			late++;
			KTEST_FAIL("cpu%u's marker ran %lu grace periods "
				   "after its own and %llu ticks after it was "
				   "queued, the traffic going on until both "
				   "were past their bounds; expected fewer "
				   "than %lu grace periods or %lu ticks",
				   f->cpu, gps,
				   (unsigned long long)ticks, LIVE_BOUND_GPS,
				   LIVE_BOUND_TICKS);
		}
	}
	console_printf("    # %u flooders, %lu callbacks; markers ran at most "
		       "%lu grace periods after their own and %llu ticks after "
		       "their call (bounds %lu and %lu), %u late; quota of %lu "
		       "filled in %lu grace periods\n",
		       live.flooders, READ_ONCE(live.queued), worst_gps,
		       (unsigned long long)worst_ticks, LIVE_BOUND_GPS,
		       LIVE_BOUND_TICKS, late, LIVE_PER_GP, quota_hits);
}
