/* Sets of CPUs, as bitmaps of MAX_CPUS bits. */
#ifndef KERNEL_CPUMASK_H
#define KERNEL_CPUMASK_H

#include "percpu.h"
#include "lib/bitops.h"

struct cpumask {
	DECLARE_BITMAP(bits, MAX_CPUS);
};

static inline void cpumask_clear(struct cpumask *m)
{
	bitmap_zero(m->bits, MAX_CPUS);
}

static inline void cpumask_set(struct cpumask *m, unsigned int cpu)
{
	bitmap_set_bit(m->bits, cpu);
}

static inline bool cpumask_test(const struct cpumask *m, unsigned int cpu)
{
	return bitmap_test_bit(m->bits, cpu);
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	return (unsigned int)bitmap_weight(m->bits, MAX_CPUS);
}

/* Whole words first: thread_create() fills a mask for every thread, and
 * at MAX_CPUS 4096 a bit at a time is 4096 stores. */
static inline void cpumask_fill(struct cpumask *m)
{
	unsigned int c;

	cpumask_clear(m);
	for (c = 0; c + BITS_PER_U64 <= MAX_CPUS; c += BITS_PER_U64)
		m->bits[c / BITS_PER_U64] = ~0ull;
	for (; c < MAX_CPUS; c++)
		cpumask_set(m, c);
}

static inline struct cpumask cpumask_of(unsigned int cpu)
{
	struct cpumask m;

	cpumask_clear(&m);
	cpumask_set(&m, cpu);
	return m;
}

#endif
