/* The shell's trace: start, stop and dump the event trace (kernel/trace/). */
#include "shell.h"
#include "kernel/printk.h"
#include "kernel/trace/trace.h"
#include "lib/string.h"

static void print_status(void)
{
	struct trace_stats s;

	trace_get_stats(&s);
	console_printf("trace: %s, %u records per CPU, %llu written since it "
		       "started\n", s.mask ? "recording" : "stopped",
		       s.records_per_cpu, s.written);
}

static void cmd_trace(int argc, char **argv)
{
	unsigned int mask;

	if (argc == 1) {
		print_status();
		return;
	}
	if (!strcmp(argv[1], "on")) {
		if (!shell_max_args(argc, argv, 2))
			return;
		mask = trace_parse_categories(argc > 2 ? argv[2] : "rcu");
		if (mask && trace_start(mask))
			console_printf("trace: recording; 'trace dump' writes it "
				       "out for tests/trace/decode\n");
	} else if (!strcmp(argv[1], "off")) {
		if (shell_max_args(argc, argv, 1))
			trace_stop();
	} else if (!strcmp(argv[1], "dump")) {
		if (shell_max_args(argc, argv, 1) && !trace_dump())
			console_printf("trace: nothing recorded; start with "
				       "'trace on [rcu,sched,dcache]'\n");
	} else {
		console_printf("trace: unknown subcommand '%s'; expected on, "
			       "off or dump\n", argv[1]);
	}
}
SHELL_COMMAND("trace", "trace [on [rcu,sched,dcache|all] | off | dump]",
	      "the event trace: status, start (rcu by default), stop, or "
	      "dump for tests/trace/decode (make trace does it all)",
	      cmd_trace);
