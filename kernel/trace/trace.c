/*
 * The event trace (trace.h says what it records). Each CPU owns a ring of
 * trace.records records and writes it with interrupts off, so a record is
 * never torn by another writer; the ring keeps the newest records.
 *
 * The dump is text that survives a serial console shared with printk:
 *
 *   @trace begin v1 cpus=4 records=4096 categories=rcu,sched
 *   @trace legend 1=gp_start 2=gp_end ...
 *   @trace ring cpu=0 records=4096 overwritten=17000
 *   @trace chunk 0 1c291ca3 <base64 of up to 32 records of that ring>
 *   ...
 *   @trace end chunks=K records=N overwritten=M
 *
 * Each chunk is one console write (no printk line splits it), numbered,
 * and carries the CRC-32 of its bytes, so the decoder can tell a chunk
 * lost or damaged from a short trace.
 */
#include "trace.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/rcu/rcupdate.h"
#include "lib/codec.h"
#include "lib/format.h"
#include "lib/parse.h"
#include "lib/string.h"
#include "arch.h"

#define RECORDS_PER_CHUNK	32

struct trace_ring {
	struct trace_record *records;
	u64 head;	/* records ever written: its CPU's, or trace_start()'s
			 * while recording is stopped */
};

unsigned int trace_enabled_mask;
static DEFINE_PERCPU_ARRAY(struct trace_ring, rings);
static unsigned int ring_records = 4096;
static unsigned int configured_mask;

static char trace_spec[48];
CMDLINE_STRING("trace", trace_spec,
	       "event trace for make trace: a comma list of rcu, sched, "
	       "dcache (or all); dumped at the end of ktest= and bench=");
CMDLINE_UINT("trace.records", ring_records, 64, 1u << 20,
	     "event trace: records kept per CPU (the newest)");

static const char *const category_names[] = { "rcu", "sched", "dcache" };

static const char *const event_names[NR_TRACE_EVENTS] = {
	[TRACE_GP_START] = "gp_start",
	[TRACE_GP_END] = "gp_end",
	[TRACE_QS] = "qs",
	[TRACE_QS_FOR_IDLE] = "qs_for_idle",
	[TRACE_NUDGE] = "nudge",
	[TRACE_IDLE_ENTER] = "idle_enter",
	[TRACE_IDLE_EXIT] = "idle_exit",
	[TRACE_CB_QUEUE] = "cb_queue",
	[TRACE_CB_ADVANCE] = "cb_advance",
	[TRACE_CB_INVOKE] = "cb_invoke",
	[TRACE_EXP_START] = "exp_start",
	[TRACE_EXP_IPI] = "exp_ipi",
	[TRACE_EXP_END] = "exp_end",
	[TRACE_STALL] = "stall",
	[TRACE_SWITCH] = "switch",
	[TRACE_DCACHE_WALK] = "dcache_walk",
};

void trace_record_event(unsigned int cpu, enum trace_event event,
			unsigned int reason, u32 a, u64 b)
{
	unsigned long flags = arch_irq_save();
	struct trace_ring *ring = &rings[this_cpu_id()];
	struct trace_record *r;

	/* A CPU with no ring (its allocation failed) records nothing. */
	if (ring->records) {
		r = &ring->records[ring->head % ring_records];
		r->ns = clock_ns();
		r->cpu = (u16)cpu;
		r->event = (u8)event;
		r->reason = (u8)reason;
		r->a = a;
		r->b = b;
		/* Only this CPU writes head; the dump reads it once
		 * recording has stopped (see trace_dump()). */
		ring->head++;
	}
	arch_irq_restore(flags);
}

/* The bits one word of trace= names; 0 for an unknown word. */
static unsigned int category_bits(const char *word)
{
	unsigned int i;

	if (!strcmp(word, "all"))
		return TRACE_RCU | TRACE_SCHED | TRACE_DCACHE;
	for (i = 0; i < ARRAY_SIZE(category_names); i++)
		if (!strcmp(word, category_names[i]))
			return 1u << i;
	return 0;
}

/* "rcu,sched" into a mask; 0, after one line naming the bad word, if a
 * word is not a category. */
static unsigned int parse_categories(const char *spec)
{
	const char *cursor = spec;
	unsigned int mask = 0, bits;
	char word[16];

	while (list_next(&cursor, word, sizeof(word))) {
		bits = category_bits(word);
		if (!bits) {
			pr_err("trace: '%s': unknown category '%s'; expected a "
			       "comma list of rcu, sched, dcache, or all; "
			       "tracing off\n", spec, word);
			return 0;
		}
		mask |= bits;
	}
	return mask;
}

/* Give every CPU a ring, emptied; false if memory ran out. */
static bool rings_ready(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!rings[cpu].records)
			rings[cpu].records = kmalloc(ring_records *
						     sizeof(struct trace_record));
		if (!rings[cpu].records) {
			pr_err("trace: no memory for %u records on cpu%u; "
			       "tracing off (try a smaller trace.records)\n",
			       ring_records, cpu);
			return false;
		}
		rings[cpu].head = 0;
	}
	return true;
}

bool trace_start(unsigned int mask)
{
	/* The rings are emptied below: no CPU may be writing them. */
	if (READ_ONCE(trace_enabled_mask))
		trace_stop();
	if (!mask || !rings_ready())
		return false;
	configured_mask = mask;
	/* Publishes the rings: the store comes after them in program
	 * order, and x86 (TSO) keeps stores in order, so a CPU that sees
	 * the mask sees its ring. A CPU that sees the mask late only
	 * misses its first events. */
	smp_store_release(&trace_enabled_mask, mask);
	return true;
}

void trace_stop(void)
{
	WRITE_ONCE(trace_enabled_mask, 0);
	/* Writers record with interrupts off, so none that saw the mask
	 * set is still writing once every CPU has passed a quiescent
	 * state: RCU's own guarantee, used on RCU's tracer. */
	synchronize_rcu();
}

__init void trace_init(void)
{
	unsigned int mask;

	if (!trace_spec[0] || !strcmp(trace_spec, "none"))
		return;
	mask = parse_categories(trace_spec);
	if (mask && trace_start(mask))
		pr_info("trace: recording %s, %u records per CPU\n",
			trace_spec, ring_records);
}

bool trace_configured(void)
{
	return configured_mask != 0;
}

unsigned int trace_parse_categories(const char *spec)
{
	return parse_categories(spec);
}

void trace_get_stats(struct trace_stats *out)
{
	unsigned int cpu;

	out->mask = READ_ONCE(trace_enabled_mask);
	out->records_per_cpu = ring_records;
	out->written = 0;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		out->written += READ_ONCE(rings[cpu].head);
}

/* One chunk line: its number, the CRC of its bytes, and the bytes. */
static void dump_chunk(unsigned int seq, const struct trace_record *r,
		       unsigned int n)
{
	static char line[48 + (RECORDS_PER_CHUNK * sizeof(*r) + 2) / 3 * 4];
	size_t len = sizeof(*r) * n;
	int head = ksnprintf(line, sizeof(line), "@trace chunk %u %08x ", seq,
			     crc32_update(0, r, len));

	head += base64_encode(r, len, line + head);
	line[head++] = '\n';
	console_write(line, head);
}

static void dump_legend(void)
{
	unsigned int e;

	console_printf("@trace legend");
	for (e = 1; e < NR_TRACE_EVENTS; e++)
		console_printf(" %u=%s", e, event_names[e]);
	console_printf("\n");
}

bool trace_dump(void)
{
	static struct trace_record chunk[RECORDS_PER_CHUNK];
	unsigned int cpu, n = 0, seq = 0, i;
	u64 total = 0, overwritten = 0, first, k;

	if (!configured_mask)
		return false;
	trace_stop();
	console_printf("@trace begin v1 cpus=%u records=%u categories=",
		       nr_cpus, ring_records);
	for (i = 0; i < ARRAY_SIZE(category_names); i++)
		if (configured_mask & (1u << i))
			console_printf("%s%s", n++ ? "," : "",
				       category_names[i]);
	console_printf("\n");
	dump_legend();
	n = 0;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct trace_ring *ring = &rings[cpu];

		if (!ring->records)
			continue;
		first = ring->head > ring_records ? ring->head - ring_records : 0;
		console_printf("@trace ring cpu=%u records=%llu overwritten=%llu\n",
			       cpu, ring->head - first, first);
		overwritten += first;
		for (k = first; k < ring->head; k++) {
			chunk[n++] = ring->records[k % ring_records];
			/* A chunk holds one ring's records only. */
			if (n == RECORDS_PER_CHUNK || k + 1 == ring->head) {
				dump_chunk(seq++, chunk, n);
				n = 0;
			}
		}
		total += ring->head - first;
	}
	console_printf("@trace end chunks=%u records=%llu overwritten=%llu\n",
		       seq, total, overwritten);
	return true;
}

/* After the self-tests and the benchmarks: their trace, if one was
 * asked for. Never fails the run. */
static bool dump_after_runs(void)
{
	trace_dump();
	return true;
}
LATE_WORK(LATE_WORK_TRACE, dump_after_runs);
