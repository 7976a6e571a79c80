/*
 * The rcu suite, continued: Linux's spellings of the API behave as
 * Linux's do. Linux's two-argument call_rcu(), the polled cookies
 * that either kind of grace period satisfies, the expedited polled
 * forms, and rcu_replace_pointer().
 */
#include "kernel/mm/kmalloc.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/stats.h"
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

/* A plain cookie too, as Linux 6.1's: nothing here asks for a normal
 * grace period, so with cookies that only a normal one satisfied, five
 * expedited ones in a row would each leave the cookie pending (unless
 * other work happened to end a normal one every time). */
KTEST(rcu, plain_cookie_is_satisfied_by_an_expedited_grace_period)
{
	unsigned int i, early = 0, done = 0;
	unsigned long cookie;

	for (i = 0; i < 5; i++) {
		rcu_read_lock();
		cookie = get_state_synchronize_rcu();
		early += poll_state_synchronize_rcu(cookie);
		rcu_read_unlock();
		synchronize_rcu_expedited();
		done += poll_state_synchronize_rcu(cookie);
	}
	KEXPECT_EQ(early, 0u);
	KEXPECT_EQ(done, 5u);
	cookie = get_state_synchronize_rcu();
	synchronize_rcu();
	KEXPECT_TRUE(poll_state_synchronize_rcu(cookie));
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

#define KFREE_OBJS	1200u
#define KFREE_MAGIC	0x6b667265u

struct kfree_obj {
	u32 magic;
	struct rcu_head rcu;
};

/* kfree_rcu() batches: 1200 objects take a handful of callbacks, not
 * 1200. Queued with interrupts off, so no tick closes a block early and
 * the count does not depend on speed; inside our own reader, so none
 * may be freed before we leave it (the debug build poisons freed
 * memory). */
KTEST(rcu, kfree_rcu_frees_in_batches_after_the_readers)
{
	static struct kfree_obj *objs[KFREE_OBJS];
	struct kmalloc_class_stats before[KMALLOC_NR_CLASSES];
	struct kmalloc_class_stats after[KMALLOC_NR_CLASSES];
	struct rcu_stats s0, s1;
	unsigned long flags;
	unsigned int i, r, early = 0;
	u64 freed = 0;

	for (i = 0; i < KFREE_OBJS; i++) {
		objs[i] = kmalloc(sizeof(*objs[i]));
		KASSERT_TRUE(objs[i] != NULL);
		objs[i]->magic = KFREE_MAGIC;
	}
	rcu_get_stats(&s0);
	kmalloc_get_stats(before);
	rcu_read_lock();
	local_irq_save(flags);
	for (i = 0; i < KFREE_OBJS; i++)
		kfree_rcu(objs[i], rcu);
	local_irq_restore(flags);
	for (r = 0; r < 50; r++)
		for (i = 0; i < KFREE_OBJS; i++)
			early += READ_ONCE(objs[i]->magic) != KFREE_MAGIC;
	rcu_read_unlock();
	rcu_barrier();
	kmalloc_get_stats(after);
	rcu_get_stats(&s1);
	for (i = 0; i < KMALLOC_NR_CLASSES; i++)
		freed += after[i].frees - before[i].frees;
	KEXPECT_EQ(early, 0u);
	KEXPECT_GE(freed, (u64)KFREE_OBJS);
	KEXPECT_GE(s1.kfree_blocks - s0.kfree_blocks, 3ull);
	KEXPECT_LE(s1.kfree_blocks - s0.kfree_blocks, 10ull);
}

KTEST(rcu, kfree_rcu_mightsleep_frees)
{
	struct kmalloc_class_stats before[KMALLOC_NR_CLASSES];
	struct kmalloc_class_stats after[KMALLOC_NR_CLASSES];
	unsigned int i;
	u64 freed = 0;

	kmalloc_get_stats(before);
	for (i = 0; i < 10; i++) {
		void *p = kmalloc(100);

		KASSERT_TRUE(p != NULL);
		kfree_rcu_mightsleep(p);
	}
	rcu_barrier();
	kmalloc_get_stats(after);
	for (i = 0; i < KMALLOC_NR_CLASSES; i++)
		freed += after[i].frees - before[i].frees;
	KEXPECT_GE(freed, 10ull);
}

/* kfree()'s check for a queued rcu_head must not take stale data for
 * one: a freed stack page reused as a kfree_rcu() block once held the
 * raw mark spilled from a register, and the check refused to free the
 * block (make test at -smp 64). Marks keyed to another address, or the
 * bare constant, are data. */
KTEST(rcu, kfree_check_ignores_stale_queued_marks)
{
	const size_t at = 100;
	unsigned long *w;

	if (!KERNEL_DEBUG)
		KTEST_SKIP("the check is the debug build's");
	w = kmalloc(4096);
	KASSERT_TRUE(w != NULL);
	w[at] = RCU_HEAD_QUEUED;
	w[at + 1] = 0;
	w[at + 8] = rcu_head_queued_mark((const struct rcu_head *)&w[3]);
	KEXPECT_TRUE(rcu_head_check_free(w, 4096));
	kfree(w);
}
