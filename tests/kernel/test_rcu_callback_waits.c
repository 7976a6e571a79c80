/*
 * The rcu suite, continued: a callback may sleep (call_rcu_arg()'s
 * contract forbids only rcu_barrier()), so it may wait for a grace
 * period. The classic engine first built synchronize_rcu() as 2.6.0's
 * synchronize_kernel(), a callback that wakes the caller: called from a
 * callback, that callback queued behind the caller on the same rcuc
 * thread and never ran, and the thread hung (a review found it; this test
 * then timed out on that engine).
 */
#include "kernel/rcu/rcupdate.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"

static struct rcu_head waiting_head;
static bool waiting_cb_done;

static void wait_inside_callback(void *unused)
{
	(void)unused;
	synchronize_rcu();
	cond_synchronize_rcu(get_state_synchronize_rcu());
	WRITE_ONCE(waiting_cb_done, true);
}

KTEST(rcu, callback_may_wait_for_a_grace_period)
{
	WRITE_ONCE(waiting_cb_done, false);
	call_rcu(&waiting_head, wait_inside_callback, NULL);
	/* The barrier's own callback runs after this one on its CPU. */
	rcu_barrier();
	KEXPECT_TRUE(READ_ONCE(waiting_cb_done));
}
