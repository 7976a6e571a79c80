/*
 * crash= kinds that KASAN must report (debug build), one per kind of
 * report: a read after kfree(), a read after an RCU callback freed the
 * object (call_rcu() and kfree_rcu(), which the report must name), a
 * read past the end of an object and of a global, and a double free. Each
 * report is a BUG line after which the run goes on, as Linux's KASAN
 * does by default.
 */
#include "crash.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/rcu/rcupdate.h"

#if KERNEL_KASAN

struct victim {
	struct rcu_head rcu;
	u64 payload[4];
};

/* volatile: the compiler must not fold or drop the bad access. */
static u64 read_word(const void *p)
{
	return *(const volatile u64 *)p;
}

static struct victim *new_victim(void)
{
	struct victim *v = kzalloc(sizeof(*v));

	if (!v)
		pr_err("crash: no memory for the object to misuse\n");
	return v;
}

static void use_after_kfree(void)
{
	struct victim *v = new_victim();

	if (!v)
		return;
	kfree(v);
	pr_info("crash: read %llx after kfree()\n", read_word(&v->payload[1]));
}
CRASH_KIND_WARNS("kasan_uaf", "read a kmalloc object after kfree()",
		 use_after_kfree);

static void free_victim(struct rcu_head *head)
{
	kfree(container_of(head, struct victim, rcu));
}

/* The reader that outlived its grace period: the object is read after
 * the callback that freed it ran. */
static void use_after_call_rcu(void)
{
	struct victim *v = new_victim();

	if (!v)
		return;
	call_rcu(&v->rcu, free_victim);
	rcu_barrier();
	pr_info("crash: read %llx after call_rcu() freed it\n",
		read_word(&v->payload[2]));
}
CRASH_KIND_WARNS("kasan_call_rcu",
		 "read an object after its call_rcu() callback freed it",
		 use_after_call_rcu);

static void use_after_kfree_rcu(void)
{
	struct victim *v = new_victim();

	if (!v)
		return;
	kfree_rcu(v, rcu);
	rcu_barrier();
	pr_info("crash: read %llx after kfree_rcu()\n",
		read_word(&v->payload[3]));
}
CRASH_KIND_WARNS("kasan_kfree_rcu",
		 "read an object after kfree_rcu() freed it",
		 use_after_kfree_rcu);

static void read_out_of_bounds(void)
{
	u8 *p = kmalloc(13);

	if (!p)
		return;
	pr_info("crash: read %x past a 13-byte object\n",
		((volatile u8 *)p)[13]);
	kfree(p);
}
CRASH_KIND_WARNS("kasan_oob", "read one byte past a kmalloc object",
		 read_out_of_bounds);

static u32 global_array[5];
/* Read through a volatile index, so the compiler cannot see the bound. */
static volatile unsigned int global_index = ARRAY_SIZE(global_array);

/* Through a pointer the compiler cannot trace back to the array:
 * UBSan's index and object-size checks would report first. */
static void read_global_out_of_bounds(void)
{
	const u32 *p = global_array;

	asm("" : "+r"(p));
	pr_info("crash: read %x past a global array\n", p[global_index]);
}
CRASH_KIND_WARNS("kasan_global", "read past the end of a global array",
		 read_global_out_of_bounds);

static void free_twice(void)
{
	struct victim *v = new_victim();

	if (!v)
		return;
	kfree(v);
	kfree(v);
}
CRASH_KIND_WARNS("kasan_double_free", "kfree() the same object twice",
		 free_twice);

#endif
