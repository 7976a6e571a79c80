/*
 * The rcu suite, continued: Linux's spellings of the API behave as
 * Linux's do. Linux's two-argument call_rcu(), the _full polled cookies
 * that either kind of grace period satisfies, the expedited polled
 * forms, and rcu_replace_pointer().
 */
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/spinlock.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"

struct linux_style {
	int value;
	struct rcu_head rcu;
	struct rcu_head *seen;		/* the head the callback was given */
	unsigned int runs;
};

static void linux_style_cb(struct rcu_head *head)
{
	struct linux_style *o = container_of(head, struct linux_style, rcu);

	o->seen = head;
	o->runs++;
}

KTEST(rcu, two_argument_call_rcu_passes_the_head)
{
	static struct linux_style objs[16];
	unsigned int i, right = 0;

	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		objs[i] = (struct linux_style){ .value = (int)i };
		call_rcu(&objs[i].rcu, linux_style_cb);
	}
	rcu_barrier();
	for (i = 0; i < ARRAY_SIZE(objs); i++)
		right += objs[i].runs == 1 && objs[i].seen == &objs[i].rcu;
	KEXPECT_EQ(right, (unsigned int)ARRAY_SIZE(objs));
}

/* Inside our own reader no grace period begun after the cookie can end,
 * of either kind; after an expedited one, the _full cookie is done
 * whether or not a normal one has ended. */
KTEST(rcu, full_cookie_is_satisfied_by_an_expedited_grace_period)
{
	struct rcu_gp_oldstate s;
	unsigned int i, early = 0;

	rcu_read_lock();
	get_state_synchronize_rcu_full(&s);
	for (i = 0; i < 10000; i++) {
		early += poll_state_synchronize_rcu_full(&s);
		arch_cpu_relax();
	}
	rcu_read_unlock();
	KEXPECT_EQ(early, 0u);
	synchronize_rcu_expedited();
	KEXPECT_TRUE(poll_state_synchronize_rcu_full(&s));
	/* Already satisfied: returns without waiting, and stays so. */
	cond_synchronize_rcu_full(&s);
	cond_synchronize_rcu_expedited_full(&s);
	KEXPECT_TRUE(poll_state_synchronize_rcu_full(&s));

	get_state_synchronize_rcu_full(&s);
	synchronize_rcu();
	KEXPECT_TRUE(poll_state_synchronize_rcu_full(&s));
}

KTEST(rcu, expedited_polled_forms_end_their_grace_periods)
{
	struct rcu_gp_oldstate s;
	unsigned long cookie = start_poll_synchronize_rcu_expedited();

	/* It asked for the normal grace period too: polling ends. */
	while (!poll_state_synchronize_rcu(cookie))
		sleep_ms(1);
	start_poll_synchronize_rcu_expedited_full(&s);
	KEXPECT_TRUE(poll_state_synchronize_rcu_full(&s));
	cookie = get_state_synchronize_rcu();
	cond_synchronize_rcu_expedited(cookie);
	start_poll_synchronize_rcu_full(&s);
	while (!poll_state_synchronize_rcu_full(&s))
		sleep_ms(1);
}

static int __rcu *replaced;

KTEST(rcu, replace_pointer_returns_the_old_value)
{
	static int a = 1, b = 2;
	int *old;

	RCU_INIT_POINTER(replaced, &a);
	old = rcu_replace_pointer(replaced, &b, true);
	KEXPECT_TRUE(old == &a);
	KEXPECT_TRUE(rcu_access_pointer(replaced) == &b);
	old = rcu_replace_pointer(replaced, NULL, true);
	KEXPECT_TRUE(old == &b);
	KEXPECT_TRUE(rcu_access_pointer(replaced) == NULL);
}

static DEFINE_SPINLOCK(not_a_reader_lock);

/* A spinlock delays grace periods but is no read-side section: the debug
 * build's rcu_read_lock_held() tells them apart, as lockdep does. */
KTEST(rcu, read_lock_held_is_exact_in_the_debug_build)
{
	bool in_reader, in_spinlock, any_in_spinlock, nested;

	if (!KERNEL_DEBUG)
		KTEST_SKIP("the exact answer needs the debug build's count");
	KEXPECT_FALSE(rcu_read_lock_held());
	rcu_read_lock();
	rcu_read_lock();
	rcu_read_unlock();
	nested = rcu_read_lock_held();
	rcu_read_unlock();
	rcu_read_lock();
	in_reader = rcu_read_lock_held();
	rcu_read_unlock();
	spin_lock(&not_a_reader_lock);
	in_spinlock = rcu_read_lock_held();
	any_in_spinlock = rcu_read_lock_any_held();
	spin_unlock(&not_a_reader_lock);
	KEXPECT_TRUE(nested);
	KEXPECT_TRUE(in_reader);
	KEXPECT_FALSE(in_spinlock);
	KEXPECT_TRUE(any_in_spinlock);
	KEXPECT_FALSE(rcu_read_lock_held());
}
