/*
 * The shell's loop, its command table and dispatch.
 *
 * Bytes from the console go through the line editor (lib/lineedit.c);
 * each finished line is split into words at spaces, the first word names
 * a command in the shell_commands section, and the command runs in the
 * shell's own thread (long ones start a worker, shell_long.c). The shell
 * never reads input a command has not asked for, so keys typed while a
 * command runs wait, in order, for the next prompt.
 */
#include "internal.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/lineedit.h"
#include "lib/parse.h"
#include "lib/string.h"

#define SHELL_PROMPT	"quiesce> "
#define SHELL_MAX_WORDS	16

extern const struct shell_command __start_shell_commands[];
extern const struct shell_command __stop_shell_commands[];

bool shell_enabled = true;
CMDLINE_BOOL("shell", shell_enabled,
	     "after the self-tests, a shell on the console (not with exit=1)");

static struct lineedit editor;

static const struct shell_command *find_command(const char *name)
{
	const struct shell_command *c;

	for (c = __start_shell_commands; c < __stop_shell_commands; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* The commands in name order, for help and for Tab completion, sorted
 * once when the shell starts (sort_commands()): completion asks for the
 * names one index at a time, on every Tab. */
#define SHELL_COMMANDS_MAX	64
static const struct shell_command *by_name[SHELL_COMMANDS_MAX];
static size_t nr_by_name;

/* Insertion sort of the registered commands by name; a name registered
 * twice is reported (only the first runs), as is a command beyond the
 * table, which help and completion then leave out. */
static void sort_commands(void)
{
	const struct shell_command *c;
	size_t i;

	for (c = __start_shell_commands; c < __stop_shell_commands; c++) {
		if (find_command(c->name) != c) {
			pr_err("shell: command '%s' is registered twice; only "
			       "the first runs\n", c->name);
			continue;
		}
		if (nr_by_name == SHELL_COMMANDS_MAX) {
			pr_err("shell: more than %u commands; '%s' is left out "
			       "of help and completion\n", SHELL_COMMANDS_MAX,
			       c->name);
			continue;
		}
		for (i = nr_by_name; i > 0 && strcmp(by_name[i - 1]->name,
						     c->name) > 0; i--)
			by_name[i] = by_name[i - 1];
		by_name[i] = c;
		nr_by_name++;
	}
}

/* Tab completion's names: in help's order, alphabetical, so that a list
 * of matches reads as help lists them. */
static const char *command_name_at(void *ctx, size_t index)
{
	(void)ctx;
	return index < nr_by_name ? by_name[index]->name : NULL;
}

static void write_to_console(void *ctx, const char *s, size_t len)
{
	(void)ctx;
	console_write(s, len);
}

bool shell_max_args(int argc, char **argv, int max)
{
	if (argc - 1 <= max)
		return true;
	console_printf("%s: unexpected argument '%s'\n", argv[0],
		       argv[max + 1]);
	return false;
}

bool shell_parse_number(const char *cmd, const char *text, const char *what,
			u64 min, u64 max, u64 *out)
{
	u64 n;

	if (parse_u64(text, &n) < 0 || n < min || n > max) {
		console_printf("%s: bad %s '%s': expected a number from %llu "
			       "to %llu\n", cmd, what, text, min, max);
		return false;
	}
	*out = n;
	return true;
}

static bool is_one_of(shell_names_fn names, const char *word)
{
	const char *name;
	unsigned int i;

	for (i = 0; (name = names(i)) != NULL; i++)
		if (!strcmp(name, word))
			return true;
	return false;
}

void shell_print_names(const char *title, shell_names_fn names)
{
	const char *name;
	unsigned int i;

	console_printf("%s:", title);
	for (i = 0; (name = names(i)) != NULL; i++)
		console_printf(" %s", name);
	console_printf("\n");
}

bool shell_spec_from_words(int argc, char **argv, int first,
			   shell_names_fn names, const char *what,
			   char *spec, size_t size)
{
	size_t len = 0;
	int i;

	strlcpy(spec, first >= argc ? "all" : "", size);
	for (i = first; i < argc; i++) {
		if (strcmp(argv[i], "all") && !is_one_of(names, argv[i])) {
			console_printf("%s: no %s named '%s' (try '%s -l')\n",
				       argv[0], what, argv[i], argv[0]);
			return false;
		}
		/* The words of one line fit in a spec as long as a line;
		 * checked all the same, since a caller picks the size. */
		if (len + 1 + strlen(argv[i]) >= size) {
			console_printf("%s: too many names\n", argv[0]);
			return false;
		}
		if (len)
			spec[len++] = ',';
		len += strlcpy(spec + len, argv[i], size - len);
	}
	return true;
}

/* Split a line into words and run the command it names; a line whose
 * first word starts with '#' is a comment, for scripts typed into the
 * console. The kernel log gets each line at debug level: the console does
 * not show it again, but `log` shows what was typed among what it caused. */
static void run_line(const char *line)
{
	char words[LINEEDIT_MAX + 1];
	char *argv[SHELL_MAX_WORDS + 1];
	char *cursor = words, *word;
	const struct shell_command *cmd;
	int argc = 0;

	strlcpy(words, line, sizeof(words));
	while ((word = next_token(&cursor)) != NULL) {
		if (argc == SHELL_MAX_WORDS) {
			console_printf("%s: too many arguments (at most %d)\n",
				       argv[0], SHELL_MAX_WORDS - 1);
			return;
		}
		argv[argc++] = word;
	}
	if (!argc || argv[0][0] == '#')
		return;
	argv[argc] = NULL;
	pr_debug("shell: %s\n", line);
	cmd = find_command(argv[0]);
	if (!cmd) {
		console_printf("unknown command '%s' (try 'help')\n", argv[0]);
		return;
	}
	shell_command_begin();
	cmd->fn(argc, argv);
	shell_command_end();
}

/* Two commands of one name would leave one unreachable: say so once. */
void shell_run(void)
{
	sort_commands();
	printk_boot_done();
	shell_input_init();
	lineedit_init(&editor, SHELL_PROMPT, write_to_console,
		      command_name_at, NULL);
	console_printf("\nQuiesce shell: 'help' lists the commands; 'exit' "
		       "(or Ctrl-A X in QEMU) leaves.\n");
	lineedit_prompt(&editor);
	for (;;) {
		const char *line = lineedit_feed(&editor, (u8)shell_getc());

		if (line) {
			run_line(line);
			lineedit_prompt(&editor);
		}
	}
}

static void list_commands(void)
{
	size_t width = 0, i;

	for (i = 0; i < nr_by_name; i++)
		width = MAX(width, strlen(by_name[i]->name));
	for (i = 0; i < nr_by_name; i++) {
		const struct shell_command *c = by_name[i];
		const char *nl = strchr(c->help, '\n');
		int first_line = nl ? (int)(nl - c->help) : (int)strlen(c->help);

		console_printf("  %-*s  %.*s\n", (int)width, c->name,
			       first_line, c->help);
	}
	console_printf("'help NAME' shows how to use one.\n");
}

static void cmd_help(int argc, char **argv)
{
	const struct shell_command *c;

	if (!shell_max_args(argc, argv, 1))
		return;
	if (argc == 1) {
		list_commands();
		return;
	}
	c = find_command(argv[1]);
	if (!c) {
		console_printf("help: no command named '%s' (try 'help')\n",
			       argv[1]);
		return;
	}
	/* The help text may be longer than one console_printf() holds. */
	console_printf("usage: %s\n", c->usage);
	console_write(c->help, strlen(c->help));
	console_write("\n", 1);
}
SHELL_COMMAND("help", "help [NAME]",
	      "list the commands, or show how to use one", cmd_help);
