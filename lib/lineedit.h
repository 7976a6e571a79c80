/*
 * A line editor for a serial console, as a pure state machine: the caller
 * feeds it the bytes the terminal sends, one at a time, and it answers
 * with the bytes to send back (through a callback) and, on Enter, with the
 * finished line. It knows nothing of UARTs, threads or time, so it builds
 * for the host too and its tests can drive it byte by byte.
 *
 * Keys: printable ASCII inserts at the cursor; Backspace (0x7f or 0x08)
 * and Delete (ESC [ 3 ~) remove a character; Left, Right, Home, End (and
 * Ctrl-A, Ctrl-E) move; Ctrl-K cuts the line at the cursor; Up and Down
 * walk the history; Tab completes the first word from a list of names
 * (on an empty line it lists them all); Ctrl-C abandons the line; Ctrl-U
 * empties it; Ctrl-L redraws it on a cleared screen; Enter is CR, LF or
 * CR LF. Everything else is ignored: other control bytes, unknown or
 * broken escape sequences, and every byte from 0x80 up. The shell's words
 * are ASCII, and dropping non-ASCII bytes whole means a stray or invalid
 * UTF-8 sequence can never leave half a character in the line.
 *
 * A line holds at most LINEEDIT_MAX characters. The character that would
 * make it longer draws one message, and the editor then ignores input up
 * to the next Enter (or Ctrl-C, Ctrl-U), which yields no line: a pasted
 * line that does not fit is refused whole, never run cut short or split.
 *
 * Output: newlines are written as "\n" alone (the kernel's console makes
 * them CR LF), plus CR, BS, BEL and the VT100 sequences ESC [ K, ESC [ n D
 * and ESC [ H ESC [ 2 J. Redrawing assumes the terminal is at least as
 * wide as the prompt and the line; on a narrower one a wrapped line is
 * still edited correctly, but redrawn on its last row only.
 */
#ifndef LIB_LINEEDIT_H
#define LIB_LINEEDIT_H

#include "types.h"

#define LINEEDIT_MAX		256	/* characters in a line */
#define LINEEDIT_HISTORY	16	/* lines Up and Down can recall */
#define LINEEDIT_OUT_MAX	512	/* output gathered before a write */

/* Bytes for the terminal; one call per key wherever they fit in
 * LINEEDIT_OUT_MAX, so a key's echo is written whole. */
typedef void (*lineedit_write_fn)(void *ctx, const char *s, size_t len);
/* The index-th name that Tab may complete to, or NULL past the last. */
typedef const char *(*lineedit_name_fn)(void *ctx, size_t index);

enum lineedit_escape {
	LINEEDIT_ESC_NONE,
	LINEEDIT_ESC_START,	/* after ESC */
	LINEEDIT_ESC_CSI,	/* after ESC [ */
	LINEEDIT_ESC_SS3,	/* after ESC O */
};

struct lineedit {
	const char *prompt;
	size_t prompt_len;
	lineedit_write_fn write;
	lineedit_name_fn name;
	void *ctx;

	char line[LINEEDIT_MAX + 1];	/* NUL-terminated */
	size_t len;
	size_t cursor;			/* 0..len */
	bool overlong;			/* refusing input up to Enter */
	bool after_cr;			/* a LF now is the rest of CR LF */

	enum lineedit_escape escape;
	unsigned int csi_param;		/* first parameter, capped */
	bool csi_odd;			/* more parameters or intermediates */

	char history[LINEEDIT_HISTORY][LINEEDIT_MAX + 1];
	unsigned int history_count;	/* entries held */
	unsigned int history_next;	/* slot the next entry goes to */
	unsigned int browse;		/* 0: the new line; n: n-th newest */
	char draft[LINEEDIT_MAX + 1];	/* the new line, while browsing */

	char entered[LINEEDIT_MAX + 1];	/* the line lineedit_feed returned */
	char out[LINEEDIT_OUT_MAX];
	size_t out_len;
};

/* name may be NULL (Tab then completes nothing). */
void lineedit_init(struct lineedit *ed, const char *prompt,
		   lineedit_write_fn write, lineedit_name_fn name, void *ctx);

/*
 * Feed one received byte. Returns the finished line when this byte was
 * its Enter (valid until the next call), else NULL. The editor has by
 * then moved to a new, empty line but not printed the prompt: the caller
 * prints what the line asked for, then calls lineedit_prompt().
 */
const char *lineedit_feed(struct lineedit *ed, u8 byte);

/* Print the prompt and the line being edited, from column 0. */
void lineedit_prompt(struct lineedit *ed);

#endif
