/*
 * The log ring. Lines are found by their '\0' terminators, so pushing and
 * dropping are byte loops and every position in [tail, head) that follows
 * a '\0' (or is tail) starts a line.
 */
#include "ringbuf.h"

static char ring_byte(const struct line_ring *ring, size_t pos)
{
	return ring->buf[pos % ring->size];
}

void line_ring_init(struct line_ring *ring, char *storage, size_t size)
{
	ring->buf = storage;
	ring->size = size;
	ring->head = 0;
	ring->tail = 0;
}

/* Advance tail past the oldest line. */
static void drop_oldest(struct line_ring *ring)
{
	while (ring_byte(ring, ring->tail) != '\0')
		ring->tail++;
	ring->tail++;
}

void line_ring_push(struct line_ring *ring, const char *line, size_t len)
{
	size_t n = 0;
	size_t i;

	while (n < len && line[n] != '\0')
		n++;
	if (n == 0)
		return;
	if (n > ring->size - 1)
		n = ring->size - 1;
	while (ring->head - ring->tail + n + 1 > ring->size)
		drop_oldest(ring);
	for (i = 0; i < n; i++)
		ring->buf[(ring->head + i) % ring->size] = line[i];
	ring->buf[(ring->head + n) % ring->size] = '\0';
	ring->head += n + 1;
}

size_t line_ring_read(const struct line_ring *ring, size_t *cursor,
		      char *out, size_t outsz)
{
	size_t pos = *cursor;
	size_t n = 0;
	char c;

	if (outsz < 2)
		return 0;
	if (pos < ring->tail)
		pos = ring->tail;
	if (pos >= ring->head)
		return 0;
	while ((c = ring_byte(ring, pos++)) != '\0')
		if (n < outsz - 1)
			out[n++] = c;
	out[n] = '\0';
	*cursor = pos;
	return n;
}
