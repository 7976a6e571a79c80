/*
 * The flavours rcutorture can torture (torture.type=rcu|srcu), as Linux's
 * struct rcu_torture_ops: what a reader and a writer call in each. The
 * test itself is the same for both; only SRCU's thread readers also
 * sleep inside their sections.
 */
#include "internal.h"
#include "kernel/rcu/srcu.h"
#include "kernel/rcu/stats.h"
#include "lib/string.h"

static int rcu_torture_read_lock(void)
{
	rcu_read_lock();
	return 0;
}

static void rcu_torture_read_unlock(int idx)
{
	(void)idx;
	rcu_read_unlock();
}

static void rcu_torture_call(struct rcu_head *head, rcu_callback_t func)
{
	call_rcu(head, func);
}

static u64 rcu_torture_exp_completed(void)
{
	struct rcu_stats s;

	rcu_get_stats(&s);
	return s.exp_completed;
}

static const struct torture_ops rcu_torture_ops = {
	.name = "rcu",
	.read_lock = rcu_torture_read_lock,
	.read_unlock = rcu_torture_read_unlock,
	.read_held = rcu_read_lock_held,
	.gp_seq = rcu_gp_seq_now,
	.exp_completed = rcu_torture_exp_completed,
	.get_state = get_state_synchronize_rcu,
	.start_poll = start_poll_synchronize_rcu,
	.poll_state = poll_state_synchronize_rcu,
	.cond_sync = cond_synchronize_rcu,
	.sync = synchronize_rcu,
	.exp_sync = synchronize_rcu_expedited,
	.call = rcu_torture_call,
	.cb_barrier = rcu_barrier,
	.gp_names = { "synchronize_rcu()", "synchronize_rcu_expedited()",
		      "a polled cookie", "call_rcu()", "rcu_barrier()" },
};

DEFINE_STATIC_SRCU(torture_srcu);
static unsigned long srcu_exp_waits;

static int srcu_torture_read_lock(void)
{
	return srcu_read_lock(&torture_srcu);
}

static void srcu_torture_read_unlock(int idx)
{
	srcu_read_unlock(&torture_srcu, idx);
}

static bool srcu_torture_read_held(void)
{
	return srcu_read_lock_held(&torture_srcu);
}

static unsigned long srcu_torture_gp_seq(void)
{
	/* Lock-free, for counting grace periods: an untorn load. */
	return READ_ONCE(torture_srcu.gp_seq);
}

/* SRCU counts no expedited grace periods of its own: the waits made. */
static u64 srcu_torture_exp_completed(void)
{
	return READ_ONCE(srcu_exp_waits);
}

static unsigned long srcu_torture_get_state(void)
{
	return get_state_synchronize_srcu(&torture_srcu);
}

static unsigned long srcu_torture_start_poll(void)
{
	return start_poll_synchronize_srcu(&torture_srcu);
}

static bool srcu_torture_poll_state(unsigned long cookie)
{
	return poll_state_synchronize_srcu(&torture_srcu, cookie);
}

/* Linux has no cond_synchronize_srcu(): poll, then wait if need be. */
static void srcu_torture_cond_sync(unsigned long cookie)
{
	if (!poll_state_synchronize_srcu(&torture_srcu, cookie))
		synchronize_srcu(&torture_srcu);
}

static void srcu_torture_sync(void)
{
	synchronize_srcu(&torture_srcu);
}

static void srcu_torture_exp_sync(void)
{
	synchronize_srcu_expedited(&torture_srcu);
	atomic_add_relaxed(&srcu_exp_waits, 1);
}

static void srcu_torture_call(struct rcu_head *head, rcu_callback_t func)
{
	call_srcu(&torture_srcu, head, func);
}

static void srcu_torture_barrier(void)
{
	srcu_barrier(&torture_srcu);
}

static const struct torture_ops srcu_torture_ops = {
	.name = "srcu",
	.read_lock = srcu_torture_read_lock,
	.read_unlock = srcu_torture_read_unlock,
	.read_held = srcu_torture_read_held,
	.readers_sleep = true,
	.gp_seq = srcu_torture_gp_seq,
	.exp_completed = srcu_torture_exp_completed,
	.get_state = srcu_torture_get_state,
	.start_poll = srcu_torture_start_poll,
	.poll_state = srcu_torture_poll_state,
	.cond_sync = srcu_torture_cond_sync,
	.sync = srcu_torture_sync,
	.exp_sync = srcu_torture_exp_sync,
	.call = srcu_torture_call,
	.cb_barrier = srcu_torture_barrier,
	.gp_names = { "synchronize_srcu()", "synchronize_srcu_expedited()",
		      "a polled SRCU cookie", "call_srcu()", "srcu_barrier()" },
};

const struct torture_ops *torture_find_ops(const char *name)
{
	if (!strcmp(name, "rcu"))
		return &rcu_torture_ops;
	if (!strcmp(name, "srcu"))
		return &srcu_torture_ops;
	return NULL;
}
