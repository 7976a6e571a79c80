/*
 * The event trace: what RCU, the scheduler and the dentry cache did, and
 * when, for a timeline of grace periods (make trace). Each CPU writes
 * fixed-size binary records into its own ring, overwriting the oldest;
 * trace_dump() writes the rings to the console as checksummed text
 * chunks that tests/trace/decode turns back into records.
 *
 * trace=rcu enables RCU's events; trace=rcu,sched,dcache adds context
 * switches and the dentry cache's. Disabled, an event costs the load and
 * test of trace_enabled_mask: one predictable branch.
 */
#ifndef KERNEL_TRACE_TRACE_H
#define KERNEL_TRACE_TRACE_H

#include "lib/atomic.h"
#include "lib/compiler.h"
#include "lib/types.h"

enum trace_category {
	TRACE_RCU = 1u << 0,
	TRACE_SCHED = 1u << 1,
	TRACE_DCACHE = 1u << 2,
};

/* Event numbers are part of the dump's format: append, never renumber.
 * The dump's legend line names each (trace.c). */
enum trace_event {
	TRACE_GP_START = 1,	/* a: grace period number */
	TRACE_GP_END,		/* a: grace period number */
	TRACE_QS,		/* cpu reported; reason; a: grace period */
	TRACE_QS_FOR_IDLE,	/* GP thread reported for idle cpu; a: gp */
	TRACE_NUDGE,		/* GP thread nudged cpu to schedule; a: gp */
	TRACE_IDLE_ENTER,
	TRACE_IDLE_EXIT,
	TRACE_CB_QUEUE,		/* a: callbacks now queued on cpu */
	TRACE_CB_ADVANCE,	/* a: callbacks ready; b: grace period */
	TRACE_CB_INVOKE,	/* a: callbacks invoked in this batch */
	TRACE_EXP_START,	/* a: expedited sequence number */
	TRACE_EXP_IPI,		/* cpu asked for a report */
	TRACE_EXP_END,		/* a: expedited sequence number */
	TRACE_STALL,		/* a: grace period; b: its age in ms */
	TRACE_SWITCH,		/* a: thread id leaving; b: thread id coming */
	TRACE_DCACHE_WALK,	/* reason: how a lock-free walk ended */
	NR_TRACE_EVENTS
};

/* Why a CPU's quiescent state was reported (TRACE_QS's reason). */
enum trace_qs_reason {
	TRACE_QS_CONTEXT_SWITCH = 1,
	TRACE_QS_NUDGED,	/* a context switch the GP thread asked for */
	TRACE_QS_IDLE,
	TRACE_QS_IRQ_EXIT,	/* the end of an interrupt on an idle CPU */
	TRACE_QS_OFFLINE,
	TRACE_QS_GP_THREAD,	/* the GP thread, starting a grace period */
};

/* How a lock-free dentry-cache walk ended (TRACE_DCACHE_WALK's reason). */
enum trace_walk_result {
	TRACE_WALK_DONE = 1,	/* answered without a lock */
	TRACE_WALK_MISS,	/* a component not cached: the slow path */
	TRACE_WALK_UNSURE,	/* raced with a change: the locked walk */
};

/* One record, 24 bytes, little-endian in the dump. */
struct trace_record {
	u64 ns;			/* clock_ns() */
	u16 cpu;		/* the CPU the event is about */
	u8 event;
	u8 reason;
	u32 a;
	u64 b;
};

/* Set once from trace= at boot, cleared by trace_dump(); read without a
 * lock by every event. */
extern unsigned int trace_enabled_mask;

void trace_record_event(unsigned int cpu, enum trace_event event,
			unsigned int reason, u32 a, u64 b);

/* Whether events of `category` are being recorded. A hint: a stale
 * value records or drops one event around the moment tracing starts or
 * stops; trace_stop() waits out writers that saw it set. */
static __always_inline bool trace_on(unsigned int category)
{
	return unlikely(READ_ONCE(trace_enabled_mask) & category);
}

/* Record an event of `category` if it is enabled. Any context but NMI. */
static __always_inline void trace_event(unsigned int category,
					unsigned int cpu,
					enum trace_event event,
					unsigned int reason, u32 a, u64 b)
{
	if (trace_on(category))
		trace_record_event(cpu, event, reason, a, b);
}

/* trace=, once the command line is read and memory is up. */
void trace_init(void);
/* Start recording the categories of mask afresh (rings emptied); false
 * if mask is 0 or there is no memory. Thread context. */
bool trace_start(unsigned int mask);
/* Stop recording; returns once no CPU is writing. Thread context;
 * sleeps (a grace period). */
void trace_stop(void);
/* Stop recording and write every CPU's ring to the console. Thread
 * context; sleeps. false if tracing was never started. */
bool trace_dump(void);
/* Whether tracing has been started since boot. */
bool trace_configured(void);
/* "rcu,sched" (or "all") into a category mask; 0 after one line naming
 * a bad word. */
unsigned int trace_parse_categories(const char *spec);

struct trace_stats {
	unsigned int mask;		/* categories recording now */
	unsigned int records_per_cpu;
	u64 written;			/* records ever written, all CPUs */
};
void trace_get_stats(struct trace_stats *out);

#endif
