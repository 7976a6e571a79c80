/* Bitmaps printed for people: runs of set bits as ranges. */
#include "bitops.h"
#include "format.h"

/*
 * "3,5-9,64" for bits 3, 5 to 9 and 64 of map: the compact form a report
 * about many CPUs needs, where a list of every CPU would not fit a
 * console line. Writes at most len bytes, NUL-terminated when len > 0;
 * a list too long ends in "..." within len (if len allows it), so a cut
 * is never mistaken for the end. Returns the length written.
 */
size_t bitmap_format_ranges(char *buf, size_t len, const u64 *map,
			    size_t nbits)
{
	size_t n = 0, start = bitmap_find_next_set(map, nbits, 0);

	if (len)
		buf[0] = '\0';
	while (start < nbits) {
		size_t end = start, need;
		char run[48];

		while (end + 1 < nbits && bitmap_test_bit(map, end + 1))
			end++;
		need = (size_t)(end > start ?
			ksnprintf(run, sizeof(run), "%s%zu-%zu", n ? "," : "",
				  start, end) :
			ksnprintf(run, sizeof(run), "%s%zu", n ? "," : "",
				  start));
		if (n + need + 4 > len) {
			/* No room for this run and a later "...": cut here. */
			if (len >= 4)
				n += (size_t)ksnprintf(buf + n, len - n, "...");
			return n < len ? n : (len ? len - 1 : 0);
		}
		n += (size_t)ksnprintf(buf + n, len - n, "%s", run);
		start = bitmap_find_next_set(map, nbits, end + 1);
	}
	return n;
}
