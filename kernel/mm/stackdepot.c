/*
 * The stack depot (stackdepot.h). Records live in one static pool, found
 * through a hash table of chains. Lookups take no lock: a record is
 * written whole before the store-release that links it into its chain,
 * and never changes afterwards; inserts are serialized by a lock. Built
 * without KASAN's instrumentation: KASAN calls it on every allocation.
 */
#include "stackdepot.h"
#include "arch.h"
#include "kernel/printk.h"
#include "kernel/sched/spinlock.h"
#include "lib/atomic.h"
#include "lib/string.h"

#define POOL_BYTES	(2u << 20)
#define HASH_BUCKETS	4096

struct stack_record {
	struct stack_record *next;	/* in its hash chain */
	u32 hash;
	u32 nr_frames;
	uptr frames[];
};

static u8 pool[POOL_BYTES] __aligned(8);
static size_t pool_used;
static struct stack_record *buckets[HASH_BUCKETS];
static DEFINE_SPINLOCK(depot_lock);

static u32 hash_frames(const uptr *frames, unsigned int n)
{
	u32 h = 2166136261u;	/* FNV-1a over the addresses' bytes */
	unsigned int i, b;

	for (i = 0; i < n; i++)
		for (b = 0; b < sizeof(uptr); b++)
			h = (h ^ (u8)(frames[i] >> (8 * b))) * 16777619u;
	return h;
}

/* The id is the record's offset in the pool, plus one so 0 means none. */
static u32 id_of(const struct stack_record *r)
{
	return (u32)((const u8 *)r - pool) + 1;
}

static struct stack_record *find(struct stack_record *r, u32 hash,
				 const uptr *frames, unsigned int n)
{
	/* Acquire pairs with the store-release in stack_depot_save_here():
	 * a record reached through the chain is seen whole. */
	for (; r; r = smp_load_acquire(&r->next))
		if (r->hash == hash && r->nr_frames == n &&
		    !memcmp(r->frames, frames, n * sizeof(uptr)))
			return r;
	return NULL;
}

u32 stack_depot_save_here(unsigned int skip)
{
	uptr frames[STACK_DEPOT_MAX_FRAMES];
	unsigned int n = arch_save_stack_trace(frames, STACK_DEPOT_MAX_FRAMES,
					       skip + 1);
	u32 hash = hash_frames(frames, n);
	struct stack_record **bucket = &buckets[hash % HASH_BUCKETS];
	struct stack_record *r = find(smp_load_acquire(bucket), hash, frames,
				      n);
	size_t bytes = offsetof(struct stack_record, frames[n]);
	unsigned long flags;

	if (r)
		return id_of(r);
	flags = spin_lock_irqsave(&depot_lock);
	/* Another CPU may have stored it meanwhile. */
	r = find(*bucket, hash, frames, n);
	if (!r && pool_used + bytes <= POOL_BYTES) {
		r = (struct stack_record *)&pool[pool_used];
		pool_used += bytes;
		r->next = *bucket;
		r->hash = hash;
		r->nr_frames = n;
		memcpy(r->frames, frames, n * sizeof(uptr));
		/* Release pairs with find()'s acquire: the record's fields
		 * are written before it can be found. */
		smp_store_release(bucket, r);
	}
	spin_unlock_irqrestore(&depot_lock, flags);
	return r ? id_of(r) : 0;
}

void stack_depot_print(u32 id)
{
	const struct stack_record *r;
	unsigned int i;

	if (!id || id > POOL_BYTES) {
		pr_emerg(" (not recorded)\n");
		return;
	}
	/* An id was handed out after its record's release store (in
	 * stack_depot_save_here()), and reached us through an object's
	 * metadata, written after that: the record is whole. */
	r = (const struct stack_record *)&pool[id - 1];
	for (i = 0; i < r->nr_frames; i++)
		arch_print_code_address(r->frames[i]);
}
