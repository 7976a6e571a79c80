/*
 * lib/random.c: splitmix64's published first outputs, determinism, and
 * prng_below's range and rough uniformity.
 */
#include "check.h"
#include "lib/random.h"

static void test_reference(void)
{
	struct prng p;

	/* splitmix64 seeded with 0, as in the reference implementation. */
	prng_seed(&p, 0);
	CHECK_EQ_U64(prng_next(&p), 0xe220a8397b1dcdafULL);
	CHECK_EQ_U64(prng_next(&p), 0x6e789e6aa1b965f4ULL);
	CHECK_EQ_U64(prng_next(&p), 0x06c45d188009454fULL);
}

static void test_determinism(void)
{
	struct prng a, b, c;
	int i, differ = 0;

	prng_seed(&a, 12345);
	prng_seed(&b, 12345);
	prng_seed(&c, 12346);
	for (i = 0; i < 1000; i++) {
		u64 x = prng_next(&a);

		CHECK_EQ_U64(prng_next(&b), x);
		differ += prng_next(&c) != x;
	}
	CHECK(differ > 990);
}

static void test_below(void)
{
	static const u64 bounds[] = { 1, 2, 3, 7, 10, 1000, 1ULL << 32,
				      (1ULL << 63) + 1, UINT64_MAX };
	unsigned int counts[10] = { 0 };
	struct prng p;
	size_t i;
	int j, low = 0;

	prng_seed(&p, 42);
	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
		for (j = 0; j < 2000; j++)
			CHECK(prng_below(&p, bounds[i]) < bounds[i]);
	for (j = 0; j < 1000; j++)
		CHECK_EQ_U64(prng_below(&p, 1), 0);

	/* 100000 draws in 10 bins: each within 5% of 10000 (> 10 sigma). */
	for (j = 0; j < 100000; j++)
		counts[prng_below(&p, 10)]++;
	for (i = 0; i < 10; i++)
		CHECK(counts[i] > 9500 && counts[i] < 10500);

	/*
	 * Bound 3 * 2^62: a third of the draws should land below 2^62. With
	 * plain `next % bound` it would be half, as the top quarter of the
	 * u64 range wraps onto the bottom of [0, bound).
	 */
	for (j = 0; j < 3000; j++)
		low += prng_below(&p, 3ULL << 62) < 1ULL << 62;
	CHECK(low > 900 && low < 1100);
}

int main(void)
{
	test_reference();
	test_determinism();
	test_below();
	return check_summary();
}
