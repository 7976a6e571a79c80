/* What the KASAN runtime's files share (kasan.c, kasan_report.c,
 * kasan_quarantine.c); the rest of the kernel sees kasan.h. */
#ifndef KERNEL_MM_KASAN_INTERNAL_H
#define KERNEL_MM_KASAN_INTERNAL_H

#include "kasan.h"
#include "arch.h"

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

void kasan_quarantine_put(struct kasan_meta *meta, size_t slot_size);
size_t kasan_quarantine_limit(void);

#endif
