/*
 * lib/lineedit.c: typing, deleting, moving, cancelling, overlong lines,
 * line endings and odd bytes each do what lineedit.h says, checked byte
 * by byte against the model terminal of lineedit_term.h.
 */
#include "check.h"
#include "lineedit_term.h"

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

int main(void)
{
	test_typing_and_enter();
	test_backspace_and_delete();
	test_cursor_movement();
	test_cancel_and_clear();
	test_long_lines();
	test_line_endings();
	test_odd_bytes();
	return check_summary();
}
