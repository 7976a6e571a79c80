/*
 * lib/lineedit.c: each key does what lineedit.h says, and after every
 * byte a model VT100 row fed with the editor's output shows the prompt and
 * the line with the cursor where the editor thinks it is. Ends with a
 * fuzz run of random bytes, escape storms and overlong lines.
 */
#include "check.h"
#include <stdlib.h>
#include "lib/lineedit.h"
#include "lib/random.h"

#define PROMPT		"q> "
#define ROW_MAX		4096
#define ESC		"\x1b"
#define UP		ESC "[A"
#define DOWN		ESC "[B"
#define RIGHT		ESC "[C"
#define LEFT		ESC "[D"

/* The terminal's current row, as far as the editor's output goes. */
struct term {
	char row[ROW_MAX];
	size_t width;		/* columns written on this row */
	size_t col;
	unsigned int newlines, bells, writes;
	bool bad;		/* output the model does not know */
	bool in_seq;		/* inside an escape sequence */
	char seq[32];		/* what follows its ESC */
	size_t seq_len;
	char raw[65536];	/* all output since term_clear_raw() */
	size_t raw_len;
};

static struct term term;

static void term_reset(void)
{
	memset(&term, 0, sizeof(term));
}

static void term_clear_raw(void)
{
	term.raw_len = 0;
	term.raw[0] = '\0';
}

static void term_put(char c)
{
	if (term.col < ROW_MAX - 1) {
		while (term.width < term.col)
			term.row[term.width++] = ' ';
		term.row[term.col++] = c;
		if (term.col > term.width)
			term.width = term.col;
	}
}

/* ESC [ K, ESC [ n D, ESC [ H and ESC [ 2 J are all the editor writes. */
static void term_sequence(void)
{
	char *end;
	long n;

	term.seq[term.seq_len] = '\0';
	if (!strcmp(term.seq, "[K")) {
		term.width = term.col < term.width ? term.col : term.width;
	} else if (!strcmp(term.seq, "[H") || !strcmp(term.seq, "[2J")) {
		term.width = 0;
		term.col = 0;
	} else if (term.seq[0] == '[' && term.seq[term.seq_len - 1] == 'D') {
		n = strtol(term.seq + 1, &end, 10);
		if (end != term.seq + term.seq_len - 1 || n < 2 ||
		    (size_t)n > term.col)
			term.bad = true;
		else
			term.col -= (size_t)n;
	} else {
		term.bad = true;
	}
}

static void term_byte(unsigned char c)
{
	if (term.in_seq) {
		if (term.seq_len == sizeof(term.seq) - 1 ||
		    (term.seq_len == 0 && c != '[')) {
			term.bad = true;
			term.in_seq = false;
			return;
		}
		term.seq[term.seq_len++] = (char)c;
		if (term.seq_len >= 2 && c >= 0x40 && c <= 0x7e) {
			term_sequence();
			term.in_seq = false;
		}
		return;
	}
	if (c == 0x1b) {
		term.in_seq = true;	/* seq gets what follows the ESC */
		term.seq_len = 0;
	} else if (c == '\r') {
		term.col = 0;
	} else if (c == '\n') {		/* the console sends CR LF */
		term.newlines++;
		term.width = 0;
		term.col = 0;
	} else if (c == '\b') {
		if (term.col)
			term.col--;
		else
			term.bad = true;
	} else if (c == '\a') {
		term.bells++;
	} else if (c >= 0x20 && c < 0x7f) {
		term_put((char)c);
	} else {
		term.bad = true;
	}
}

static void term_write(void *ctx, const char *s, size_t len)
{
	size_t i;

	(void)ctx;
	term.writes++;
	for (i = 0; i < len; i++) {
		term_byte((unsigned char)s[i]);
		if (term.raw_len < sizeof(term.raw) - 1)
			term.raw[term.raw_len++] = s[i];
	}
	term.raw[term.raw_len] = '\0';
}

static const char *const names[] = {
	"cpus", "help", "log", "mem", "poweroff", "ps", "rcu", "reboot",
	"test", "torture", "uptime",
};

static const char *name_at(void *ctx, size_t i)
{
	(void)ctx;
	return i < sizeof(names) / sizeof(names[0]) ? names[i] : NULL;
}

/* The row is the prompt and the line, blanks after, cursor in place. */
static bool row_matches(const struct lineedit *ed)
{
	size_t shown = strlen(PROMPT) + ed->len, i;

	if (term.width < shown || term.col != strlen(PROMPT) + ed->cursor)
		return false;
	if (memcmp(term.row, PROMPT, strlen(PROMPT)) ||
	    memcmp(term.row + strlen(PROMPT), ed->line, ed->len))
		return false;
	for (i = shown; i < term.width; i++)
		if (term.row[i] != ' ')
			return false;
	return true;
}

static bool line_is_sane(const struct lineedit *ed)
{
	size_t i;

	if (ed->len > LINEEDIT_MAX || ed->cursor > ed->len ||
	    ed->line[ed->len] != '\0')
		return false;
	for (i = 0; i < ed->len; i++)
		if (ed->line[i] < 0x20 || ed->line[i] > 0x7e)
			return false;
	return true;
}

static struct lineedit ed;
static char last_line[LINEEDIT_MAX + 8];
static unsigned int lines_done;

static void start(void)
{
	term_reset();
	lineedit_init(&ed, PROMPT, term_write, name_at, NULL);
	lineedit_prompt(&ed);
	lines_done = 0;
}

/* Feed bytes; each finished line is kept and a new prompt printed, as
 * the shell does. */
static void feed_n(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *line = lineedit_feed(&ed, (unsigned char)s[i]);

		if (line) {
			snprintf(last_line, sizeof(last_line), "%s", line);
			lines_done++;
			lineedit_prompt(&ed);
		}
	}
}

static void feed(const char *s)
{
	feed_n(s, strlen(s));
}

static void test_typing_and_enter(void)
{
	start();
	CHECK(row_matches(&ed));
	feed("help");
	CHECK_STR(ed.line, "help");
	CHECK(row_matches(&ed));
	term_clear_raw();
	feed("\r");
	CHECK_EQ_U64(lines_done, 1);
	CHECK_STR(last_line, "help");
	CHECK_STR(term.raw, "\n\r" PROMPT ESC "[K");
	CHECK_EQ_U64(ed.len, 0);
	CHECK(row_matches(&ed));

	/* One write per key: its echo is never split. */
	term.writes = 0;
	feed("abc" LEFT LEFT "x");
	CHECK_EQ_U64(term.writes, 6);
	CHECK_STR(ed.line, "axbc");
	CHECK(row_matches(&ed));
}

static void test_backspace_and_delete(void)
{
	start();
	feed("hex\x7f" "l\bl");
	CHECK_STR(ed.line, "hel");
	feed("p\r");
	CHECK_STR(last_line, "help");

	feed("abcd" LEFT LEFT ESC "[3~");
	CHECK_STR(ed.line, "abd");
	CHECK_EQ_U64(ed.cursor, 2);
	CHECK(row_matches(&ed));
	feed("\x7f");
	CHECK_STR(ed.line, "ad");
	CHECK(row_matches(&ed));
	feed(ESC "[3~" ESC "[3~");		/* the second finds nothing */
	CHECK_STR(ed.line, "a");
	feed("\x7f\x7f\b");			/* nothing left to remove */
	CHECK_STR(ed.line, "");
	CHECK(row_matches(&ed));
	CHECK(!term.bad);
}

static void test_cursor_movement(void)
{
	start();
	feed("hlp" LEFT LEFT "e");
	CHECK_STR(ed.line, "help");
	CHECK_EQ_U64(ed.cursor, 2);
	CHECK(row_matches(&ed));
	feed(RIGHT RIGHT RIGHT RIGHT "!");	/* Right stops at the end */
	CHECK_STR(ed.line, "help!");
	feed(ESC "[H" "<" ESC "[F" ">");
	CHECK_STR(ed.line, "<help!>");
	feed(ESC "[1~" "a" ESC "[4~" "b" ESC "OH" "c" ESC "OF" "d");
	CHECK_STR(ed.line, "ca<help!>bd");
	feed("\x01" "[" "\x05" "]");		/* Ctrl-A, Ctrl-E */
	CHECK_STR(ed.line, "[ca<help!>bd]");
	feed("\x01" RIGHT RIGHT "\x0b");		/* Ctrl-K */
	CHECK_STR(ed.line, "[c");
	CHECK(row_matches(&ed));
	feed(LEFT LEFT LEFT LEFT);		/* Left stops at the start */
	CHECK_EQ_U64(ed.cursor, 0);
	CHECK(row_matches(&ed));
	CHECK(!term.bad);
}

static void test_cancel_and_clear(void)
{
	start();
	feed("abc\x03");
	CHECK(strstr(term.raw, "abc^C\n\r" PROMPT) != NULL);
	CHECK_EQ_U64(lines_done, 0);
	CHECK_STR(ed.line, "");
	CHECK(row_matches(&ed));
	feed("\r");
	CHECK_EQ_U64(lines_done, 1);
	CHECK_STR(last_line, "");

	feed("some words" LEFT "\x15");		/* Ctrl-U */
	CHECK_STR(ed.line, "");
	CHECK(row_matches(&ed));
	feed("ok\r");
	CHECK_STR(last_line, "ok");
	feed("x\x0c");				/* Ctrl-L redraws */
	CHECK_STR(ed.line, "x");
	CHECK(row_matches(&ed));
}

static void test_history(void)
{
	unsigned int i;
	char buf[16];

	start();
	feed("one\rtwo\r");
	feed("dra");
	feed(UP);
	CHECK_STR(ed.line, "two");
	CHECK(row_matches(&ed));
	feed(UP);
	CHECK_STR(ed.line, "one");
	term.bells = 0;
	feed(UP);				/* no older line */
	CHECK_STR(ed.line, "one");
	CHECK_EQ_U64(term.bells, 1);
	feed(DOWN);
	CHECK_STR(ed.line, "two");
	feed(DOWN);
	CHECK_STR(ed.line, "dra");		/* the draft is back */
	CHECK(row_matches(&ed));
	feed(DOWN);
	CHECK_EQ_U64(term.bells, 2);

	/* A recalled line is edited like any other and entered anew. */
	feed("\x15" UP UP "s" "\r");
	CHECK_STR(last_line, "ones");
	feed(UP);
	CHECK_STR(ed.line, "ones");
	feed(ESC "OA");				/* SS3 form of Up */
	CHECK_STR(ed.line, "two");

	/* Blank lines and repeats of the newest are not kept. */
	start();
	feed("a\r   \r\ra\rb\r" UP UP);
	CHECK_STR(ed.line, "a");
	feed(UP);
	CHECK_STR(ed.line, "a");		/* only a and b were kept */

	/* The oldest entries go once LINEEDIT_HISTORY are held. */
	start();
	for (i = 0; i < LINEEDIT_HISTORY + 4; i++) {
		snprintf(buf, sizeof(buf), "cmd%u\r", i);
		feed(buf);
	}
	for (i = 0; i < LINEEDIT_HISTORY + 2; i++)
		feed(UP);
	CHECK_STR(ed.line, "cmd4");
	CHECK(row_matches(&ed));
}

static void test_completion(void)
{
	start();
	feed("h\t");
	CHECK_STR(ed.line, "help ");
	CHECK(row_matches(&ed));
	feed("\x15" "po\t");
	CHECK_STR(ed.line, "poweroff ");
	feed("\x15" "to\t");
	CHECK_STR(ed.line, "torture ");
	/* t: test and torture share only the t; they are listed. */
	feed("\x15" "t");
	term_clear_raw();
	feed("\t");
	CHECK_STR(ed.line, "t");
	CHECK(strstr(term.raw, "\ntest  torture  \n") != NULL);
	CHECK(row_matches(&ed));
	/* re: reboot is the only one. */
	feed("\x15" "  re\t");
	CHECK_STR(ed.line, "  reboot ");
	/* A complete name gets its space. */
	feed("\x15" "ps\t");
	CHECK_STR(ed.line, "ps ");
	feed("\t");				/* second word: nothing */
	CHECK_STR(ed.line, "ps ");
	term.bells = 0;
	feed("\x15" "xyz\t");
	CHECK_STR(ed.line, "xyz");
	CHECK_EQ_U64(term.bells, 1);
	/* Inside a word: no completion. */
	feed("\x15" "rcX" LEFT "\t");
	CHECK_STR(ed.line, "rcX");
	CHECK_EQ_U64(term.bells, 2);
	/* An empty line lists every name. */
	feed("\x15");
	term_clear_raw();
	feed("\t");
	CHECK(strstr(term.raw, "cpus  help  log") != NULL);
	CHECK(strstr(term.raw, "uptime  \n") != NULL);
	CHECK(row_matches(&ed));
	feed("r\t");				/* rcu, reboot: r only */
	CHECK_STR(ed.line, "r");
	feed("c\t\r");
	CHECK_STR(last_line, "rcu ");
	CHECK(!term.bad);
}

static void test_long_lines(void)
{
	char line[LINEEDIT_MAX + 40];

	start();
	memset(line, 'a', LINEEDIT_MAX);
	line[LINEEDIT_MAX] = '\0';
	feed(line);
	CHECK(row_matches(&ed));
	feed("\r");
	CHECK_EQ_U64(lines_done, 1);
	CHECK_EQ_U64(strlen(last_line), LINEEDIT_MAX);

	/* One more character: one message, then nothing until Enter. */
	term_clear_raw();
	feed(line);
	feed("bcdef" LEFT "\x7f\t" UP);
	CHECK(ed.overlong);
	CHECK(strstr(term.raw, "line too long: the limit is 256 characters") !=
	      NULL);
	CHECK(strstr(strstr(term.raw, "too long") + 1, "too long") == NULL);
	CHECK_EQ_U64(term.col, 0);
	feed("\r");
	CHECK_EQ_U64(lines_done, 1);		/* refused, never run */
	CHECK(!ed.overlong);
	CHECK(row_matches(&ed));
	feed("ps\r");
	CHECK_EQ_U64(lines_done, 2);
	CHECK_STR(last_line, "ps");
	CHECK_STR(ed.history[0], line);		/* the refused one is not kept */

	/* Ctrl-C and Ctrl-U end the refusal too. */
	feed(line);
	feed("x\x03" "a\r");
	CHECK_STR(last_line, "a");
	feed(line);
	feed("x\x15" "b\r");
	CHECK_STR(last_line, "b");

	/* Completion that would not fit rings the bell instead. */
	memset(line, 'x', LINEEDIT_MAX - 2);
	line[LINEEDIT_MAX - 2] = '\0';
	feed("\x15");
	feed(line);
	feed(ESC "[H" "po\t");
	CHECK_EQ_U64(ed.len, LINEEDIT_MAX);
	CHECK(!ed.overlong);
	CHECK(!term.bad);
}

static void test_line_endings(void)
{
	start();
	feed("a\r\nb\nc\r");
	CHECK_EQ_U64(lines_done, 3);
	CHECK_STR(last_line, "c");
	feed("\r\r");
	CHECK_EQ_U64(lines_done, 5);
	feed("x\n\r\n");			/* LF, then CR LF: two */
	CHECK_EQ_U64(lines_done, 7);
}

static void test_odd_bytes(void)
{
	start();
	feed_n("a\0b\xff\xc3(\x80\xfe" "c", 9);	/* NUL, broken UTF-8 */
	CHECK_STR(ed.line, "ab(c");
	feed("\x02\x04\x06\x07\x0e\x1f");	/* unbound controls */
	CHECK_STR(ed.line, "ab(c");
	CHECK(row_matches(&ed));

	/* An unfinished escape gives way to the Enter after it. */
	feed(ESC "\r");
	CHECK_STR(last_line, "ab(c");
	feed(ESC "[12\r");
	CHECK_EQ_U64(lines_done, 2);
	/* Alt-x, modified arrows, unknown keys, huge numbers: ignored. */
	feed("k" ESC "x" ESC "[1;5C" ESC "[?25h" ESC "[99999999999999~"
	     ESC "[Z" ESC "[2~" ESC "OP" ESC "[5A");
	CHECK_STR(ed.line, "k");
	/* ESC ESC [ D: the second ESC starts over. */
	feed(ESC ESC "[D" "j");
	CHECK_STR(ed.line, "jk");
	/* DEL and high bytes end a sequence and are dropped with it. */
	feed(ESC "[\x7f" "1" ESC "[3\xff" "2");
	CHECK_STR(ed.line, "j12k");
	CHECK(row_matches(&ed));
	CHECK(!term.bad);
}

/* Bytes as a terminal would never send them, weighted towards what
 * parsers get wrong: escapes, digits, controls, long printable runs. */
static unsigned char random_byte(struct prng *rng)
{
	static const char interesting[] = "\x1b[O~;0123456789ABCDFH\r\n\t"
					  "\x03\x15\x7f\b\x01\x05\x0b\x0c";

	switch (prng_below(rng, 4)) {
	case 0:
		return (unsigned char)prng_below(rng, 256);
	case 1:
		return (unsigned char)interesting[prng_below(rng,
					sizeof(interesting) - 1)];
	default:
		return (unsigned char)(0x20 + prng_below(rng, 0x5f));
	}
}

static void test_fuzz(void)
{
	struct prng rng;
	unsigned long i, checked = 0, failures = 0, lines = 0, refused = 0;

	prng_seed(&rng, 2024);
	start();
	for (i = 0; i < 2000000; i++) {
		unsigned char b = random_byte(&rng);
		const char *line;
		bool was_overlong;

		/* Now and then an overlong printable run. */
		if (prng_below(&rng, 100000) == 0) {
			unsigned int n = 250 + (unsigned int)prng_below(&rng, 300);

			while (n--)
				lineedit_feed(&ed, 'z');
			refused += ed.overlong;
		}
		was_overlong = ed.overlong;
		line = lineedit_feed(&ed, b);
		refused += ed.overlong && !was_overlong;
		if (line) {
			lines++;
			size_t k, len = strlen(line);

			for (k = 0; k < len; k++)
				failures += line[k] < 0x20 || line[k] > 0x7e;
			failures += len > LINEEDIT_MAX;
			if (prng_below(&rng, 2))
				term_write(NULL, "output\n", 7);
			lineedit_prompt(&ed);
		}
		failures += !line_is_sane(&ed) || term.bad;
		if (!ed.overlong) {
			failures += !row_matches(&ed);
			checked++;
		}
		if (failures) {
			printf("fuzz: broke at byte %lu (0x%02x): line '%s' "
			       "cursor %zu, row '%.*s' col %zu%s\n", i, b,
			       ed.line, ed.cursor, (int)term.width, term.row,
			       term.col, term.bad ? ", unknown output" : "");
			break;
		}
		term_clear_raw();
	}
	CHECK_EQ_U64(failures, 0);
	CHECK(checked > 1000000);
	CHECK(lines > 10000);
	CHECK(refused > 10);
}

int main(void)
{
	test_typing_and_enter();
	test_backspace_and_delete();
	test_cursor_movement();
	test_cancel_and_clear();
	test_history();
	test_completion();
	test_long_lines();
	test_line_endings();
	test_odd_bytes();
	test_fuzz();
	return check_summary();
}
