/*
 * lib/sort.c: sort_u64 against qsort on random, sorted, reversed and
 * constant inputs of many sizes; percentile_u64 by nearest rank.
 */
#include <stdlib.h>
#include "check.h"
#include "lib/random.h"
#include "lib/sort.h"

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

static void check_sorts(u64 *a, size_t n)
{
	u64 *ref = malloc((n ? n : 1) * sizeof(*ref));

	memcpy(ref, a, n * sizeof(*ref));
	qsort(ref, n, sizeof(*ref), cmp_u64);
	sort_u64(a, n);
	CHECK(memcmp(a, ref, n * sizeof(*ref)) == 0);
	free(ref);
}

static void test_sort(void)
{
	u64 a[600];
	struct prng rng;
	size_t n, i;
	int shape;

	prng_seed(&rng, 5);
	for (n = 0; n <= 600; n += n < 40 ? 1 : 37) {
		for (shape = 0; shape < 5; shape++) {
			for (i = 0; i < n; i++) {
				switch (shape) {
				case 0:
					a[i] = prng_next(&rng);
					break;
				case 1:
					a[i] = prng_below(&rng, 4);
					break;
				case 2:
					a[i] = i;
					break;
				case 3:
					a[i] = n - i;
					break;
				default:
					a[i] = 7;
				}
			}
			check_sorts(a, n);
		}
	}
	a[0] = UINT64_MAX;
	a[1] = 0;
	a[2] = UINT64_MAX - 1;
	sort_u64(a, 3);
	CHECK_EQ_U64(a[0], 0);
	CHECK_EQ_U64(a[2], UINT64_MAX);
}

static void test_percentile(void)
{
	u64 one[] = { 42 };
	u64 ten[10];
	u64 hundred[100];
	size_t i;

	for (i = 0; i < 10; i++)
		ten[i] = (i + 1) * 10;
	for (i = 0; i < 100; i++)
		hundred[i] = i + 1;

	CHECK_EQ_U64(percentile_u64(one, 1, 0), 42);
	CHECK_EQ_U64(percentile_u64(one, 1, 50), 42);
	CHECK_EQ_U64(percentile_u64(one, 1, 100), 42);

	CHECK_EQ_U64(percentile_u64(ten, 10, 0), 10);
	CHECK_EQ_U64(percentile_u64(ten, 10, 10), 10);
	CHECK_EQ_U64(percentile_u64(ten, 10, 11), 20);
	CHECK_EQ_U64(percentile_u64(ten, 10, 50), 50);
	CHECK_EQ_U64(percentile_u64(ten, 10, 51), 60);
	CHECK_EQ_U64(percentile_u64(ten, 10, 99), 100);
	CHECK_EQ_U64(percentile_u64(ten, 10, 100), 100);
	CHECK_EQ_U64(percentile_u64(ten, 10, 250), 100);

	for (i = 1; i <= 100; i++)
		CHECK_EQ_U64(percentile_u64(hundred, 100, (unsigned int)i), i);
	/* The median of an even count is the lower middle value. */
	CHECK_EQ_U64(percentile_u64(hundred, 4, 50), 2);
	CHECK_EQ_U64(percentile_u64(hundred, 5, 50), 3);
}

int main(void)
{
	test_sort();
	test_percentile();
	return check_summary();
}
