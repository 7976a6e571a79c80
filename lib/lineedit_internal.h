/*
 * Shared between the line editor's files: lineedit.c owns the row on the
 * terminal (output, redrawing, inserting) and the key dispatch;
 * lineedit_history.c and lineedit_complete.c own Up/Down and Tab.
 */
#ifndef LIB_LINEEDIT_INTERNAL_H
#define LIB_LINEEDIT_INTERNAL_H

#include "lineedit.h"

/* Output, gathered until the key is handled (lineedit.c). */
void lineedit_emit_char(struct lineedit *ed, char c);
void lineedit_emit_str(struct lineedit *ed, const char *s);
void lineedit_bell(struct lineedit *ed);
/* Rewrite the row from column 0: prompt, line, cursor in place. */
void lineedit_redraw(struct lineedit *ed);
/* Replace the line, cursor at its end (nothing is written). */
void lineedit_set_line(struct lineedit *ed, const char *s);
/* Insert n characters at the cursor; false, and nothing done, when the
 * line would grow past LINEEDIT_MAX. */
bool lineedit_insert_text(struct lineedit *ed, const char *s, size_t n);

/* Keep an entered line for Up (lineedit_history.c). */
void lineedit_history_add(struct lineedit *ed, const char *line);
void lineedit_history_older(struct lineedit *ed);
void lineedit_history_newer(struct lineedit *ed);
/* Tab (lineedit_complete.c). */
void lineedit_complete(struct lineedit *ed);

#endif
