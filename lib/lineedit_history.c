/*
 * The line editor's history: the last LINEEDIT_HISTORY lines entered, in
 * a ring, and Up and Down walking it with the line being typed kept as a
 * draft to come back to.
 */
#include "lineedit_internal.h"
#include "string.h"

/* The nth newest history entry, n from 1 to history_count. */
static const char *history_entry(const struct lineedit *ed, unsigned int n)
{
	return ed->history[(ed->history_next + LINEEDIT_HISTORY - n) %
			   LINEEDIT_HISTORY];
}

/* Keep a line for Up, unless it is blank or repeats the newest one. */
void lineedit_history_add(struct lineedit *ed, const char *line)
{
	const char *p = line;

	while (*p == ' ')
		p++;
	if (!*p)
		return;
	if (ed->history_count && !strcmp(history_entry(ed, 1), line))
		return;
	strlcpy(ed->history[ed->history_next], line, sizeof(ed->history[0]));
	ed->history_next = (ed->history_next + 1) % LINEEDIT_HISTORY;
	if (ed->history_count < LINEEDIT_HISTORY)
		ed->history_count++;
}

/* Up: the line being typed is kept as the draft that Down returns to. */
void lineedit_history_older(struct lineedit *ed)
{
	if (ed->browse == ed->history_count) {
		lineedit_bell(ed);
		return;
	}
	if (ed->browse == 0)
		strlcpy(ed->draft, ed->line, sizeof(ed->draft));
	ed->browse++;
	lineedit_set_line(ed, history_entry(ed, ed->browse));
	lineedit_redraw(ed);
}

void lineedit_history_newer(struct lineedit *ed)
{
	if (ed->browse == 0) {
		lineedit_bell(ed);
		return;
	}
	ed->browse--;
	lineedit_set_line(ed, ed->browse ? history_entry(ed, ed->browse) : ed->draft);
	lineedit_redraw(ed);
}
