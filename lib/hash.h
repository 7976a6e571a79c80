/*
 * Hashing for hash tables: a name's hash (FNV-1a, which is short and mixes
 * every byte) and a final mix that folds a pointer in, so the same name
 * under different parents lands in different buckets.
 */
#ifndef LIB_HASH_H
#define LIB_HASH_H

#include "types.h"

#define FNV32_OFFSET	2166136261u
#define FNV32_PRIME	16777619u

static inline u32 hash_name(const char *name, size_t len)
{
	u32 h = FNV32_OFFSET;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (u8)name[i];
		h *= FNV32_PRIME;
	}
	return h;
}

/* Fold a pointer into a 32-bit hash; the multiply by a 64-bit odd
 * constant (from the golden ratio) spreads every input bit into the
 * high bits, which are the ones returned. */
static inline u32 hash_mix_ptr(u32 hash, const void *ptr)
{
	u64 x = ((u64)(uptr)ptr ^ ((u64)hash << 32 | hash)) *
		0x9e3779b97f4a7c15ull;

	return (u32)(x >> 32);
}

#endif
