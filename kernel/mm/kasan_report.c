/*
 * KASAN's reports, in the shape of Linux's, so that a kernel engineer
 * reads them at once: what the access was, the call trace, who allocated
 * and freed the object, what RCU work freed it ("last potentially related
 * work creation": the call_rcu() or kfree_rcu() and its grace period),
 * where the address lies in its object, and the shadow around it.
 *
 * Only the first report is printed, as Linux does by default: later ones
 * are often the same bug seen again. kasan.multi_shot=1 prints them all.
 * The run goes on after a report; the boot harness fails it on the BUG
 * line. Built without instrumentation; while a CPU prints a report it
 * checks nothing, since printk and the backtrace are instrumented.
 */
#include "kasan_internal.h"
#include "kmalloc.h"
#include "page_alloc.h"
#include "stackdepot.h"
#include "kernel/cmdline.h"
#include "kernel/ksyms.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/spinlock.h"
#include "lib/atomic.h"
#include "lib/format.h"

#define SHADOW_ROWS_AROUND	2
#define SHADOW_ROW_BYTES	16

static bool multi_shot;
CMDLINE_BOOL("kasan.multi_shot", multi_shot,
	     "print every KASAN report, not only the first");

static DEFINE_SPINLOCK(report_lock);
static DEFINE_PERCPU_ARRAY_BOOT(bool, reporting, NULL, false);
static u32 reports;
/* Reports being printed; while none is, no check reads its CPU's flag.
 * An AP runs instrumented code before its per-CPU area is set, and then
 * is not the one reporting. */
static u32 reports_running;

bool kasan_report_running_here(void)
{
	return unlikely(READ_ONCE(reports_running)) && arch_percpu_ready() &&
	       READ_ONCE(reporting[this_cpu_id()]);
}

/* The first poisoned shadow byte of the access, past a partial granule
 * (whose value only says how much of it is valid). */
static u8 first_bad_code(uptr addr, size_t size)
{
	uptr g;

	for (g = ALIGN_DOWN(addr, KASAN_GRANULE); g < addr + size;
	     g += KASAN_GRANULE) {
		s8 s = kasan_shadow_byte(g);

		if (s > 0 && s < KASAN_GRANULE)
			return (u8)kasan_shadow_byte(g + KASAN_GRANULE);
		if (s)
			return (u8)s;
	}
	return 0;
}

static const char *bug_type(uptr addr, size_t size)
{
	if (addr + size < addr)
		return "wild-memory-access";
	switch (first_bad_code(addr, size)) {
	case 0:
	case KASAN_SLAB_REDZONE:
		return "slab-out-of-bounds";
	case KASAN_PAGE_REDZONE:
		return "page-out-of-bounds";
	case KASAN_SLAB_FREE:
	case KASAN_PAGE_FREE:
		return "use-after-free";
	case KASAN_GLOBAL_REDZONE:
		return "global-out-of-bounds";
	case KASAN_STACK_LEFT:
	case KASAN_STACK_MID:
	case KASAN_STACK_RIGHT:
		return "stack-out-of-bounds";
	case KASAN_USE_AFTER_SCOPE:
		return "stack-use-after-scope";
	case KASAN_ALLOCA_LEFT:
	case KASAN_ALLOCA_RIGHT:
		return "alloca-out-of-bounds";
	default:
		return "unknown-crash";
	}
}

static void print_track(const char *what, const struct kasan_track *t)
{
	pr_err("%s by thread %u on cpu %u:\n", what, t->thread_id, t->cpu);
	stack_depot_print(t->stack);
}

static void print_aux(const struct kasan_meta *meta)
{
	pr_err("Last potentially related work creation:\n");
	/* For kfree_rcu(), the grace period it would wait for if queued
	 * at once: its block may be queued, and wait, later. */
	pr_err("%s, for after grace period %u, by thread %u on cpu %u:\n",
	       meta->aux.kind == KASAN_AUX_KFREE_RCU ? "kfree_rcu()"
						     : "call_rcu()",
	       meta->aux_gp, meta->aux.thread_id, meta->aux.cpu);
	stack_depot_print(meta->aux.stack);
}

/* The object the address is in, if it is in one: its tracks and where
 * in it the address lies. */
static void print_object(uptr addr)
{
	const struct kasan_meta *meta;
	void *obj;
	size_t slot_size;
	uptr start;
	u32 state;

	if (!kmalloc_find_object((const void *)addr, &obj, &slot_size))
		return;
	meta = kasan_meta_of(obj, slot_size);
	/* Another CPU may free it meanwhile: the report shows a moment. */
	state = READ_ONCE(meta->state);
	if (state != KASAN_OBJECT_LIVE && state != KASAN_OBJECT_QUARANTINED &&
	    state != KASAN_OBJECT_FREED) {
		pr_err("The buggy address is in a never allocated slot of "
		       "kmalloc-%zu\n", slot_size);
		return;
	}
	start = (uptr)obj;
	pr_err("\n");
	print_track("Allocated", &meta->alloc);
	if (meta->free.kind)
		print_track("Freed", &meta->free);
	if (meta->aux.kind)
		print_aux(meta);
	pr_err("\nThe buggy address belongs to the object at %016lx\n"
	       " which belongs to the cache kmalloc-%zu of size %zu\n",
	       start, slot_size, slot_size);
	if (addr < start + meta->size)
		pr_err("The buggy address is located %lu bytes inside of\n",
		       addr - start);
	else
		pr_err("The buggy address is located %lu bytes to the right "
		       "of\n", addr - start - meta->size);
	pr_err(" %u-byte region [%016lx, %016lx)\n", meta->size, start,
	       start + meta->size);
}

/* Rows of shadow, one byte per granule, around the address. */
static void print_shadow(uptr addr)
{
	uptr row = ALIGN_DOWN(addr, SHADOW_ROW_BYTES * KASAN_GRANULE);
	uptr first = row - SHADOW_ROWS_AROUND * SHADOW_ROW_BYTES *
				   KASAN_GRANULE;
	int r, i;

	pr_err("\nMemory state around the buggy address:\n");
	for (r = 0; r <= 2 * SHADOW_ROWS_AROUND; r++) {
		uptr at = first + (uptr)r * SHADOW_ROW_BYTES * KASAN_GRANULE;
		char line[SHADOW_ROW_BYTES * 3 + 1];

		if (!kasan_checked_address(at))
			continue;
		for (i = 0; i < SHADOW_ROW_BYTES; i++) {
			u8 s = (u8)kasan_shadow_byte(at + i * KASAN_GRANULE);

			line[3 * i] = ' ';
			line[3 * i + 1] = "0123456789abcdef"[s >> 4];
			line[3 * i + 2] = "0123456789abcdef"[s & 15];
		}
		line[sizeof(line) - 1] = '\0';
		pr_err("%c%016lx:%s\n", at == row ? '>' : ' ', at, line);
	}
}

/* One report at a time, machine-wide; false if this one is not to be
 * printed (not the first, without multi_shot). */
static bool report_begin(unsigned long *flags)
{
	if (atomic_fetch_add(&reports, 1) && !READ_ONCE(multi_shot))
		return false;
	atomic_fetch_add(&reports_running, 1);
	WRITE_ONCE(reporting[this_cpu_id()], true);
	*flags = spin_lock_irqsave(&report_lock);
	pr_err("==================================================="
	       "===============\n");
	return true;
}

static void report_end(unsigned long flags)
{
	pr_err("==================================================="
	       "===============\n");
	spin_unlock_irqrestore(&report_lock, flags);
	WRITE_ONCE(reporting[this_cpu_id()], false);
	atomic_fetch_sub(&reports_running, 1);
}

static void print_where(const char *type, uptr ip)
{
	uptr off = 0, size = 0;
	const char *sym = ksym_lookup(ip, &off, &size);

	pr_err("BUG: KASAN: %s in %s+%#lx/%#lx\n", type, sym ? sym : "?", off,
	       size);
}

/* "thread 7 (rcuc/1)", as the tracks name threads by id. */
static const char *current_name(char *buf, size_t len)
{
	const struct thread *t = current_thread();

	if (!t)
		return "?";
	ksnprintf(buf, len, "%llu (%s)", t->id, t->name);
	return buf;
}

void kasan_report_access(uptr addr, size_t size, bool write, uptr ip)
{
	unsigned long flags;
	char name[48];

	if (!report_begin(&flags))
		return;
	print_where(bug_type(addr, size), ip);
	pr_err("%s of size %zu at addr %016lx by thread %s on cpu %u\n",
	       write ? "Write" : "Read", size, addr,
	       current_name(name, sizeof(name)), this_cpu_id());
	pr_err("Call Trace:\n");
	arch_dump_stack();
	print_object(addr);
	print_shadow(addr);
	report_end(flags);
}

void kasan_report_bad_free(const void *obj, const char *kind, uptr ip)
{
	unsigned long flags;
	char name[48];

	if (!report_begin(&flags))
		return;
	print_where(kind, ip);
	pr_err("kfree(%p) by thread %s on cpu %u\n", obj,
	       current_name(name, sizeof(name)), this_cpu_id());
	pr_err("Call Trace:\n");
	arch_dump_stack();
	print_object((uptr)obj);
	print_shadow((uptr)obj);
	report_end(flags);
}
