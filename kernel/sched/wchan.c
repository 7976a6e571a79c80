/*
 * A sleeping thread's wait channel in words (wchan.h records it): for the
 * hang report, which reads it lock-free from NMI context.
 */
#include "wchan.h"
#include "internal.h"
#include "mutex.h"
#include "kernel/ksyms.h"
#include "lib/format.h"

const char *wchan_kind_name(enum wchan_kind kind)
{
	switch (kind) {
	case WCHAN_NONE:
		return "nothing recorded";
	case WCHAN_WAIT_QUEUE:
		return "wait queue";
	case WCHAN_COMPLETION:
		return "completion";
	case WCHAN_MUTEX:
		return "mutex";
	case WCHAN_SLEEP:
		return "sleep";
	}
	return "?";
}

/* Who holds the mutex m, if anyone: a thread of the table, named, or a
 * pointer that is none (a holder that exited without unlocking). A mutex
 * a thread waits for is alive: the waiter is on its queue. */
static void describe_holder(char *buf, size_t len, const struct mutex *m)
{
	const struct thread *owner = READ_ONCE(m->owner);

	if (!owner)
		ksnprintf(buf, len, "free");
	else if (thread_in_table(owner))
		ksnprintf(buf, len, "held by %s/%llu", owner->name, owner->id);
	else
		ksnprintf(buf, len, "held by %p, no thread", owner);
}

/**
 * wchan_describe - what a sleeping thread waits on, in words
 * @buf: where to write, @len bytes
 * @t: the thread
 * @now: clock_ns(), for the times relative to it
 *
 * "completion ffff8000... in crash_lost_timer+0x5e, since 9000 ms ago".
 * Context: within thread_table_try_walk() (a mutex's holder is looked up
 * in the table, so that a freed one is never read).
 * Return: buf.
 */
const char *wchan_describe(char *buf, size_t len, const struct thread *t,
			   u64 now)
{
	enum wchan_kind kind = READ_ONCE(t->wchan.kind);
	const void *obj = READ_ONCE(t->wchan.obj);
	char where[64], since[32], extra[64];

	if (kind == WCHAN_NONE) {
		ksnprintf(buf, len, "%s", wchan_kind_name(kind));
		return buf;
	}
	ksym_format(where, sizeof(where), READ_ONCE(t->wchan.ip));
	format_ms_from_now(since, sizeof(since), READ_ONCE(t->wchan.since_ns),
			   now);
	if (kind == WCHAN_SLEEP)
		format_ms_from_now(extra, sizeof(extra),
				   READ_ONCE(t->wchan.until_ns), now);
	else if (kind == WCHAN_MUTEX)
		describe_holder(extra, sizeof(extra), obj);
	else
		ksnprintf(extra, sizeof(extra), "%p", obj);
	ksnprintf(buf, len, "%s %s%s, in %s, since %s", wchan_kind_name(kind),
		  kind == WCHAN_SLEEP ? "ending " : "", extra, where, since);
	return buf;
}
