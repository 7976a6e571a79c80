/* crash= kinds that misuse RCU, to show the debug checks report it. */
#include "crash.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "lib/rculist.h"

static void unlock_without_lock(void)
{
	rcu_read_unlock();
}
CRASH_KIND("rcu_unlock", "rcu_read_unlock() without rcu_read_lock()",
	   unlock_without_lock);

static void sleep_in_reader(void)
{
	rcu_read_lock();
	sleep_ms(1);
	rcu_read_unlock();
}
CRASH_KIND("rcu_sleep", "sleep inside an RCU read-side section",
	   sleep_in_reader);

static int __rcu *unprotected;

static void dereference_outside_reader(void)
{
	int *p = rcu_dereference(unprotected);

	pr_info("crash: rcu_dereference() outside a reader returned %p\n", p);
}
CRASH_KIND_WARNS("rcu_deref", "rcu_dereference() outside a read-side section",
	   dereference_outside_reader);

struct listed {
	int value;
	struct list_head link;
};

static LIST_HEAD(unprotected_list);

static void walk_outside_reader(void)
{
	static struct listed one = { .value = 1 };
	struct listed *pos;
	int sum = 0;

	list_add_tail_rcu(&one.link, &unprotected_list);
	list_for_each_entry_rcu(pos, &unprotected_list, link)
		sum += pos->value;
	list_del_rcu(&one.link);
	pr_info("crash: an RCU list walked outside a reader summed %d\n", sum);
}
CRASH_KIND_WARNS("rcu_list", "an RCU list walked outside a read-side section",
		 walk_outside_reader);

static struct rcu_head queued_twice;

static void count_call(struct rcu_head *head)
{
	pr_info("crash: callback for %p ran\n", head);
}

static void call_rcu_twice(void)
{
	call_rcu(&queued_twice, count_call);
	call_rcu(&queued_twice, count_call);
	rcu_barrier();
}
CRASH_KIND_WARNS("rcu_double_call", "queue one rcu_head twice",
		 call_rcu_twice);

struct with_head {
	int payload;
	struct rcu_head rcu;
};

static void free_while_queued(void)
{
	struct with_head *o = kmalloc(sizeof(*o));

	if (!o)
		return;
	/* Inside a reader, so that no grace period, and so no callback,
	 * can end between the two: a tick and a preemption there once let
	 * the callback run first, and the kfree() had nothing to report. */
	rcu_read_lock();
	call_rcu(&o->rcu, count_call);
	kfree(o);
	rcu_read_unlock();
	rcu_barrier();
}
CRASH_KIND_WARNS("rcu_free_queued", "kfree() an object whose rcu_head is queued",
		 free_while_queued);
