/*
 * Sorting and order statistics for benchmark samples.
 */
#ifndef LIB_SORT_H
#define LIB_SORT_H

#include "types.h"

/* Sort ascending, in place, in O(n log n) with no recursion or memory. */
void sort_u64(u64 *a, size_t n);

/*
 * The nearest-rank percentile of n > 0 ascending values: the smallest
 * value with at least pct% of the values <= it (pct 50 is the median,
 * pct 0 the minimum; pct above 100 counts as 100).
 */
u64 percentile_u64(const u64 *sorted, size_t n, unsigned int pct);

#endif
