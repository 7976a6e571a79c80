/*
 * Long commands (test, torture) run in a worker thread while the shell's
 * thread watches them. The work itself cannot look at the console: the
 * self-test runner and rcutorture wait in their own loops and only read
 * a stop flag. So the watcher turns Ctrl-C into that flag, and fills any
 * second in which the work printed nothing with a line of its own.
 */
#include "shell.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"

#define WATCH_POLL_MS		50
#define QUIET_LIMIT_NS		NSEC_PER_SEC

struct long_run {
	void (*fn)(void *arg);
	void *arg;
	bool done;		/* WRITE_ONCE by the worker, READ_ONCE here */
};

static void long_run_body(void *p)
{
	struct long_run *run = p;

	run->fn(run->arg);
	WRITE_ONCE(run->done, true);
}

/* Poll rather than sleep on the worker: Ctrl-C and the clock must be
 * looked at while it runs, and a poll every 50 ms costs the CPUs under
 * test nothing worth measuring. */
static void watch(const char *name, struct long_run *run, bool *stop)
{
	u64 start = clock_ns(), quiet_since = start;
	u64 printed = console_output_count();

	while (!READ_ONCE(run->done)) {
		u64 now;

		sleep_ms(WATCH_POLL_MS);
		now = clock_ns();
		if (!READ_ONCE(*stop) && shell_interrupted()) {
			console_printf("^C: stopping %s\n", name);
			/* Read by the worker with READ_ONCE. */
			WRITE_ONCE(*stop, true);
		}
		if (console_output_count() != printed) {
			quiet_since = now;
		} else if (now - quiet_since >= QUIET_LIMIT_NS) {
			console_printf("# %s: still running after %llu s%s\n",
				       name, (now - start) / NSEC_PER_SEC,
				       READ_ONCE(*stop) ? ", stopping" :
				       " (Ctrl-C stops it)");
			quiet_since = now;
		}
		printed = console_output_count();
	}
}

bool shell_run_long(const char *name, void (*fn)(void *arg), void *arg,
		    bool *stop, int cpu)
{
	struct long_run run = { .fn = fn, .arg = arg, .done = false };
	struct thread *worker;

	WRITE_ONCE(*stop, false);
	if (cpu >= 0)
		worker = thread_create_on(long_run_body, &run, name,
					  (unsigned int)cpu);
	else
		worker = thread_create(long_run_body, &run, name);
	if (!worker) {
		console_printf("%s: could not start a thread for it\n", name);
		return false;
	}
	watch(name, &run, stop);
	thread_join(worker);
	return true;
}
