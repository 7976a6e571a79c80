/*
 * lib/bitops.h: the bit functions against slow reference loops, and the
 * bitmap against a bool array under random set/clear operations.
 */
#include "check.h"
#include "lib/bitops.h"
#include "lib/random.h"

static unsigned int ref_ffs(u64 x)
{
	unsigned int i;

	for (i = 0; i < 64; i++)
		if (x >> i & 1)
			return i + 1;
	return 0;
}

static unsigned int ref_fls(u64 x)
{
	unsigned int n = 0;

	for (; x; x >>= 1)
		n++;
	return n;
}

static unsigned int ref_popcount(u64 x)
{
	unsigned int i, n = 0;

	for (i = 0; i < 64; i++)
		n += x >> i & 1;
	return n;
}

static void check_one(u64 x)
{
	CHECK_EQ_U64(ffs64(x), ref_ffs(x));
	CHECK_EQ_U64(fls64(x), ref_fls(x));
	CHECK_EQ_U64(popcount64(x), ref_popcount(x));
	CHECK(is_power_of_2(x) == (ref_popcount(x) == 1));
	if (x) {
		CHECK_EQ_U64(ilog2(x), ref_fls(x) - 1);
		CHECK(ilog2(x) >= 0);
	}
	if (x && x <= 1ULL << 63) {
		u64 r = roundup_pow_of_two(x);

		CHECK(is_power_of_2(r) && r >= x && r / 2 < x);
	}
}

static void test_bits(void)
{
	struct prng rng;
	unsigned int i, j;

	CHECK_EQ_U64(ffs64(0), 0);
	CHECK_EQ_U64(fls64(0), 0);
	CHECK_EQ_U64(ffs64(1), 1);
	CHECK_EQ_U64(fls64(1), 1);
	CHECK_EQ_U64(ffs64(1ULL << 63), 64);
	CHECK_EQ_U64(fls64(~0ULL), 64);
	CHECK_EQ_U64(popcount64(~0ULL), 64);
	CHECK(ilog2(0) == -1);
	CHECK_EQ_U64(ilog2(4096), 12);
	CHECK_EQ_U64(ilog2(4095), 11);
	CHECK(!is_power_of_2(0));
	CHECK(is_power_of_2(1ULL << 63));
	CHECK_EQ_U64(roundup_pow_of_two(0), 1);
	CHECK_EQ_U64(roundup_pow_of_two(1), 1);
	CHECK_EQ_U64(roundup_pow_of_two(2), 2);
	CHECK_EQ_U64(roundup_pow_of_two(3), 4);
	CHECK_EQ_U64(roundup_pow_of_two(4097), 8192);
	CHECK_EQ_U64(roundup_pow_of_two(1ULL << 63), 1ULL << 63);
	CHECK_EQ_U64(roundup_pow_of_two((1ULL << 63) + 1), 0);

	for (i = 0; i < 64; i++)
		for (j = 0; j < 64; j++)
			check_one((1ULL << i) | (1ULL << j));
	prng_seed(&rng, 7);
	for (i = 0; i < 2000; i++)
		check_one(prng_next(&rng) >> prng_below(&rng, 64));
}

#define NBITS	200

static void test_bitmap(void)
{
	DECLARE_BITMAP(map, NBITS);
	bool ref[NBITS] = { false };
	struct prng rng;
	size_t i, start, want, weight;
	int round;

	CHECK(sizeof(map) == 4 * sizeof(u64));
	for (i = 0; i < 4; i++)
		map[i] = ~0ULL;
	bitmap_zero(map, NBITS);
	for (i = 0; i < 4; i++)
		CHECK_EQ_U64(map[i], 0);
	CHECK_EQ_U64(bitmap_find_next_set(map, NBITS, 0), NBITS);
	CHECK_EQ_U64(bitmap_weight(map, NBITS), 0);

	prng_seed(&rng, 99);
	for (round = 0; round < 3000; round++) {
		size_t bit = prng_below(&rng, NBITS);

		if (prng_below(&rng, 3)) {
			bitmap_set_bit(map, bit);
			ref[bit] = true;
		} else {
			bitmap_clear_bit(map, bit);
			ref[bit] = false;
		}
		if (round % 10)
			continue;
		weight = 0;
		for (i = 0; i < NBITS; i++) {
			CHECK(bitmap_test_bit(map, i) == ref[i]);
			weight += ref[i];
		}
		CHECK_EQ_U64(bitmap_weight(map, NBITS), weight);
		start = prng_below(&rng, NBITS + 2);
		for (want = start; want < NBITS && !ref[want]; want++)
			;
		if (want > NBITS)
			want = NBITS;
		CHECK_EQ_U64(bitmap_find_next_set(map, NBITS, start), want);
	}
}

/* Bits past nbits in the last word are neither found nor counted. */
static void test_bitmap_tail(void)
{
	DECLARE_BITMAP(map, 70);

	bitmap_zero(map, 70);
	map[1] = ~0ULL;
	CHECK_EQ_U64(bitmap_weight(map, 70), 6);
	CHECK_EQ_U64(bitmap_find_next_set(map, 70, 0), 64);
	CHECK_EQ_U64(bitmap_find_next_set(map, 70, 69), 69);
	map[1] = 1ULL << 10;
	CHECK_EQ_U64(bitmap_weight(map, 70), 0);
	CHECK_EQ_U64(bitmap_find_next_set(map, 70, 0), 70);
	CHECK_EQ_U64(bitmap_find_next_set(map, 70, 70), 70);
	CHECK_EQ_U64(bitmap_weight(map, 64), 0);
	bitmap_set_bit(map, 63);
	CHECK_EQ_U64(bitmap_find_next_set(map, 64, 0), 63);
	CHECK_EQ_U64(bitmap_weight(map, 64), 1);
}

/* Runs print as ranges, single bits alone; a list that does not fit is
 * cut at a run with "...", never mid-number, and never overflows. */
static void test_format_ranges(void)
{
	DECLARE_BITMAP(map, 256);
	char buf[64];
	size_t i, n;

	bitmap_zero(map, 256);
	CHECK_EQ_U64(bitmap_format_ranges(buf, sizeof(buf), map, 256), 0);
	CHECK_STR(buf, "");
	bitmap_set_bit(map, 3);
	for (i = 5; i <= 9; i++)
		bitmap_set_bit(map, i);
	bitmap_set_bit(map, 64);
	bitmap_set_bit(map, 255);
	n = bitmap_format_ranges(buf, sizeof(buf), map, 256);
	CHECK_STR(buf, "3,5-9,64,255");
	CHECK_EQ_U64(n, strlen("3,5-9,64,255"));
	/* Every other bit: far too long for 16 bytes. */
	bitmap_zero(map, 256);
	for (i = 0; i < 256; i += 2)
		bitmap_set_bit(map, i);
	n = bitmap_format_ranges(buf, 16, map, 256);
	CHECK_STR(buf, "0,2,4,6,8,10...");
	CHECK_EQ_U64(n, strlen(buf));
	CHECK(bitmap_format_ranges(buf, 0, map, 256) == 0);
}

int main(void)
{
	test_bits();
	test_bitmap();
	test_bitmap_tail();
	test_format_ranges();
	return check_summary();
}
