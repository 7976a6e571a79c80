/*
 * Heapsort: O(n log n) in the worst case, in place and iterative, so it
 * is safe on a small kernel stack whatever the input order.
 */
#include "sort.h"

static void swap_u64(u64 *a, u64 *b)
{
	u64 t = *a;

	*a = *b;
	*b = t;
}

/* Move a[root] down until the max-heap a[0..n) holds again below it. */
static void sift_down(u64 *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			return;
		if (child + 1 < n && a[child + 1] > a[child])
			child++;
		if (a[root] >= a[child])
			return;
		swap_u64(&a[root], &a[child]);
		root = child;
	}
}

void sort_u64(u64 *a, size_t n)
{
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i > 0; i--)
		sift_down(a, i - 1, n);
	for (i = n - 1; i > 0; i--) {
		swap_u64(&a[0], &a[i]);
		sift_down(a, 0, i);
	}
}

u64 percentile_u64(const u64 *sorted, size_t n, unsigned int pct)
{
	size_t rank;

	if (pct > 100)
		pct = 100;
	/* rank = ceil(pct / 100 * n), at least 1 */
	rank = ((size_t)pct * n + 99) / 100;
	if (rank == 0)
		rank = 1;
	return sorted[rank - 1];
}
