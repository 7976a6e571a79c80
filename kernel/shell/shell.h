/*
 * The console shell: after the self-tests, kernel_init() hands COM1 to a
 * line-edited prompt (`quiesce> `) whose commands inspect the running
 * kernel. Each subsystem registers its own commands next to its code:
 *
 *	static void cmd_uptime(int argc, char **argv)
 *	{
 *		if (!shell_max_args(argc, argv, 0))
 *			return;
 *		console_printf("up ...\n");
 *	}
 *	SHELL_COMMAND("uptime", "uptime", "time since boot", cmd_uptime);
 *
 * SHELL_COMMAND places a descriptor in the shell_commands linker section
 * (as KTEST does with ktest_cases), so a new file adds commands with no
 * list to edit. A command prints with console_printf(), and a mistake in
 * its arguments as one line naming the command and what was wrong. The
 * first line of the help text is what `help` lists; `help NAME` shows the
 * usage and the whole text.
 */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include "lib/compiler.h"
#include "lib/types.h"

struct shell_command {
	const char *name;
	const char *usage;		/* "rcu [-w]" */
	const char *help;
	void (*fn)(int argc, char **argv);	/* argv[0] is the name */
};

#define SHELL_COMMAND(n, u, h, f)					\
	static const struct shell_command __shell_command_##f		\
	__used __section("shell_commands") __aligned(8) = {		\
		.name = n, .usage = u, .help = h, .fn = f,		\
	}

/* shell= on the command line; kernel_init() runs the shell if set. */
extern bool shell_enabled;

/* Read and run command lines on the console, for good. */
__noreturn void shell_run(void);

/* Argument checks that print the one line for the user themselves:
 * more than max arguments after the name draws "NAME: unexpected
 * argument 'X'"; a number outside [min, max] names what it was for. */
bool shell_max_args(int argc, char **argv, int max);
bool shell_parse_number(const char *cmd, const char *text, const char *what,
			u64 min, u64 max, u64 *out);
/* A list of names (suites, benchmarks) given by index: the nth name,
 * NULL past the last. */
typedef const char *(*shell_names_fn)(unsigned int n);
/* argv[first..] joined into a comma list for a spec (ktest=, bench=);
 * no words give "all". Each word must be "all" or one of names; else one
 * line, "CMD: no WHAT named 'X' (try 'CMD -l')", and false. */
bool shell_spec_from_words(int argc, char **argv, int first,
			   shell_names_fn names, const char *what,
			   char *spec, size_t size);
/* "TITLE: name name ...", for a command's -l. */
void shell_print_names(const char *title, shell_names_fn names);

/*
 * For long commands, which poll it at least every second: true once
 * Ctrl-C has been typed after the command's line and before any other
 * (shell_input.c says why by place, not by time). It looks at new input
 * only when called from the shell's thread; elsewhere it reports what
 * that thread saw (shell_run_long() watches for commands in threads of
 * their own).
 */
bool shell_interrupted(void);

/* A byte typed since the command began, or -1: for "until a key is
 * pressed". */
int shell_trygetc(void);

/*
 * Run fn(arg) in a thread of its own (on cpu, or on any CPU if cpu < 0)
 * while the shell watches: Ctrl-C sets *stop, which fn polls, and a
 * second without console output draws a line saying the command is still
 * running, so a long command always shows progress. Returns once fn has;
 * false, with a message, if no thread could be started.
 */
bool shell_run_long(const char *name, void (*fn)(void *arg), void *arg,
		    bool *stop, int cpu);

#endif
