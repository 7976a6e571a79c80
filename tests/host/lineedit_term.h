/*
 * For the host tests of the line editor (test_lineedit*.c): a model
 * VT100 row fed with the editor's output, and an editor wired to it. After
 * every byte the row must show the prompt and the line, with the cursor
 * where the editor thinks it is. Include after check.h.
 */
#ifndef TESTS_HOST_LINEEDIT_TERM_H
#define TESTS_HOST_LINEEDIT_TERM_H

#include <stdlib.h>
#include "lib/lineedit.h"

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

static inline void term_reset(void)
{
	memset(&term, 0, sizeof(term));
}

static inline void term_clear_raw(void)
{
	term.raw_len = 0;
	term.raw[0] = '\0';
}

static inline void term_put(char c)
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
static inline void term_sequence(void)
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

static inline void term_byte(unsigned char c)
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

static inline void term_write(void *ctx, const char *s, size_t len)
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

static inline const char *name_at(void *ctx, size_t i)
{
	(void)ctx;
	return i < sizeof(names) / sizeof(names[0]) ? names[i] : NULL;
}

/* The row is the prompt and the line, blanks after, cursor in place. */
static inline bool row_matches(const struct lineedit *ed)
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

static inline bool line_is_sane(const struct lineedit *ed)
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

static inline void start(void)
{
	term_reset();
	lineedit_init(&ed, PROMPT, term_write, name_at, NULL);
	lineedit_prompt(&ed);
	lines_done = 0;
}

/* Feed bytes; each finished line is kept and a new prompt printed, as
 * the shell does. */
static inline void feed_n(const char *s, size_t n)
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

static inline void feed(const char *s)
{
	feed_n(s, strlen(s));
}

#endif
