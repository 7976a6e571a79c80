/*
 * The line editor's state machine (lineedit.h lists the keys). Each
 * handler edits the line and writes what brings the terminal's row in
 * step with it, so that after every byte the row shows the prompt and the
 * line with the terminal's cursor at ed->cursor; the host tests check
 * exactly that against a model terminal.
 */
#include "lineedit_internal.h"
#include "format.h"
#include "string.h"

#define KEY_CTRL(letter)	((letter) & 0x1f)
#define BYTE_ESC		0x1b
#define BYTE_DEL		0x7f
/* Larger CSI parameters mean nothing to us; capping keeps the number
 * from overflowing however many digits arrive. */
#define CSI_PARAM_CAP		1000

static void flush(struct lineedit *ed)
{
	if (ed->out_len) {
		ed->write(ed->ctx, ed->out, ed->out_len);
		ed->out_len = 0;
	}
}

/* Gather output so that one key's echo leaves in one write, which the
 * console then cannot split with a kernel message. */
static void emit(struct lineedit *ed, const char *s, size_t n)
{
	while (n) {
		size_t room = sizeof(ed->out) - ed->out_len;
		size_t chunk = n < room ? n : room;

		memcpy(ed->out + ed->out_len, s, chunk);
		ed->out_len += chunk;
		s += chunk;
		n -= chunk;
		if (ed->out_len == sizeof(ed->out))
			flush(ed);
	}
}

void lineedit_emit_str(struct lineedit *ed, const char *s)
{
	emit(ed, s, strlen(s));
}

void lineedit_emit_char(struct lineedit *ed, char c)
{
	emit(ed, &c, 1);
}

void lineedit_bell(struct lineedit *ed)
{
	lineedit_emit_char(ed, '\a');
}

/* Back n columns: BS for one, one ESC [ n D for more. */
static void emit_left(struct lineedit *ed, size_t n)
{
	char seq[24];

	if (n == 1) {
		lineedit_emit_char(ed, '\b');
	} else if (n > 1) {
		ksnprintf(seq, sizeof(seq), "\x1b[%zuD", n);
		lineedit_emit_str(ed, seq);
	}
}

/* Rewrite the row from column 0, erasing whatever a longer line left. */
void lineedit_redraw(struct lineedit *ed)
{
	lineedit_emit_char(ed, '\r');
	emit(ed, ed->prompt, ed->prompt_len);
	emit(ed, ed->line, ed->len);
	lineedit_emit_str(ed, "\x1b[K");
	emit_left(ed, ed->len - ed->cursor);
}

void lineedit_set_line(struct lineedit *ed, const char *s)
{
	ed->len = strlcpy(ed->line, s, sizeof(ed->line));
	ed->cursor = ed->len;
}

/* Forget the line and any browsing or refusing that went with it. */
static void reset_line(struct lineedit *ed)
{
	lineedit_set_line(ed, "");
	ed->overlong = false;
	ed->browse = 0;
}

void lineedit_init(struct lineedit *ed, const char *prompt,
		   lineedit_write_fn write, lineedit_name_fn name, void *ctx)
{
	memset(ed, 0, sizeof(*ed));
	ed->prompt = prompt;
	ed->prompt_len = strlen(prompt);
	ed->write = write;
	ed->name = name;
	ed->ctx = ctx;
}

void lineedit_prompt(struct lineedit *ed)
{
	lineedit_redraw(ed);
	flush(ed);
}

/* Insert n characters at the cursor; false, and nothing done, when the
 * line would grow past LINEEDIT_MAX. */
bool lineedit_insert_text(struct lineedit *ed, const char *s, size_t n)
{
	size_t tail = ed->len - ed->cursor;

	if (n > LINEEDIT_MAX - ed->len)
		return false;
	memmove(ed->line + ed->cursor + n, ed->line + ed->cursor, tail + 1);
	memcpy(ed->line + ed->cursor, s, n);
	ed->len += n;
	emit(ed, ed->line + ed->cursor, n + tail);
	ed->cursor += n;
	emit_left(ed, tail);
	return true;
}

/* The one message for a line that does not fit; the row is left empty,
 * and the prompt comes back at the Enter that ends the refused line. */
static void refuse_overlong(struct lineedit *ed)
{
	char msg[96];

	ksnprintf(msg, sizeof(msg), "\nline too long: the limit is %u "
		  "characters; ignoring input up to Enter\n", LINEEDIT_MAX);
	lineedit_emit_str(ed, msg);
	ed->overlong = true;
}

/* Remove the character under the cursor and close the gap on screen. */
static void delete_at_cursor(struct lineedit *ed)
{
	size_t tail = ed->len - ed->cursor - 1;

	memmove(ed->line + ed->cursor, ed->line + ed->cursor + 1, tail + 1);
	ed->len--;
	emit(ed, ed->line + ed->cursor, tail);
	lineedit_emit_char(ed, ' ');
	emit_left(ed, tail + 1);
}

static void backspace(struct lineedit *ed)
{
	if (ed->cursor == 0)
		return;
	ed->cursor--;
	lineedit_emit_char(ed, '\b');
	delete_at_cursor(ed);
}

static void delete_forward(struct lineedit *ed)
{
	if (ed->cursor < ed->len)
		delete_at_cursor(ed);
}

static void move_left(struct lineedit *ed)
{
	if (ed->cursor > 0) {
		ed->cursor--;
		lineedit_emit_char(ed, '\b');
	}
}

/* Writing the character under the cursor again is the one way to move
 * right that every terminal understands. */
static void move_right(struct lineedit *ed)
{
	if (ed->cursor < ed->len)
		lineedit_emit_char(ed, ed->line[ed->cursor++]);
}

static void move_home(struct lineedit *ed)
{
	emit_left(ed, ed->cursor);
	ed->cursor = 0;
}

static void move_end(struct lineedit *ed)
{
	emit(ed, ed->line + ed->cursor, ed->len - ed->cursor);
	ed->cursor = ed->len;
}

static void kill_to_end(struct lineedit *ed)
{
	ed->len = ed->cursor;
	ed->line[ed->len] = '\0';
	lineedit_emit_str(ed, "\x1b[K");
}

/* Enter: hand the line over and start an empty one. A refused line
 * yields nothing; its message already left the row empty. */
static const char *enter(struct lineedit *ed)
{
	if (ed->overlong) {
		reset_line(ed);
		lineedit_redraw(ed);
		return NULL;
	}
	lineedit_emit_char(ed, '\n');
	strlcpy(ed->entered, ed->line, sizeof(ed->entered));
	lineedit_history_add(ed, ed->entered);
	reset_line(ed);
	return ed->entered;
}

static void cancel(struct lineedit *ed)
{
	lineedit_emit_str(ed, "^C\n");
	reset_line(ed);
	lineedit_redraw(ed);
}

static void empty_line(struct lineedit *ed)
{
	reset_line(ed);
	lineedit_redraw(ed);
}

static void redraw_screen(struct lineedit *ed)
{
	lineedit_emit_str(ed, "\x1b[H\x1b[2J");
	lineedit_redraw(ed);
}

/* The last byte of ESC [ A and friends, or of ESC O A. */
static void cursor_key(struct lineedit *ed, u8 final)
{
	if (ed->overlong)
		return;
	switch (final) {
	case 'A':
		lineedit_history_older(ed);
		break;
	case 'B':
		lineedit_history_newer(ed);
		break;
	case 'C':
		move_right(ed);
		break;
	case 'D':
		move_left(ed);
		break;
	case 'H':
		move_home(ed);
		break;
	case 'F':
		move_end(ed);
		break;
	}
}

/* ESC [ n ~ keys (VT220 numbering) or ESC [ letter; other finals are
 * keys we do not bind. */
static void csi_final(struct lineedit *ed, u8 final)
{
	if (ed->overlong)
		return;
	if (final != '~') {
		if (ed->csi_param <= 1)
			cursor_key(ed, final);
		return;
	}
	switch (ed->csi_param) {
	case 1:
	case 7:
		move_home(ed);
		break;
	case 3:
		delete_forward(ed);
		break;
	case 4:
	case 8:
		move_end(ed);
		break;
	}
}

/*
 * One byte inside an escape sequence; false when the byte is not part of
 * it: a control byte ends the sequence unfinished and then counts as the
 * key it is, so a stray ESC cannot swallow the Enter that follows. A byte
 * that cannot continue the sequence (DEL, 0x80 up) ends it and is dropped.
 */
static bool escape_byte(struct lineedit *ed, u8 byte)
{
	if (byte == BYTE_ESC) {
		ed->escape = LINEEDIT_ESC_START;
		return true;
	}
	if (byte < 0x20) {
		ed->escape = LINEEDIT_ESC_NONE;
		return false;
	}
	switch (ed->escape) {
	case LINEEDIT_ESC_START:
		ed->escape = LINEEDIT_ESC_NONE;
		if (byte == '[') {
			ed->escape = LINEEDIT_ESC_CSI;
			ed->csi_param = 0;
			ed->csi_odd = false;
		} else if (byte == 'O') {
			ed->escape = LINEEDIT_ESC_SS3;
		}
		break;
	case LINEEDIT_ESC_SS3:
		ed->escape = LINEEDIT_ESC_NONE;
		cursor_key(ed, byte);
		break;
	case LINEEDIT_ESC_CSI:
		if (byte >= '0' && byte <= '9') {
			ed->csi_param = ed->csi_param * 10 + (byte - '0');
			if (ed->csi_param > CSI_PARAM_CAP)
				ed->csi_param = CSI_PARAM_CAP;
		} else if (byte >= 0x20 && byte <= 0x3f) {
			ed->csi_odd = true;	/* ';', '?', intermediates */
		} else {
			ed->escape = LINEEDIT_ESC_NONE;
			if (byte >= 0x40 && byte <= 0x7e && !ed->csi_odd)
				csi_final(ed, byte);
		}
		break;
	case LINEEDIT_ESC_NONE:
		break;
	}
	return true;
}

/* A byte outside any escape sequence. */
static const char *key_byte(struct lineedit *ed, u8 byte)
{
	switch (byte) {
	case '\r':
	case '\n':
		return enter(ed);
	case KEY_CTRL('C'):
		cancel(ed);
		return NULL;
	case KEY_CTRL('U'):
		empty_line(ed);
		return NULL;
	case BYTE_ESC:
		ed->escape = LINEEDIT_ESC_START;
		return NULL;
	}
	if (ed->overlong)
		return NULL;
	if (byte >= 0x20 && byte < BYTE_DEL) {
		char c = (char)byte;

		if (!lineedit_insert_text(ed, &c, 1))
			refuse_overlong(ed);
		return NULL;
	}
	switch (byte) {
	case BYTE_DEL:
	case '\b':
		backspace(ed);
		break;
	case '\t':
		lineedit_complete(ed);
		break;
	case KEY_CTRL('A'):
		move_home(ed);
		break;
	case KEY_CTRL('E'):
		move_end(ed);
		break;
	case KEY_CTRL('K'):
		kill_to_end(ed);
		break;
	case KEY_CTRL('L'):
		redraw_screen(ed);
		break;
	}
	return NULL;
}

const char *lineedit_feed(struct lineedit *ed, u8 byte)
{
	bool rest_of_crlf = ed->after_cr && byte == '\n';
	const char *line = NULL;

	ed->after_cr = byte == '\r';
	if (rest_of_crlf)
		return NULL;
	if (ed->escape == LINEEDIT_ESC_NONE || !escape_byte(ed, byte))
		line = key_byte(ed, byte);
	flush(ed);
	return line;
}
