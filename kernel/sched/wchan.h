/*
 * A sleeping thread's wait channel (Linux's wchan): what it waits on,
 * where, and since when, so that a report of a hang (hang_report.c) can
 * say what each sleeper is waiting for without walking its stack.
 *
 * The thread records it itself, where it goes to sleep: prepare_to_wait()
 * (a wait queue), sleep_ns() (a timer), and, more precisely, the
 * completion and mutex that wait on a queue. The first one recorded for a
 * wait stands: a completion's wait is not renamed after its wait queue.
 * finish_wait() and the end of a sleep clear it. A few plain stores per
 * sleep; no barrier, since only reports read it, lock-free (READ_ONCE):
 * the fields of a sleeper are still, those of a thread just waking may
 * mix two waits, and it is shown as runnable by then.
 */
#ifndef KERNEL_SCHED_WCHAN_H
#define KERNEL_SCHED_WCHAN_H

#include "kernel/time.h"
#include "lib/compiler.h"

enum wchan_kind {
	WCHAN_NONE,
	WCHAN_WAIT_QUEUE,	/* obj: the struct wait_queue */
	WCHAN_COMPLETION,	/* obj: the struct completion */
	WCHAN_MUTEX,		/* obj: the struct mutex */
	WCHAN_SLEEP,		/* obj: the sleeper's struct timer */
};

struct wchan {
	enum wchan_kind kind;
	const void *obj;
	uptr ip;		/* the code that waits */
	u64 since_ns;		/* clock_ns() when the wait began */
	u64 until_ns;		/* a sleep's deadline; 0 for none */
};

/* The caller's return address: the code that called the function that
 * records, for waits recorded inside a primitive. */
#define WCHAN_CALLER	((uptr)__builtin_return_address(0))

/* Record a wait, unless one is recorded already (see above). */
static inline void wchan_begin(struct wchan *w, enum wchan_kind kind,
			       const void *obj, uptr ip, u64 until_ns)
{
	if (w->kind != WCHAN_NONE)
		return;
	WRITE_ONCE(w->obj, obj);
	WRITE_ONCE(w->ip, ip);
	WRITE_ONCE(w->since_ns, clock_ns());
	WRITE_ONCE(w->until_ns, until_ns);
	WRITE_ONCE(w->kind, kind);
}

static inline void wchan_end(struct wchan *w)
{
	WRITE_ONCE(w->kind, WCHAN_NONE);
}

struct thread;
const char *wchan_kind_name(enum wchan_kind kind);
const char *wchan_describe(char *buf, size_t len, const struct thread *t,
			   u64 now);

#endif
