/*
 * lib/ringbuf.c: lines come back in order, a full ring drops its oldest
 * whole lines, long lines are cut, and a cursor that fell behind skips
 * to the oldest line still held. Also a random run against a model.
 */
#include "check.h"
#include "lib/random.h"
#include "lib/ringbuf.h"

/* All lines from *cursor on, joined with '|'. */
static const char *dump(struct line_ring *r, size_t *cursor)
{
	static char all[4096];
	char line[256];
	size_t len = 0, n;

	all[0] = '\0';
	while ((n = line_ring_read(r, cursor, line, sizeof(line))) != 0) {
		CHECK_EQ_U64(n, strlen(line));
		len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s",
					len ? "|" : "", line);
	}
	return all;
}

static const char *dump_all(struct line_ring *r)
{
	size_t cursor = 0;

	return dump(r, &cursor);
}

static void push(struct line_ring *r, const char *s)
{
	line_ring_push(r, s, strlen(s));
}

static void test_basic(void)
{
	static struct line_ring zeroed;
	struct line_ring r;
	char store[16];
	size_t cursor = 0;

	CHECK_STR(dump_all(&zeroed), "");
	line_ring_init(&r, store, sizeof(store));
	CHECK_STR(dump_all(&r), "");
	push(&r, "one");
	push(&r, "two");
	CHECK_STR(dump(&r, &cursor), "one|two");
	CHECK_STR(dump(&r, &cursor), "");
	push(&r, "three");
	CHECK_STR(dump(&r, &cursor), "three");
	CHECK_STR(dump_all(&r), "one|two|three");
	/* 4 + 4 + 6 = 14 bytes held; "four" needs 5, so "one" goes. */
	push(&r, "four");
	CHECK_STR(dump_all(&r), "two|three|four");
	CHECK_STR(dump(&r, &cursor), "four");
	push(&r, "");
	CHECK_STR(dump_all(&r), "two|three|four");
	/* A line stops at len, or at a NUL before it; "ab" drops "two",
	 * and "x" then fills the ring exactly. */
	line_ring_push(&r, "abcdef", 2);
	line_ring_push(&r, "x\0yz", 4);
	CHECK_STR(dump_all(&r), "three|four|ab|x");
}

static void test_long_lines(void)
{
	struct line_ring r;
	char store[8];
	char out[4];
	size_t cursor = 0;

	line_ring_init(&r, store, sizeof(store));
	push(&r, "abcdefghijkl");
	CHECK_STR(dump_all(&r), "abcdefg");
	push(&r, "xy");
	CHECK_STR(dump_all(&r), "xy");
	push(&r, "1234567");
	CHECK_STR(dump_all(&r), "1234567");

	/* A short out buffer cuts the line but still moves past it. */
	push(&r, "pq");
	push(&r, "rstu");
	CHECK_EQ_U64(line_ring_read(&r, &cursor, out, sizeof(out)), 2);
	CHECK_STR(out, "pq");
	CHECK_EQ_U64(line_ring_read(&r, &cursor, out, sizeof(out)), 3);
	CHECK_STR(out, "rst");
	CHECK_EQ_U64(line_ring_read(&r, &cursor, out, sizeof(out)), 0);
	cursor = 0;
	CHECK_EQ_U64(line_ring_read(&r, &cursor, out, 1), 0);
	CHECK_EQ_U64(cursor, 0);
}

static void test_lagging_cursor(void)
{
	struct line_ring r;
	char store[32];
	char line[64];
	size_t cursor = 0;
	int i;

	line_ring_init(&r, store, sizeof(store));
	push(&r, "first");
	CHECK_EQ_U64(line_ring_read(&r, &cursor, line, sizeof(line)), 5);
	for (i = 0; i < 20; i++) {
		snprintf(line, sizeof(line), "line%02d", i);
		push(&r, line);
	}
	/* 32 bytes hold four 7-byte lines. */
	CHECK_STR(dump(&r, &cursor), "line16|line17|line18|line19");
	CHECK_STR(dump_all(&r), "line16|line17|line18|line19");
}

/* Random pushes against a model: the newest lines whose total stored size
 * (length + 1 each) fits the ring. */
static void test_model(void)
{
	static char lines[4000][40];
	struct line_ring r;
	char store[100];
	char want[4096];
	struct prng rng;
	int count = 0, round;

	prng_seed(&rng, 77);
	line_ring_init(&r, store, sizeof(store));
	for (round = 0; round < 4000; round++) {
		size_t len = 1 + prng_below(&rng, 30), used = 0, wlen = 0;
		size_t i;
		int first;

		for (i = 0; i < len; i++)
			lines[count][i] = (char)('a' + prng_below(&rng, 26));
		lines[count][len] = '\0';
		push(&r, lines[count]);
		count++;

		for (first = count; first > 0; first--) {
			size_t need = strlen(lines[first - 1]) + 1;

			if (used + need > sizeof(store))
				break;
			used += need;
		}
		want[0] = '\0';
		for (; first < count; first++)
			wlen += (size_t)snprintf(want + wlen,
						 sizeof(want) - wlen, "%s%s",
						 wlen ? "|" : "", lines[first]);
		CHECK_STR(dump_all(&r), want);
	}
}

int main(void)
{
	test_basic();
	test_long_lines();
	test_lagging_cursor();
	test_model();
	return check_summary();
}
