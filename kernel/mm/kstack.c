/*
 * Kernel stack slots. Slot i covers [ARCH_KSTACK_BASE + i * SLOT_SIZE,
 * + SLOT_SIZE): the top KSTACK_SIZE bytes are mapped, the rest is the
 * guard. Freeing unmaps the pages on this CPU only; other CPUs may still
 * cache the translation, so a freed slot and its pages wait on a pending
 * list until kstack_purge() has flushed every CPU's TLB. Only then are the
 * pages returned and the slot reused.
 */
#include "kstack.h"
#include "page_alloc.h"
#include "kasan.h"
#include "arch.h"
#include "kernel/printk.h"
#include "kernel/sched/smp_call.h"
#include "kernel/sched/spinlock.h"

#define SLOT_SIZE	(64 * 1024)
#define MAX_SLOTS	8192
#define STACK_PAGES	(KSTACK_SIZE / PAGE_SIZE)
#define PURGE_BATCH	32

enum slot_state { SLOT_UNUSED, SLOT_LIVE, SLOT_PENDING };

struct slot {
	u8 state;
	const char *owner;
	u64 pages[STACK_PAGES];	/* physical pages, until purged */
};

static struct slot slots[MAX_SLOTS];
static unsigned int live, pending;
static DEFINE_SPINLOCK(slot_lock);

static uptr slot_base(unsigned int slot)
{
	return ARCH_KSTACK_BASE + (uptr)slot * SLOT_SIZE;
}

static uptr slot_stack_base(unsigned int slot)
{
	return slot_base(slot) + SLOT_SIZE - KSTACK_SIZE;
}

/* The lowest unused slot: the region stays as compact as the threads
 * alive, and so do the page tables and KASAN shadow behind it, which
 * are never given back. */
static int claim_slot(const char *owner)
{
	unsigned int i;

	for (i = 0; i < MAX_SLOTS; i++) {
		if (slots[i].state == SLOT_UNUSED) {
			slots[i].state = SLOT_LIVE;
			slots[i].owner = owner;
			live++;
			return i;
		}
	}
	return -1;
}

static void release_slot(unsigned int slot)
{
	unsigned long flags = spin_lock_irqsave(&slot_lock);

	slots[slot].state = SLOT_UNUSED;
	live--;
	spin_unlock_irqrestore(&slot_lock, flags);
}

int kstack_alloc(struct kstack *stack, const char *owner)
{
	unsigned long flags = spin_lock_irqsave(&slot_lock);
	int slot = claim_slot(owner);
	unsigned int i;

	spin_unlock_irqrestore(&slot_lock, flags);
	if (slot < 0)
		return -1;
	for (i = 0; i < STACK_PAGES; i++) {
		u64 phys = page_alloc_phys(0);

		slots[slot].pages[i] = phys;
		if (!phys || arch_map_page(slot_stack_base(slot) +
					   i * PAGE_SIZE, phys) < 0)
			goto fail;
	}
	/* A reused slot's shadow still holds its last thread's frames. */
	if (kasan_stack_prepare(slot_stack_base(slot), KSTACK_SIZE) < 0) {
		i = STACK_PAGES - 1;	/* every page to give back */
		goto fail;
	}
	stack->slot = slot;
	stack->base = slot_stack_base(slot);
	stack->top = slot_base(slot) + SLOT_SIZE;
	return 0;
fail:
	do {
		arch_unmap_page(slot_stack_base(slot) + i * PAGE_SIZE);
		if (slots[slot].pages[i])
			free_pages(phys_to_virt(slots[slot].pages[i]));
	} while (i-- > 0);
	release_slot(slot);
	return -1;
}

void kstack_free(struct kstack *stack)
{
	unsigned int i;
	unsigned long flags;
	bool purge;

	for (i = 0; i < STACK_PAGES; i++)
		arch_unmap_page(stack->base + i * PAGE_SIZE);
	flags = spin_lock_irqsave(&slot_lock);
	slots[stack->slot].state = SLOT_PENDING;
	live--;
	pending++;
	purge = pending >= PURGE_BATCH;
	spin_unlock_irqrestore(&slot_lock, flags);
	if (purge)
		kstack_purge();
}

void kstack_set_owner(const struct kstack *stack, const char *owner)
{
	WRITE_ONCE(slots[stack->slot].owner, owner);
}

static void flush_local(void *unused)
{
	(void)unused;
	arch_flush_tlb_local();
}

void kstack_purge(void)
{
	unsigned long flags;
	unsigned int s, i;

	/* Every CPU flushes before any page of a pending slot is reused. */
	smp_call_function_all(flush_local, NULL);
	flags = spin_lock_irqsave(&slot_lock);
	for (s = 0; s < MAX_SLOTS && pending; s++) {
		if (slots[s].state != SLOT_PENDING)
			continue;
		for (i = 0; i < STACK_PAGES; i++)
			free_pages(phys_to_virt(slots[s].pages[i]));
		slots[s].state = SLOT_UNUSED;
		pending--;
	}
	spin_unlock_irqrestore(&slot_lock, flags);
}

const char *kstack_guard_owner(uptr addr)
{
	unsigned int slot;

	if (addr < ARCH_KSTACK_BASE ||
	    addr >= ARCH_KSTACK_BASE + (uptr)MAX_SLOTS * SLOT_SIZE)
		return NULL;
	slot = (addr - ARCH_KSTACK_BASE) / SLOT_SIZE;
	if (addr >= slot_stack_base(slot) || slots[slot].state != SLOT_LIVE)
		return NULL;
	return slots[slot].owner ? slots[slot].owner : "?";
}

bool kstack_bounds(uptr addr, uptr *lo, uptr *hi)
{
	unsigned int slot;

	if (addr < ARCH_KSTACK_BASE ||
	    addr >= ARCH_KSTACK_BASE + (uptr)MAX_SLOTS * SLOT_SIZE)
		return false;
	slot = (addr - ARCH_KSTACK_BASE) / SLOT_SIZE;
	/* READ_ONCE: the slot table changes under slot_lock, which an NMI
	 * cannot take; a live slot's pages stay mapped until it is freed. */
	if (addr < slot_stack_base(slot) ||
	    READ_ONCE(slots[slot].state) != SLOT_LIVE)
		return false;
	*lo = slot_stack_base(slot);
	*hi = ARCH_KSTACK_BASE + (uptr)(slot + 1) * SLOT_SIZE;
	return true;
}

void kstack_counts(unsigned int *live_out, unsigned int *pending_out)
{
	*live_out = READ_ONCE(live);
	*pending_out = READ_ONCE(pending);
}
