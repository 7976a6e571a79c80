/*
 * Loads from byte offsets that may not be aligned (ACPI tables pack their
 * fields). A plain cast and dereference would be undefined behaviour,
 * which the debug build's sanitizer reports; memcpy says what is meant,
 * and GCC turns it into one load on x86.
 */
#ifndef LIB_UNALIGNED_H
#define LIB_UNALIGNED_H

#include "types.h"

static inline u16 get_unaligned_u16(const void *p)
{
	u16 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline u32 get_unaligned_u32(const void *p)
{
	u32 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline u64 get_unaligned_u64(const void *p)
{
	u64 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

#endif
