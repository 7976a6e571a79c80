/*
 * The rculist suite: every RCU list helper of lib/rculist.h and
 * lib/rculist_nulls.h, used by a writer while readers on up to three
 * CPUs (ktest_sample_cpus()) walk the lists with the _rcu iterators
 * (test_rculist.h says what a reader checks). Runs are bounded by the
 * writer's count of operations and by a count of reader walks that
 * overlapped one, never by time; and by a count of readers, not by the
 * CPU count: with a reader spinning on each of 32 vCPUs, the writer and
 * its grace periods got so little of a two-core host that the list test
 * overran its 120 s watchdog (23 s at -smp 2). With race.windows=all (or
 * =rculist) each helper pauses after its publishing or unlinking store
 * (lib/rculist_window.h), so a helper whose stores are out of order is
 * caught in the act. This file holds the readers and the
 * list_head test; test_rculist_hlist.c the hlist and hlist_nulls ones.
 */
#include "test_rculist.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest_cpus.h"
#include "lib/atomic.h"

#define LIST_OPS		3000u
#define LIST_MIN_OVERLAP	300u

/* Where a fresh element's links point: stale memory, as a helper that
 * forgot a link would leave it. Never on any list; its mark is RL_TRAP. */
static struct rl_item rl_trap = { .marker = RL_TRAP };

static struct rl_reader readers[KTEST_SAMPLE_CPUS];
static struct thread *reader_threads[KTEST_SAMPLE_CPUS];
static unsigned int nr_readers;

struct rl_item *rl_item_new(void)
{
	struct rl_item *it = kzalloc(sizeof(*it));

	if (!it)
		return NULL;
	it->link.next = it->link.prev = &rl_trap.link;
	it->hnode.next = &rl_trap.hnode;
	it->hnode.pprev = &rl_trap.hnode.next;
	it->nnode.next = &rl_trap.nnode;
	it->nnode.pprev = &rl_trap.nnode.next;
	it->marker = RL_LIVE;
	return it;
}

static void rl_item_free(void *arg)
{
	struct rl_item *it = arg;

	/* Read lock-free by readers that must no longer reach it. */
	WRITE_ONCE(it->marker, RL_FREED);
	kfree(it);
}

void rl_item_retire(struct rl_item *it)
{
	call_rcu(&it->rcu, rl_item_free, it);
}

static bool rl_mark_ok(struct rl_reader *r, const struct rl_item *it)
{
	/* Lock-free: rl_item_free() writes it. */
	u32 mark = READ_ONCE(it->marker);

	if (mark == RL_LIVE)
		return true;
	atomic_add_relaxed(&r->run->bad, 1);
	cmpxchg(&r->run->first_bad, 0u, mark);
	return false;
}

bool rl_reached(struct rl_reader *r, const struct rl_item *it)
{
	unsigned int spin;

	if (!rl_mark_ok(r, it))
		return false;
	r->seen++;
	/* Now and then stand on the element, as a slow reader would, while
	 * the writer may remove it: it must stay intact until our section
	 * ends, which the second check says. */
	if (prng_below(&r->rng, 8) == 0) {
		for (spin = prng_below(&r->rng, 2000); spin; spin--)
			arch_cpu_relax();
		return rl_mark_ok(r, it);
	}
	return true;
}

static void rl_reader_fn(void *arg)
{
	struct rl_reader *r = arg;
	struct rl_run *run = r->run;

	/* Acquire: pairs with rl_stop()'s release; bounded by the writer,
	 * whose run is bounded by counts. */
	while (!smp_load_acquire(&run->writer_done)) {
		u64 before = READ_ONCE(run->ops);

		rcu_read_lock();
		run->walk(r);
		rcu_read_unlock();
		r->walk_nr++;
		if (READ_ONCE(run->ops) != before)
			atomic_add_relaxed(&run->overlapping, 1);
	}
	atomic_add_relaxed(&run->walks, r->walk_nr);
	atomic_add_relaxed(&run->seen, r->seen);
}

void rl_start(struct ktest_context *t, struct rl_run *run)
{
	unsigned int cpus[KTEST_SAMPLE_CPUS], i;

	nr_readers = ktest_sample_cpus(cpus, -1);
	for (i = 0; i < nr_readers; i++) {
		readers[i] = (struct rl_reader){ .run = run };
		prng_seed(&readers[i].rng, 0x1157 + cpus[i]);
		reader_threads[i] = thread_create_on(rl_reader_fn, &readers[i],
						     "rl_reader", cpus[i]);
		KEXPECT_TRUE(reader_threads[i] != NULL);
	}
}

bool rl_writer_goes_on(struct rl_run *run, u64 ops, u64 min_overlap)
{
	/* Only the writer stores it; readers compare two samples. */
	WRITE_ONCE(run->ops, run->ops + 1);
	if (run->ops % 8 == 0)
		yield();	/* let a reader of this CPU, if any, walk too */
	return run->ops < ops || (nr_cpus_online > 1 &&
				  READ_ONCE(run->overlapping) < min_overlap);
}

void rl_stop(struct ktest_context *t, struct rl_run *run, const char *what)
{
	unsigned int i;

	/* Release: the readers' last walks see every operation. */
	smp_store_release(&run->writer_done, true);
	for (i = 0; i < nr_readers; i++)
		if (reader_threads[i])
			thread_join(reader_threads[i]);
	console_printf("    # %s: %llu operations, %llu walks (%llu overlapping "
		       "one), %llu elements checked, %llu restarts, %llu bad "
		       "(first mark %#x)\n", what, run->ops, run->walks,
		       run->overlapping, run->seen, run->restarts, run->bad,
		       run->first_bad);
	KEXPECT_EQ(run->bad, 0ull);
	KEXPECT_GT(run->walks, 0ull);
}

/* The list_head test's lists: the writer's, and the staging list it
 * fills before splicing it in, which readers walk too. */
static LIST_HEAD(rl_list);
static LIST_HEAD(rl_stage);

static void list_walk(struct rl_reader *r)
{
	struct list_head *heads[] = { &rl_list, &rl_stage };
	struct rl_item *it;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(heads); i++)
		list_for_each_entry_rcu(it, heads[i], link)
			if (!rl_reached(r, it))
				return;
}

/* Splice 1 to 3 new elements in, at the head or the tail; each helper
 * waits for a grace period while the staging list drains of readers. */
static unsigned int list_splice_some(struct prng *rng, struct rl_item **on,
				     unsigned int n)
{
	unsigned int m = 1 + prng_below(rng, 3), i;

	for (i = 0; i < m; i++) {
		struct rl_item *it = rl_item_new();

		if (!it)
			break;
		list_add_tail_rcu(&it->link, &rl_stage);
		on[n++] = it;
	}
	if (prng_below(rng, 2))
		list_splice_init_rcu(&rl_stage, &rl_list, synchronize_rcu);
	else
		list_splice_tail_init_rcu(&rl_stage, &rl_list, synchronize_rcu);
	return n;
}

KTEST_TIMEOUT(rculist, list_helpers_under_readers, 120000)
{
	struct rl_run run = { .walk = list_walk };
	struct rl_item *on[RL_MAX], *it;
	unsigned int n = 0, k, op;
	struct prng rng;

	prng_seed(&rng, 5);
	rl_start(t, &run);
	do {
		op = prng_below(&rng, 32);
		if (n < 2)
			op = prng_below(&rng, 10);	/* an addition */
		else if (n + 3 > RL_MAX)
			op = 10;			/* a deletion */
		k = n ? prng_below(&rng, n) : 0;
		if (op >= 30) {
			n = list_splice_some(&rng, on, n);
			continue;
		}
		if (op >= 10 && op < 20) {
			list_del_rcu(&on[k]->link);
			rl_item_retire(on[k]);
			on[k] = on[--n];
			continue;
		}
		it = rl_item_new();
		if (!it) {
			KTEST_FAIL("out of memory");
			break;
		}
		if (op >= 20) {
			list_replace_rcu(&on[k]->link, &it->link);
			rl_item_retire(on[k]);
			on[k] = it;
			continue;
		}
		if (op % 3 == 0)
			list_add_rcu(&it->link, &rl_list);
		else if (op % 3 == 1)
			list_add_tail_rcu(&it->link, &rl_list);
		else if (n)
			list_add_rcu(&it->link, &on[k]->link);
		else
			list_add_rcu(&it->link, &rl_list);
		on[n++] = it;
	} while (rl_writer_goes_on(&run, LIST_OPS, LIST_MIN_OVERLAP));
	rl_stop(t, &run, "list");
	while (n) {
		list_del_rcu(&on[--n]->link);
		rl_item_retire(on[n]);
	}
	KEXPECT_TRUE(list_empty(&rl_list));
	rcu_barrier();
}
