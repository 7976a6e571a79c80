/*
 * lib/hash.h: FNV-1a against its published test vectors, and an even
 * spread of dentry-like keys (short names under a few parents) over a
 * power-of-two table, which is what the dcache relies on.
 */
#include "check.h"
#include "lib/hash.h"
#include "lib/format.h"

static void test_fnv_vectors(void)
{
	CHECK_EQ_U64(hash_name("", 0), 0x811c9dc5u);
	CHECK_EQ_U64(hash_name("a", 1), 0xe40c292cu);
	CHECK_EQ_U64(hash_name("foobar", 6), 0xbf9cf968u);
}

/* 64 000 names under 16 parents into 4096 buckets: no bucket may hold
 * more than four times its fair share, and few may stay empty. */
static void test_spread(void)
{
	static unsigned int buckets[4096];
	static char parents[16][64];
	unsigned int p, i, worst = 0, empty = 0;
	char name[32];

	for (p = 0; p < 16; p++) {
		for (i = 0; i < 4000; i++) {
			int len = ksnprintf(name, sizeof(name), "f%u", i);
			u32 h = hash_mix_ptr(hash_name(name, len), parents[p]);

			buckets[h & 4095]++;
		}
	}
	for (i = 0; i < 4096; i++) {
		if (buckets[i] > worst)
			worst = buckets[i];
		empty += buckets[i] == 0;
	}
	CHECK(worst <= 4 * 64000 / 4096);
	CHECK(empty < 4096 / 100);
}

/* The same name under two parents must rarely share a bucket. */
static void test_parent_separates(void)
{
	static char a[64], b[64];
	unsigned int i, same = 0;
	char name[32];

	for (i = 0; i < 10000; i++) {
		int len = ksnprintf(name, sizeof(name), "n%u", i);
		u32 h = hash_name(name, len);

		same += (hash_mix_ptr(h, a) & 4095) == (hash_mix_ptr(h, b) & 4095);
	}
	CHECK(same < 20);
}

int main(void)
{
	test_fnv_vectors();
	test_spread();
	test_parent_separates();
	return check_summary();
}
