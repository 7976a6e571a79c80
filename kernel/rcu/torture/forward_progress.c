/*
 * rcutorture's forward-progress phase: every CPU floods call_rcu() with
 * freshly allocated objects while the readers keep running. RCU passes
 * if grace periods keep ending, at no less than a twentieth of the rate
 * this same boot achieved before the flood (a fixed rate would judge the
 * host, not RCU), and the callbacks are invoked fast enough that free
 * memory never falls below half of what it was.
 */
#include "internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "kernel/rcu/stats.h"
#include "kernel/time.h"
#include "lib/atomic.h"

#define FWD_OBJ_SIZE	64
#define FWD_SLOWDOWN_MAX	20	/* the flood may slow GPs this much */
#define FWD_MIN_GPS		2ull

struct fwd_obj {
	struct rcu_head rcu;
	u8 payload[FWD_OBJ_SIZE - sizeof(struct rcu_head)];
};

static struct {
	u64 end_ns;
	u64 floor_pages;		/* fail below this many free pages */
	unsigned long queued, invoked, peak_backlog;
	bool out_of_bounds;
	bool stop;
} fwd;

static void fwd_callback(void *arg)
{
	kfree(arg);
	atomic_add_relaxed(&fwd.invoked, 1);
}

static void fwd_flooder(void *unused)
{
	struct page_alloc_stats ps;
	unsigned long n = 0;

	(void)unused;
	while (clock_ns() < fwd.end_ns && !READ_ONCE(fwd.stop)) {
		struct fwd_obj *o = kmalloc(sizeof(*o));
		unsigned long backlog;

		if (!o) {
			WRITE_ONCE(fwd.out_of_bounds, true);
			break;
		}
		call_rcu(&o->rcu, fwd_callback, o);
		backlog = atomic_add_return(&fwd.queued, 1) -
			  READ_ONCE(fwd.invoked);
		if (backlog > READ_ONCE(fwd.peak_backlog))
			WRITE_ONCE(fwd.peak_backlog, backlog);
		if (++n % 1024 == 0) {
			page_alloc_get_stats(&ps);
			if (ps.free_pages < fwd.floor_pages) {
				WRITE_ONCE(fwd.out_of_bounds, true);
				WRITE_ONCE(fwd.stop, true);
			}
			yield();
		}
	}
}

bool rcu_torture_forward_progress(unsigned int ms, u64 gps_per_sec)
{
	struct thread *threads[MAX_CPUS];
	struct page_alloc_stats ps;
	struct rcu_stats before, after;
	unsigned int cpu, n = 0;
	u64 gps, bound;
	bool ok;

	page_alloc_get_stats(&ps);
	fwd.floor_pages = ps.free_pages / 2;
	fwd.queued = fwd.invoked = fwd.peak_backlog = 0;
	fwd.out_of_bounds = fwd.stop = false;
	fwd.end_ns = clock_ns() + ms * NSEC_PER_MSEC;
	rcu_get_stats(&before);
	for_each_online_cpu(cpu) {
		threads[n] = thread_create_on(fwd_flooder, NULL,
					      "rcu_torture_fwd", cpu);
		if (threads[n])
			n++;
	}
	while (n)
		thread_join(threads[--n]);
	rcu_get_stats(&after);
	gps = after.gps_completed - before.gps_completed;
	rcu_barrier();
	/* The bound comes from this boot, on this host: the flood must
	 * slow grace periods no more than FWD_SLOWDOWN_MAX times. */
	bound = MAX(gps_per_sec * ms / 1000 / FWD_SLOWDOWN_MAX, FWD_MIN_GPS);
	pr_info("rcu-torture: fwd: %lu callbacks in %u ms, peak backlog %lu, "
		"%llu grace periods (bound %llu: a %uth of the %llu/s before "
		"the flood), all invoked: %s\n", fwd.queued, ms,
		fwd.peak_backlog, gps, bound, FWD_SLOWDOWN_MAX, gps_per_sec,
		READ_ONCE(fwd.invoked) == fwd.queued ? "yes" : "NO");
	ok = true;
	if (fwd.out_of_bounds) {
		pr_err("rcu-torture: fwd: FAILED: free memory fell below half "
		       "of the %llu pages free before the flood\n",
		       fwd.floor_pages * 2);
		ok = false;
	}
	if (gps < bound) {
		pr_err("rcu-torture: fwd: FAILED: %llu grace periods during the "
		       "flood, fewer than the bound of %llu\n", gps, bound);
		ok = false;
	}
	if (READ_ONCE(fwd.invoked) != fwd.queued) {
		pr_err("rcu-torture: fwd: FAILED: %lu of %lu callbacks invoked "
		       "after rcu_barrier()\n", READ_ONCE(fwd.invoked),
		       fwd.queued);
		ok = false;
	}
	return ok;
}
