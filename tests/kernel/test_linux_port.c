/*
 * The linux_port suite: code written against Linux 6.1's RCU API, as a
 * Linux developer would write it, compiles here unchanged (only the
 * includes and the name of the sleep differ) and behaves: a hash table read under rcu_read_lock(),
 * updated under a lock with the _rcu list operations, rcu_replace_pointer()
 * and kfree_rcu(); Linux's two-argument call_rcu(); a configuration read
 * under SRCU by readers that sleep; polled _full cookies; and every other
 * call of Linux's API that Quiesce offers, each in Linux's form: a
 * dynamic SRCU domain, the polled and expedited forms, list splicing,
 * the hlist insertions and iterators, hlist_nulls and
 * kfree_rcu_mightsleep().
 */
#include "kernel/mm/kmalloc.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/srcu.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/spinlock.h"
#include "kernel/test/ktest.h"
#include "lib/rculist.h"
#include "lib/rculist_nulls.h"

/* ---- As it would read in a Linux driver ---- */

struct foo {
	int key;
	int val;
	struct hlist_node node;
	struct rcu_head rcu;
};

#define FOO_BUCKETS 8
static struct hlist_head foo_table[FOO_BUCKETS];
static DEFINE_SPINLOCK(foo_lock);

static struct foo *foo_lookup(int key)
{
	struct foo *f;

	/* Readers, and foo_del() under foo_lock (Linux would say
	 * lockdep_is_held(); the debug build caught the walk without it). */
	hlist_for_each_entry_rcu(f, &foo_table[key % FOO_BUCKETS], node,
				 spin_is_locked(&foo_lock))
		if (f->key == key)
			return f;
	return NULL;
}

static int foo_get(int key)
{
	struct foo *f;
	int val = -1;

	rcu_read_lock();
	f = foo_lookup(key);
	if (f)
		val = READ_ONCE(f->val);
	rcu_read_unlock();
	return val;
}

/* Insert, or replace the entry for key with a new copy. */
static int foo_set(int key, int val)
{
	struct foo *new = kmalloc(sizeof(*new)), *old;

	if (!new)
		return -1;
	new->key = key;
	new->val = val;
	spin_lock(&foo_lock);
	hlist_for_each_entry_rcu(old, &foo_table[key % FOO_BUCKETS], node,
				 spin_is_locked(&foo_lock))
		if (old->key == key)
			break;
	if (old) {
		hlist_replace_rcu(&old->node, &new->node);
		spin_unlock(&foo_lock);
		kfree_rcu(old, rcu);
	} else {
		hlist_add_head_rcu(&new->node, &foo_table[key % FOO_BUCKETS]);
		spin_unlock(&foo_lock);
	}
	return 0;
}

static void foo_free_cb(struct rcu_head *head)
{
	kfree(container_of(head, struct foo, rcu));
}

static void foo_del(int key)
{
	struct foo *f;

	spin_lock(&foo_lock);
	f = foo_lookup(key);
	if (f)
		hlist_del_rcu(&f->node);
	spin_unlock(&foo_lock);
	if (f)
		call_rcu(&f->rcu, foo_free_cb);
}

struct foo_config {
	int level;
};

DEFINE_STATIC_SRCU(foo_srcu);
static struct foo_config __rcu *foo_cfg;
static DEFINE_SPINLOCK(foo_cfg_lock);

static int foo_config_level_slowly(void)
{
	struct foo_config *c;
	int idx, level;

	idx = srcu_read_lock(&foo_srcu);
	c = srcu_dereference(foo_cfg, &foo_srcu);
	sleep_ms(1);		/* Linux: msleep(1) */
	level = c ? c->level : 0;
	srcu_read_unlock(&foo_srcu, idx);
	return level;
}

static void foo_config_set(int level)
{
	struct foo_config *new = kmalloc(sizeof(*new)), *old;

	if (!new)
		return;
	new->level = level;
	spin_lock(&foo_cfg_lock);
	old = rcu_replace_pointer(foo_cfg, new,
				  spin_is_locked(&foo_cfg_lock));
	spin_unlock(&foo_cfg_lock);
	synchronize_srcu(&foo_srcu);
	kfree(old);
}

/* ---- The checks ---- */

KTEST(linux_port, hash_table_of_a_linux_driver)
{
	struct rcu_gp_oldstate gp;
	int k;

	for (k = 0; k < 32; k++)
		KASSERT_EQ(foo_set(k, k * 10), 0);
	for (k = 0; k < 32; k++)
		KEXPECT_EQ(foo_get(k), k * 10);
	for (k = 0; k < 32; k += 2)
		KASSERT_EQ(foo_set(k, k * 100), 0);
	for (k = 1; k < 32; k += 2)
		foo_del(k);
	get_state_synchronize_rcu_full(&gp);
	cond_synchronize_rcu_full(&gp);
	KEXPECT_TRUE(poll_state_synchronize_rcu_full(&gp));
	for (k = 0; k < 32; k++)
		KEXPECT_EQ(foo_get(k), k % 2 ? -1 : k * 100);
	for (k = 0; k < 32; k += 2)
		foo_del(k);
	rcu_barrier();
	for (k = 0; k < 32; k++)
		KEXPECT_EQ(foo_get(k), -1);
}

KTEST(linux_port, srcu_protected_config)
{
	foo_config_set(1);
	KEXPECT_EQ(foo_config_level_slowly(), 1);
	foo_config_set(2);
	KEXPECT_EQ(foo_config_level_slowly(), 2);
	spin_lock(&foo_cfg_lock);
	kfree(rcu_replace_pointer(foo_cfg, NULL,
				  spin_is_locked(&foo_cfg_lock)));
	spin_unlock(&foo_cfg_lock);
}

/* ---- The rest of the API, as Linux 6.1 spells it ---- */

struct bar {
	int id;
	struct list_head list;
	struct hlist_node hnode;
	struct hlist_nulls_node nnode;
	struct rcu_head rcu;
};

/* Linux declares a DEFINE_SRCU() domain in a header, as here. */
extern struct srcu_struct bar_srcu;
DEFINE_SRCU(bar_srcu);
static struct bar __rcu *bar_current;
static DEFINE_SPINLOCK(bar_lock);
static int bar_srcu_freed;

static void bar_srcu_free(struct rcu_head *head)
{
	kfree(container_of(head, struct bar, rcu));
	WRITE_ONCE(bar_srcu_freed, bar_srcu_freed + 1);
}

static struct bar *bar_new(int id)
{
	struct bar *b = kmalloc(sizeof(*b));

	if (b)
		b->id = id;
	return b;
}

KTEST(linux_port, srcu_domain_calls)
{
	struct srcu_struct dyn;
	struct bar *b = bar_new(1);
	unsigned long cookie;
	int idx;

	KASSERT_TRUE(b != NULL);
	KASSERT_EQ(init_srcu_struct(&dyn), 0);
	idx = srcu_read_lock(&dyn);
	cookie = start_poll_synchronize_srcu(&dyn);
	KEXPECT_FALSE(poll_state_synchronize_srcu(&dyn, cookie));
	srcu_read_unlock(&dyn, idx);
	synchronize_srcu_expedited(&dyn);
	KEXPECT_TRUE(poll_state_synchronize_srcu(&dyn, cookie));
	call_srcu(&dyn, &b->rcu, bar_srcu_free);
	srcu_barrier(&dyn);
	KEXPECT_EQ(READ_ONCE(bar_srcu_freed), 1);
	cleanup_srcu_struct(&dyn);
	/* A DEFINE_SRCU() domain, and rcu_dereference_protected(). */
	b = bar_new(2);
	KASSERT_TRUE(b != NULL);
	spin_lock(&bar_lock);
	rcu_assign_pointer(bar_current, b);
	KEXPECT_EQ(rcu_dereference_protected(bar_current,
					     spin_is_locked(&bar_lock))->id, 2);
	RCU_INIT_POINTER(bar_current, NULL);
	spin_unlock(&bar_lock);
	synchronize_srcu(&bar_srcu);
	kfree_rcu_mightsleep(b);
}

KTEST(linux_port, polled_and_expedited_calls)
{
	struct rcu_gp_oldstate s;
	unsigned long cookie = start_poll_synchronize_rcu();

	while (!poll_state_synchronize_rcu(cookie))
		sleep_ms(1);	/* Linux: schedule_timeout_idle(1) */
	start_poll_synchronize_rcu_full(&s);
	while (!poll_state_synchronize_rcu_full(&s))
		sleep_ms(1);
	cookie = start_poll_synchronize_rcu_expedited();
	cond_synchronize_rcu_expedited(cookie);
	KEXPECT_TRUE(poll_state_synchronize_rcu(cookie));
	start_poll_synchronize_rcu_expedited_full(&s);
	cond_synchronize_rcu_expedited_full(&s);
	KEXPECT_TRUE(poll_state_synchronize_rcu_full(&s));
}

/* Three entries on a list, spliced onto another; an hlist built with
 * add_before and add_behind and walked from the middle; an hlist_nulls
 * chain walked to its marker. */
KTEST(linux_port, list_and_hlist_calls)
{
	LIST_HEAD(staging);
	LIST_HEAD(live);
	HLIST_HEAD(h);
	struct hlist_nulls_head nh;
	struct hlist_nulls_node *npos;
	struct bar *b[3], *pos;
	int i, sum = 0, order = 0, nsum = 0;

	INIT_HLIST_NULLS_HEAD(&nh, 7);
	for (i = 0; i < 3; i++) {
		b[i] = bar_new(i + 1);
		KASSERT_TRUE(b[i] != NULL);
		list_add_tail(&b[i]->list, &staging);
		hlist_nulls_add_head_rcu(&b[i]->nnode, &nh);
	}
	list_splice_init_rcu(&staging, &live, synchronize_rcu);
	KEXPECT_TRUE(list_empty(&staging));
	rcu_read_lock();
	list_for_each_entry_rcu(pos, &live, list)
		sum += pos->id;
	rcu_read_unlock();
	KEXPECT_EQ(sum, 6);
	/* Back again, at the tail this time. */
	list_splice_tail_init_rcu(&live, &staging, synchronize_rcu);
	KEXPECT_TRUE(list_empty(&live));

	hlist_add_head_rcu(&b[1]->hnode, &h);
	hlist_add_before_rcu(&b[0]->hnode, &b[1]->hnode);
	hlist_add_behind_rcu(&b[2]->hnode, &b[1]->hnode);
	rcu_read_lock();
	pos = b[0];
	hlist_for_each_entry_from_rcu(pos, hnode)
		order = order * 10 + pos->id;
	pos = b[0];
	hlist_for_each_entry_continue_rcu(pos, hnode)
		sum += pos->id;
	hlist_nulls_for_each_entry_rcu(pos, npos, &nh, nnode)
		nsum += pos->id;
	rcu_read_unlock();
	KEXPECT_EQ(order, 123);
	KEXPECT_EQ(sum, 6 + 2 + 3);
	KEXPECT_EQ(nsum, 6);
	KEXPECT_EQ(get_nulls_value(npos), 7ul);
	for (i = 0; i < 3; i++) {
		hlist_del_rcu(&b[i]->hnode);
		hlist_nulls_del_rcu(&b[i]->nnode);
		list_del_rcu(&b[i]->list);
		kfree_rcu(b[i], rcu);
	}
	rcu_barrier();
}
