/*
 * rcutorture's forward-progress phase: every CPU floods call_rcu() (or
 * call_srcu(), with torture.type=srcu) with freshly allocated objects,
 * while the readers keep running, until FWD_GPS grace periods have ended
 * since the flood began. RCU passes if they end before free memory falls
 * below half of what it was (grace periods keep ending under the flood,
 * and its callbacks are invoked fast enough to keep memory bounded), and
 * every callback has run after rcu_barrier() (srcu_barrier()). Nothing is timed: on a slow or busy host the flood
 * lasts longer and queues more per grace period, but only a flood that
 * outruns RCU until memory runs low fails. (Each grace period took at
 * most about 95 000 callbacks of the flood at -smp 8 on a 2-core host
 * running two such boots; half the memory of a 512M boot holds some 3
 * million.)
 */
#include "internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "kernel/rcu/stats.h"
#include "lib/atomic.h"

#define FWD_OBJ_SIZE	64
#define FWD_GPS		20ul	/* the flood lasts this many grace periods */

struct fwd_obj {
	struct rcu_head rcu;
	u8 payload[FWD_OBJ_SIZE - sizeof(struct rcu_head)];
};

static struct {
	unsigned long gp_end;		/* the gp_seq that ends it */
	u64 floor_pages;		/* fail below this many free pages */
	unsigned long queued, invoked, peak_backlog;
	bool out_of_bounds;
	bool stop;
} fwd;

static void fwd_callback(struct rcu_head *head)
{
	kfree(container_of(head, struct fwd_obj, rcu));
	atomic_add_relaxed(&torture.cbs_invoked, 1);
	atomic_add_relaxed(&fwd.invoked, 1);
}

static void fwd_flooder(void *unused)
{
	struct page_alloc_stats ps;
	unsigned long n = 0;

	(void)unused;
	while (!READ_ONCE(fwd.stop)) {
		struct fwd_obj *o = kmalloc(sizeof(*o));
		unsigned long backlog;

		if (!o) {
			WRITE_ONCE(fwd.out_of_bounds, true);
			break;
		}
		torture.ops->call(&o->rcu, fwd_callback);
		backlog = atomic_add_return(&fwd.queued, 1) -
			  READ_ONCE(fwd.invoked);
		if (backlog > READ_ONCE(fwd.peak_backlog))
			WRITE_ONCE(fwd.peak_backlog, backlog);
		if (++n % 1024 == 0) {
			/* A snapshot: a grace period seen late only makes
			 * the flood a little longer. */
			if ((long)(torture.ops->gp_seq() - fwd.gp_end) >= 0)
				WRITE_ONCE(fwd.stop, true);
			page_alloc_get_stats(&ps);
			if (ps.free_pages < fwd.floor_pages) {
				WRITE_ONCE(fwd.out_of_bounds, true);
				WRITE_ONCE(fwd.stop, true);
			}
			yield();
		}
	}
}

bool rcu_torture_forward_progress(void)
{
	struct thread **threads = kmalloc(nr_cpus * sizeof(*threads));
	struct page_alloc_stats ps;
	unsigned long gp_start, gps;
	unsigned int cpu, n = 0;
	bool ok = true;

	if (!threads) {
		pr_err("rcu-torture: fwd: no memory for %u thread pointers\n",
		       nr_cpus);
		return false;
	}
	page_alloc_get_stats(&ps);
	fwd.floor_pages = ps.free_pages / 2;
	fwd.queued = fwd.invoked = fwd.peak_backlog = 0;
	fwd.out_of_bounds = fwd.stop = false;
	gp_start = torture.ops->gp_seq();
	/* gp_seq counts two per grace period; from an odd value (one
	 * running) the first end counts as one. */
	fwd.gp_end = (gp_start & ~1ul) + 2 * FWD_GPS;
	for_each_online_cpu(cpu) {
		threads[n] = thread_create_on(fwd_flooder, NULL,
					      "rcu_torture_fwd", cpu);
		if (threads[n])
			n++;
	}
	while (n)
		thread_join(threads[--n]);
	kfree(threads);
	gps = (torture.ops->gp_seq() - (gp_start & ~1ul)) / 2;
	torture.ops->cb_barrier();
	pr_info("rcu-torture: fwd: %lu callbacks over %lu grace periods, peak "
		"backlog %lu, all invoked: %s\n", fwd.queued,
		gps, fwd.peak_backlog,
		READ_ONCE(fwd.invoked) == fwd.queued ? "yes" : "NO");
	if (fwd.out_of_bounds) {
		pr_err("rcu-torture: fwd: FAILED: free memory fell below half "
		       "of the %llu pages free before the flood, before %lu "
		       "grace periods had ended\n", fwd.floor_pages * 2,
		       FWD_GPS);
		ok = false;
	}
	if (READ_ONCE(fwd.invoked) != fwd.queued) {
		pr_err("rcu-torture: fwd: FAILED: %lu of %lu callbacks invoked "
		       "after the barrier\n", READ_ONCE(fwd.invoked),
		       fwd.queued);
		ok = false;
	}
	return ok;
}
