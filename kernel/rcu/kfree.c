/*
 * kfree_rcu() in batches, as Linux's kvfree_rcu() does: each CPU gathers
 * the pointers in a block of about a page, and one callback frees a
 * whole block after a grace period, instead of one callback per object.
 * A block is queued with call_rcu() when it fills, and by the tick while
 * it holds anything, so no pointer waits more than a tick to be queued;
 * rcu_barrier() and a CPU going offline queue it too. Without memory for
 * a block, kfree_rcu() falls back to the object's own rcu_head, and
 * kfree_rcu_mightsleep(), which has none, to synchronize_rcu().
 *
 * The open block is its CPU's own, touched with interrupts off. The
 * caller's unpublishing store comes before its kfree_rcu() on this CPU,
 * so before the call_rcu() that queues the block, which orders it for
 * either engine (see call_rcu_arg()).
 */
#include "engine.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/race.h"
#include "kernel/percpu.h"

#define KFREE_BLOCK_PTRS	500	/* a block fits a 4 KiB kmalloc (two
					 * pages under KASAN's redzone) */

struct kfree_block {
	struct rcu_head rcu;
	unsigned int n;
	void *ptrs[KFREE_BLOCK_PTRS];
};

static DEFINE_PERCPU_ARRAY(struct kfree_block *, open_block);
u64 rcu_kfree_blocks;		/* blocks queued; statistics */

static void free_block(struct rcu_head *head)
{
	struct kfree_block *b = container_of(head, struct kfree_block, rcu);
	unsigned int i;

	for (i = 0; i < b->n; i++)
		kfree(b->ptrs[i]);
	kfree(b);
}

/* Queue this CPU's open block, if any. Interrupts off. */
static void queue_open_block(unsigned int cpu)
{
	struct kfree_block *b = open_block[cpu];

	if (!b)
		return;
	/* Interrupts are off: no tick may take the same block here. */
	race_window(RACE_KFREE_FLUSH);
	open_block[cpu] = NULL;
	atomic_add_relaxed(&rcu_kfree_blocks, 1);
	call_rcu(&b->rcu, free_block);
}

/* Add ptr to this CPU's block; false if there is no memory for one. */
static bool add_to_block(void *ptr)
{
	unsigned long flags = arch_irq_save();
	unsigned int cpu = this_cpu_id();
	struct kfree_block *b = open_block[cpu];

	if (!b) {
		b = kmalloc(sizeof(*b));
		if (!b) {
			arch_irq_restore(flags);
			return false;
		}
		b->n = 0;
		open_block[cpu] = b;
	}
	b->ptrs[b->n++] = ptr;
	if (b->n == KFREE_BLOCK_PTRS)
		queue_open_block(cpu);
	arch_irq_restore(flags);
	return true;
}

void kfree_rcu_head(void *ptr, struct rcu_head *head)
{
	rcu_kasan_record(ptr, KASAN_AUX_KFREE_RCU);
	if (ptr && !add_to_block(ptr))
		call_rcu(head, kfree_rcu_callback, ptr);
}

void kfree_rcu_mightsleep(void *ptr)
{
	rcu_kasan_record(ptr, KASAN_AUX_KFREE_RCU);
	if (ptr && !add_to_block(ptr)) {
		synchronize_rcu();
		kfree(ptr);
	}
}

/* Whether this CPU's open block holds anything: its tick must come round
 * to queue it (rcu_tree_needs_cpu()). Interrupts off. */
bool rcu_kfree_pending_here(void)
{
	return open_block[this_cpu_id()] != NULL;
}

/* From the tick, from rcu_barrier() on each CPU, and from a CPU going
 * offline, on the CPU itself. rcu_barrier() calls it on its own CPU with
 * interrupts on: a tick between taking the block and clearing the slot
 * would queue the block too, and the debug build caught that double
 * call_rcu() in make test. Hence the interrupts off here. */
void rcu_kfree_flush_here(void)
{
	unsigned long flags = arch_irq_save();

	queue_open_block(this_cpu_id());
	arch_irq_restore(flags);
}
