/*
 * lib/lineedit_history.c and lib/lineedit_complete.c: Up and Down walk
 * the history and come back to the draft; Tab completes command names or
 * lists them. Checked against the model terminal of lineedit_term.h.
 */
#include "check.h"
#include "lineedit_term.h"

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

int main(void)
{
	test_history();
	test_completion();
	return check_summary();
}
