/*
 * printk and the console lock.
 *
 * A message is formatted first, into a buffer on the caller's stack, and
 * only then written out under the console lock, so the lock is held for
 * the UART time of one message and never while formatting. The lock is a
 * ticket lock taken with interrupts off: an interrupt handler may printk.
 */
#include "printk.h"
#include "cmdline.h"
#include "percpu.h"
#include "time.h"
#include "kernel/sched/spinlock.h"
#include "lib/format.h"
#include "lib/ringbuf.h"
#include "lib/string.h"

#define MSG_MAX		512
#define LINE_MAX	(MSG_MAX + 32)
#define LOG_RING_SIZE	(64 * 1024)
#define BOOT_LOG_SIZE	(32 * 1024)
/* How long the panic path waits for the console lock before taking it. */
#define PANIC_LOCK_WAIT_NS	(100 * NSEC_PER_MSEC)

static DEFINE_SPINLOCK(console_lock);
static DEFINE_SPINLOCK(log_lock);
static bool console_panic_mode;
/* Bytes written to the console, under console_lock (WRITE_ONCE); read
 * without it by console_output_count() (READ_ONCE). */
static u64 console_bytes;
static char log_storage[LOG_RING_SIZE];
static struct line_ring log_ring;
static bool log_ready;
/* The boot's messages, kept apart until the shell starts (printk_boot_
 * done()), so that a long command's output cannot push them out of the
 * log ring. Under log_lock. */
static char boot_log_storage[BOOT_LOG_SIZE];
static struct line_ring boot_log_ring;
static bool boot_log_open = true;

/* The CPU printing a report from NMI context (console_nmi_begin()), or
 * NO_NMI_PRINTER. Only that CPU stores its own number here, so another
 * CPU never mistakes itself for it. */
#define NO_NMI_PRINTER	(~0u)
static unsigned int nmi_printer = NO_NMI_PRINTER;
static bool nmi_printer_locked;	/* it holds console_lock */

static unsigned int loglevel = LOG_INFO;
CMDLINE_UINT("loglevel", loglevel, 0, 7,
	     "console shows messages up to this level, 7 = debug");

/* Which CPU is printing: before the per-CPU areas exist GS is 0, and
 * reading %gs:... would fault, so early messages say cpu0. */
static unsigned int printing_cpu(void)
{
	return percpu_areas[0].self ? this_cpu_id() : 0;
}

/* Whether this CPU prints an NMI's report, which took the console lock
 * once for all its lines, or went without it. */
static bool nmi_printing_here(void)
{
	return READ_ONCE(nmi_printer) == printing_cpu();
}

/* In panic mode, wait a bounded time and then write regardless. */
static unsigned long console_lock_acquire(void)
{
	unsigned long flags = arch_irq_save();
	u64 deadline;

	if (nmi_printing_here())
		return flags;
	if (!READ_ONCE(console_panic_mode)) {
		raw_spin_lock(&console_lock);
		return flags;
	}
	deadline = clock_ns() + PANIC_LOCK_WAIT_NS;
	while (!raw_spin_trylock(&console_lock)) {
		if (clock_ns() > deadline) {
			spin_lock_init(&console_lock);
			raw_spin_trylock(&console_lock);
			break;
		}
		arch_cpu_relax();
	}
	return flags;
}

static void console_lock_release(unsigned long flags)
{
	if (!nmi_printing_here())
		raw_spin_unlock(&console_lock);
	arch_irq_restore(flags);
}

/**
 * console_nmi_begin - print from NMI context until console_nmi_end()
 *
 * The interrupted code may hold the console lock (or the log's) on this
 * very CPU, so an NMI must never wait for it: this tries for a bounded
 * time, and the NMI's lines then go out under it, or without it (they
 * may then mix with another CPU's line) if it stayed busy. Unlike panic
 * mode, the lock is never broken: the interrupted holder still owns it.
 * Context: NMI, one CPU at a time.
 * Return: whether the lines go out under the lock.
 */
bool console_nmi_begin(void)
{
	u64 deadline = clock_ns() + PANIC_LOCK_WAIT_NS;
	bool locked;

	while (!(locked = raw_spin_trylock(&console_lock)) &&
	       clock_ns() < deadline)
		arch_cpu_relax();
	nmi_printer_locked = locked;
	WRITE_ONCE(nmi_printer, printing_cpu());
	return locked;
}

/* The end of what console_nmi_begin() began. */
void console_nmi_end(void)
{
	WRITE_ONCE(nmi_printer, NO_NMI_PRINTER);
	if (nmi_printer_locked)
		raw_spin_unlock(&console_lock);
}

u64 console_output_count(void)
{
	return READ_ONCE(console_bytes);
}

void console_enter_panic_mode(void)
{
	WRITE_ONCE(console_panic_mode, true);
}

/* Serial terminals want CR LF. */
static void console_emit(const char *s, size_t len)
{
	size_t i;

	WRITE_ONCE(console_bytes, console_bytes + len);
	for (i = 0; i < len; i++) {
		if (s[i] == '\n')
			arch_console_putc('\r');
		arch_console_putc(s[i]);
	}
}

void console_write(const char *s, size_t len)
{
	unsigned long flags = console_lock_acquire();

	console_emit(s, len);
	console_lock_release(flags);
}

void console_vprintf(const char *fmt, va_list ap)
{
	char buf[MSG_MAX];
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);

	console_write(buf, MIN((size_t)n, sizeof(buf) - 1));
}

void console_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	console_vprintf(fmt, ap);
	va_end(ap);
}

static void push_line(const char *line, size_t len)
{
	line_ring_push(&log_ring, line, len);
	if (boot_log_open)
		line_ring_push(&boot_log_ring, line, len);
}

static void log_store(const char *line, size_t len)
{
	unsigned long flags;

	if (!log_ready)
		return;
	/* An NMI's line is kept only if the log is free: the code the NMI
	 * interrupted may hold its lock. */
	if (nmi_printing_here()) {
		if (!raw_spin_trylock(&log_lock))
			return;
		push_line(line, len);
		raw_spin_unlock(&log_lock);
		return;
	}
	flags = spin_lock_irqsave(&log_lock);
	push_line(line, len);
	spin_unlock_irqrestore(&log_lock, flags);
}

size_t log_read_line(enum log_kind which, size_t *cursor, char *out,
		     size_t outsz)
{
	unsigned long flags = spin_lock_irqsave(&log_lock);
	size_t n = line_ring_read(which == LOG_BOOT ? &boot_log_ring :
				  &log_ring, cursor, out, outsz);

	spin_unlock_irqrestore(&log_lock, flags);
	return n;
}

void printk_boot_done(void)
{
	unsigned long flags = spin_lock_irqsave(&log_lock);

	boot_log_open = false;
	spin_unlock_irqrestore(&log_lock, flags);
}

void vprintk_level(int level, const char *fmt, va_list ap)
{
	char msg[MSG_MAX];
	char line[LINE_MAX];
	u64 now = clock_ns();
	unsigned int cpu = printing_cpu();
	char *start = msg;
	unsigned long flags;

	kvsnprintf(msg, sizeof(msg), fmt, ap);
	if (!log_ready) {
		line_ring_init(&log_ring, log_storage, sizeof(log_storage));
		line_ring_init(&boot_log_ring, boot_log_storage,
			       sizeof(boot_log_storage));
		log_ready = true;
	}

	flags = console_lock_acquire();
	while (*start) {
		char *nl = strchr(start, '\n');
		size_t body = nl ? (size_t)(nl - start) : strlen(start);
		int n = ksnprintf(line, sizeof(line),
				  "[%5llu.%06llu] cpu%u: %.*s\n",
				  (unsigned long long)(now / NSEC_PER_SEC),
				  (unsigned long long)(now % NSEC_PER_SEC / 1000),
				  cpu, (int)body, start);
		size_t len = MIN((size_t)n, sizeof(line) - 1);

		if ((unsigned int)level <= loglevel || console_panic_mode)
			console_emit(line, len);
		log_store(line, len - 1);
		start += body + (nl ? 1 : 0);
	}
	console_lock_release(flags);
}

void printk_level(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintk_level(level, fmt, ap);
	va_end(ap);
}
