/* Shell commands about the machine as a whole: uptime, log, reboot,
 * poweroff. */
#include "shell.h"
#include "arch.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"
#include "lib/string.h"

#define LOG_DEFAULT_LINES	40
#define LOG_LINE_MAX		600

static void cmd_uptime(int argc, char **argv)
{
	u64 ns = clock_ns();
	u64 secs = ns / NSEC_PER_SEC;

	if (!shell_max_args(argc, argv, 0))
		return;
	console_printf("up %llu:%02llu:%02llu.%03llu, %u CPUs online, "
		       "%u threads\n", secs / 3600, secs / 60 % 60, secs % 60,
		       ns / NSEC_PER_MSEC % 1000, READ_ONCE(nr_cpus_online),
		       sched_nr_threads());
}
SHELL_COMMAND("uptime", "uptime", "time since boot, CPUs and threads",
	      cmd_uptime);

/* A log's lines in order: two passes, one to count them so the second
 * can start at the last `want`. Lines that arrive in between are shown
 * too; lines dropped in between are skipped by the ring itself. */
static void cmd_log(int argc, char **argv)
{
	static char line[LOG_LINE_MAX];
	size_t cursor = 0, held = 0, skip;
	enum log_kind which = LOG_RECENT;
	u64 want = LOG_DEFAULT_LINES;
	int arg = 1;

	if (argc >= 2 && !strcmp(argv[1], "boot")) {
		which = LOG_BOOT;
		want = ~0ull;
		arg = 2;
	}
	if (!shell_max_args(argc, argv, arg))
		return;
	if (argc > arg && !shell_parse_number(argv[0], argv[arg], "line count",
					      1, ~0ull, &want))
		return;
	while (log_read_line(which, &cursor, line, sizeof(line)))
		held++;
	skip = held > want ? held - (size_t)want : 0;
	console_printf("log: the last %zu of %zu %slines held\n", held - skip,
		       held, which == LOG_BOOT ? "boot " : "");
	cursor = 0;
	while (log_read_line(which, &cursor, line, sizeof(line))) {
		if (skip) {
			skip--;
			continue;
		}
		console_printf("%s\n", line);
	}
}
SHELL_COMMAND("log", "log [boot] [LINES]",
	      "recent kernel messages, from the printk ring\n"
	      "Shows the last LINES lines held (default 40), every level: "
	      "the console shows only up to loglevel=. 'log boot' shows the "
	      "boot's messages (all by default), kept apart from what came "
	      "after.", cmd_log);

/* reboot and poweroff announce themselves at emergency level, as Linux
 * does, so that the line reaches the console whatever loglevel= says:
 * tests/boot and make run tell a shutdown from a crash by it. */
static void cmd_reboot(int argc, char **argv)
{
	if (!shell_max_args(argc, argv, 0))
		return;
	pr_emerg("reboot: Restarting system\n");
	arch_reboot();
}
SHELL_COMMAND("reboot", "reboot",
	      "reset the machine (make run starts QEMU with -no-reboot, so "
	      "there QEMU exits instead)", cmd_reboot);

static void cmd_poweroff(int argc, char **argv)
{
	if (!shell_max_args(argc, argv, 0))
		return;
	pr_emerg("reboot: Power down\n");
	arch_poweroff();
}
SHELL_COMMAND("poweroff", "poweroff",
	      "switch the machine off (ACPI S5; under QEMU without ACPI, "
	      "isa-debug-exit): QEMU exits", cmd_poweroff);

/* What a newcomer types to leave: poweroff by other names. */
static void cmd_exit(int argc, char **argv)
{
	cmd_poweroff(argc, argv);
}
SHELL_COMMAND("exit", "exit", "leave: the same as poweroff", cmd_exit);

static void cmd_quit(int argc, char **argv)
{
	cmd_poweroff(argc, argv);
}
SHELL_COMMAND("quit", "quit", "leave: the same as poweroff", cmd_quit);
