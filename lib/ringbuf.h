/*
 * A ring of text lines for the kernel log: pushing a line that does not
 * fit drops the oldest whole lines, and readers walk the lines still held
 * with a cursor. No locking inside: the caller serialises every call.
 */
#ifndef LIB_RINGBUF_H
#define LIB_RINGBUF_H

#include "types.h"

/*
 * Each line is stored as its bytes and a '\0'. head and tail count bytes
 * ever pushed (they only grow, and 64 bits never wrap); the byte at
 * position p lives in buf[p % size], and [tail, head) is what is held.
 */
struct line_ring {
	char *buf;
	size_t size;
	size_t head;		/* where the next line goes */
	size_t tail;		/* start of the oldest line held */
};

/* storage (size >= 2 bytes) must outlive the ring. */
void line_ring_init(struct line_ring *ring, char *storage, size_t size);

/*
 * Append a line of len bytes (without a newline; it stops early at a
 * '\0'). An empty line is not stored; one longer than the ring keeps its
 * first size - 1 bytes.
 */
void line_ring_push(struct line_ring *ring, const char *line, size_t len);

/*
 * Copy the line at *cursor into out (NUL-terminated, cut to outsz - 1
 * bytes), advance *cursor to the next line and return the number of bytes
 * copied; 0 when no lines are left or outsz < 2. Start with *cursor = 0;
 * a cursor whose lines were dropped skips to the oldest line held.
 */
size_t line_ring_read(const struct line_ring *ring, size_t *cursor,
		      char *out, size_t outsz);

#endif
