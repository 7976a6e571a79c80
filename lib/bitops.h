/*
 * Bit arithmetic on u64 and a plain (non-atomic) bitmap of u64 words.
 * Bit numbers start at 0; ffs64/fls64 return 1-based positions so that 0
 * can mean "no bit set", as Linux's ffs/fls do.
 */
#ifndef LIB_BITOPS_H
#define LIB_BITOPS_H

#include "compiler.h"

#define BITS_PER_U64		64
#define BITS_TO_U64S(bits)	DIV_ROUND_UP(bits, BITS_PER_U64)

/* 1 + the index of the lowest set bit, or 0 when x is 0. */
static inline unsigned int ffs64(u64 x)
{
	return x ? (unsigned int)__builtin_ctzll(x) + 1 : 0;
}

/* 1 + the index of the highest set bit, or 0 when x is 0. */
static inline unsigned int fls64(u64 x)
{
	return x ? BITS_PER_U64 - (unsigned int)__builtin_clzll(x) : 0;
}

/* A loop rather than __builtin_popcountll, which without -mpopcnt becomes
 * a call into libgcc, and the kernel does not link libgcc. */
static inline unsigned int popcount64(u64 x)
{
	unsigned int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

static inline bool is_power_of_2(u64 x)
{
	return x && !(x & (x - 1));
}

/* floor(log2(x)); -1 for x == 0. */
static inline int ilog2(u64 x)
{
	return (int)fls64(x) - 1;
}

/* The smallest power of two >= x (1 for 0), or 0 if that exceeds 2^63. */
static inline u64 roundup_pow_of_two(u64 x)
{
	if (x <= 1)
		return 1;
	if (x > (1ULL << 63))
		return 0;
	return 1ULL << fls64(x - 1);
}

#define DECLARE_BITMAP(name, bits)	u64 name[BITS_TO_U64S(bits)]

static inline void bitmap_set_bit(u64 *map, size_t bit)
{
	map[bit / BITS_PER_U64] |= 1ULL << (bit % BITS_PER_U64);
}

static inline void bitmap_clear_bit(u64 *map, size_t bit)
{
	map[bit / BITS_PER_U64] &= ~(1ULL << (bit % BITS_PER_U64));
}

static inline bool bitmap_test_bit(const u64 *map, size_t bit)
{
	return (map[bit / BITS_PER_U64] >> (bit % BITS_PER_U64)) & 1;
}

static inline void bitmap_zero(u64 *map, size_t nbits)
{
	size_t i;

	for (i = 0; i < BITS_TO_U64S(nbits); i++)
		map[i] = 0;
}

/* The first set bit at or after start, or nbits if there is none. */
static inline size_t bitmap_find_next_set(const u64 *map, size_t nbits,
					  size_t start)
{
	size_t i;
	u64 word;

	if (start >= nbits)
		return nbits;
	i = start / BITS_PER_U64;
	word = map[i] & (~0ULL << (start % BITS_PER_U64));
	for (;;) {
		if (word) {
			size_t bit = i * BITS_PER_U64 + ffs64(word) - 1;

			return bit < nbits ? bit : nbits;
		}
		if (++i >= BITS_TO_U64S(nbits))
			return nbits;
		word = map[i];
	}
}

/* The number of set bits among the first nbits. */
static inline size_t bitmap_weight(const u64 *map, size_t nbits)
{
	size_t full = nbits / BITS_PER_U64;
	size_t rest = nbits % BITS_PER_U64;
	size_t i, n = 0;

	for (i = 0; i < full; i++)
		n += popcount64(map[i]);
	if (rest)
		n += popcount64(map[full] & ((1ULL << rest) - 1));
	return n;
}

/* lib/bitmap.c: the set bits as "3,5-9,64", cut with "..." to fit len. */
size_t bitmap_format_ranges(char *buf, size_t len, const u64 *map,
			    size_t nbits);

#endif
