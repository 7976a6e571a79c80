/*
 * The linux_port suite: code written against Linux 6.1's RCU API, as a
 * Linux developer would write it, compiles here unchanged (only the
 * includes and the name of the sleep differ) and behaves: a hash table read under rcu_read_lock(),
 * updated under a lock with the _rcu list operations, rcu_replace_pointer()
 * and kfree_rcu(); Linux's two-argument call_rcu(); a configuration read
 * under SRCU by readers that sleep; polled _full cookies.
 */
#include "kernel/mm/kmalloc.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/rcu/srcu.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/spinlock.h"
#include "kernel/test/ktest.h"
#include "lib/rculist.h"

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
