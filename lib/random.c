/*
 * splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", 2014): a Weyl sequence scrambled by two multiply-xorshift
 * rounds. Any seed, including 0, gives a full-period sequence.
 */
#include "random.h"

void prng_seed(struct prng *p, u64 seed)
{
	p->s = seed;
}

u64 prng_next(struct prng *p)
{
	u64 z;

	p->s += 0x9e3779b97f4a7c15ULL;
	z = p->s;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Plain `next % bound` favours small results when bound does not divide
 * 2^64. Rejecting the lowest (2^64 mod bound) values leaves a range that
 * is a whole multiple of bound; fewer than half of all draws are rejected.
 */
u64 prng_below(struct prng *p, u64 bound)
{
	u64 threshold = (0 - bound) % bound;
	u64 r;

	do {
		r = prng_next(p);
	} while (r < threshold);
	return r % bound;
}
