/*
 * The line editor's Tab: completing the first word from the caller's
 * list of names, or listing the names that still match.
 */
#include "lineedit_internal.h"
#include "string.h"

/* Tab with several names left to choose from: show them all. */
static void list_matches(struct lineedit *ed, const char *prefix, size_t n)
{
	const char *name;
	size_t i;

	lineedit_emit_char(ed, '\n');
	for (i = 0; (name = ed->name(ed->ctx, i)) != NULL; i++) {
		if (strncmp(name, prefix, n) == 0) {
			lineedit_emit_str(ed, name);
			lineedit_emit_str(ed, "  ");
		}
	}
	lineedit_emit_char(ed, '\n');
	lineedit_redraw(ed);
}

/* How many leading characters a and b share, at most limit. */
static size_t common_prefix(const char *a, const char *b, size_t limit)
{
	size_t n = 0;

	while (n < limit && a[n] && a[n] == b[n])
		n++;
	return n;
}

/*
 * Tab completes the first word, the command name, when the cursor is at
 * its end: as far as all matching names agree, plus a space once only one
 * name is left. With nothing to add and several names, it lists them.
 */
void lineedit_complete(struct lineedit *ed)
{
	const char *first = NULL, *name;
	size_t start = 0, prefix_len, common = 0, matches = 0, i;
	char prefix[LINEEDIT_MAX + 1];

	while (start < ed->cursor && ed->line[start] == ' ')
		start++;
	prefix_len = ed->cursor - start;
	memcpy(prefix, ed->line + start, prefix_len);
	prefix[prefix_len] = '\0';
	if (!ed->name || strchr(prefix, ' ') ||
	    (ed->cursor < ed->len && ed->line[ed->cursor] != ' ')) {
		lineedit_bell(ed);
		return;
	}
	for (i = 0; (name = ed->name(ed->ctx, i)) != NULL; i++) {
		if (strncmp(name, prefix, prefix_len) != 0)
			continue;
		common = first ? common_prefix(first, name, common)
			       : strlen(name);
		if (!first)
			first = name;
		matches++;
	}
	if (!matches) {
		lineedit_bell(ed);
	} else if (common > prefix_len) {
		if (!lineedit_insert_text(ed, first + prefix_len, common - prefix_len))
			lineedit_bell(ed);
		else if (matches == 1 && ed->cursor == ed->len)
			lineedit_insert_text(ed, " ", 1);
	} else if (matches == 1) {
		if (ed->cursor == ed->len)
			lineedit_insert_text(ed, " ", 1);
	} else {
		list_matches(ed, prefix, prefix_len);
	}
}
