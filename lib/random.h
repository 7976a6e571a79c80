/*
 * A small seeded pseudo-random generator (splitmix64) for tests and
 * torture runs: the same seed always gives the same sequence, so a failing
 * run can be repeated. Not for anything that needs unpredictability.
 */
#ifndef LIB_RANDOM_H
#define LIB_RANDOM_H

#include "types.h"

struct prng {
	u64 s;
};

void prng_seed(struct prng *p, u64 seed);
u64 prng_next(struct prng *p);
/* Uniform in [0, bound); bound must not be 0. */
u64 prng_below(struct prng *p, u64 bound);

#endif
