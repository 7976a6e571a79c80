/* What the KASAN runtime's files share (kasan.c, kasan_report.c,
 * kasan_quarantine.c); the rest of the kernel sees kasan.h. */
#ifndef KERNEL_MM_KASAN_INTERNAL_H
#define KERNEL_MM_KASAN_INTERNAL_H

#include "kasan.h"
#include "arch.h"

/* Shadow codes, Linux's values, so a report reads the same. */
#define KASAN_PAGE_FREE		0xff	/* a free page */
#define KASAN_PAGE_REDZONE	0xfe	/* past a large kmalloc's end */
#define KASAN_SLAB_REDZONE	0xfc	/* past a kmalloc object, or never
					 * allocated */
#define KASAN_SLAB_FREE		0xfb	/* a freed kmalloc object */
#define KASAN_GLOBAL_REDZONE	0xf9
#define KASAN_STACK_LEFT	0xf1	/* the compiler's stack codes */
#define KASAN_STACK_MID		0xf2
#define KASAN_STACK_RIGHT	0xf3
#define KASAN_USE_AFTER_SCOPE	0xf8
#define KASAN_ALLOCA_LEFT	0xca
#define KASAN_ALLOCA_RIGHT	0xcb

#define KASAN_GRANULE		8

/* Who did something to an object: a stack from the stack depot, the
 * thread and the CPU. */
struct kasan_track {
	u32 stack;		/* stack_depot id, 0 if none */
	u32 thread_id;
	u16 cpu;
	u16 kind;		/* 0: nothing recorded; for aux, the
				 * enum kasan_aux_kind */
};

/* At the end of every kmalloc slot (or large allocation), inside its
 * redzone: only the runtime, which is not instrumented, touches it. */
struct kasan_meta {
	u32 size;		/* what the caller asked for */
	u32 slot_size;		/* the slot, or the large block, it is in */
	u32 state;		/* KASAN_OBJECT_*, changed by cmpxchg */
	struct kasan_track alloc, free, aux;
	u32 aux_gp;		/* the grace period the RCU free waits for */
	struct kasan_meta *quarantine_next;
};

/* meta->state; a slot never allocated holds whatever its page held. */
#define KASAN_OBJECT_LIVE		0x4c495645
#define KASAN_OBJECT_QUARANTINED	0x51554152
#define KASAN_OBJECT_FREED		0x46524545

/* Poison or unpoison [addr, addr + size), granule-aligned addr. */
void kasan_poison(const void *addr, size_t size, u8 code);
void kasan_unpoison(const void *addr, size_t size);
/* Whether checks are on: after kasan_init(), outside a report. */
bool kasan_checking(void);

/* The metadata of the object in the slot that starts at obj. */
static inline struct kasan_meta *kasan_meta_of(void *obj, size_t slot_size)
{
	return (struct kasan_meta *)((u8 *)obj + slot_size) - 1;
}

static inline s8 kasan_shadow_byte(uptr addr)
{
	return *(const s8 *)arch_kasan_shadow_of(addr);
}

/* Whether addr has shadow of its own: the kernel half, less the shadow
 * itself. NULL and other low addresses are left to fault. */
static inline bool kasan_checked_address(uptr addr)
{
	return (addr >= ARCH_DIRECT_MAP_BASE &&
		addr < ARCH_KASAN_SHADOW_START) ||
	       addr >= ARCH_KASAN_SHADOW_END;
}

void kasan_track_save(struct kasan_track *track);

/* A bad access at addr, or a bad kfree() of obj ("double-free" or
 * "invalid-free"), from the code at ip. */
void kasan_report_access(uptr addr, size_t size, bool write, uptr ip);
void kasan_report_bad_free(const void *obj, const char *kind, uptr ip);
/* While this CPU reports, it checks nothing: the report's own printing
 * runs instrumented code. */
bool kasan_report_running_here(void);

void kasan_quarantine_put(struct kasan_meta *meta);
size_t kasan_quarantine_limit(void);

#endif
