/*
 * Kernel stacks with guard pages. Each stack sits in its own slot of the
 * kernel-stack region; the pages below the stack are never mapped, so an
 * overflow faults there and the fault handler can name the stack's owner.
 */
#ifndef KERNEL_KSTACK_H
#define KERNEL_KSTACK_H

#include "lib/types.h"

#define KSTACK_SIZE	(16 * 1024)

struct kstack {
	uptr base;	/* lowest mapped address */
	uptr top;	/* initial stack pointer */
	unsigned int slot;
};

/* Map a new stack; owner names it in overflow reports (not copied). */
int kstack_alloc(struct kstack *stack, const char *owner);
void kstack_free(struct kstack *stack);
void kstack_set_owner(const struct kstack *stack, const char *owner);
/* Unmap freed stacks everywhere and give their pages back. */
void kstack_purge(void);
/* The owner of the stack whose guard holds addr, or NULL. */
const char *kstack_guard_owner(uptr addr);
/* If addr is on a live stack, its mapped range [*lo, *hi): for a
 * backtrace, which must never read outside it. Lock-free, so callable
 * from an NMI; a stack freed meanwhile is not the interrupted one's. */
bool kstack_bounds(uptr addr, uptr *lo, uptr *hi);
/* Stacks allocated and not yet freed, and freed ones awaiting purge. */
void kstack_counts(unsigned int *live, unsigned int *pending);

#endif
