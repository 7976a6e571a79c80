/*
 * Kernel messages. printk() prefixes every line with the time since boot
 * and the CPU, `[    0.012345] cpu3: online`, writes it to the console
 * whole (lines from different CPUs never interleave) and keeps it in a
 * ring of recent messages for the shell's `log`.
 *
 * console_printf() writes raw text, no prefix and not logged: the shell's
 * and the test runner's own output.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "lib/compiler.h"
#include "lib/types.h"
#include <stdarg.h>

enum log_level {
	LOG_EMERG,
	LOG_ERR = 3,
	LOG_WARNING,
	LOG_NOTICE,
	LOG_INFO,
	LOG_DEBUG,
};

__printf(2, 3) void printk_level(int level, const char *fmt, ...);
void vprintk_level(int level, const char *fmt, va_list ap);

#define printk(...)	printk_level(LOG_INFO, __VA_ARGS__)
#define pr_emerg(...)	printk_level(LOG_EMERG, __VA_ARGS__)
#define pr_err(...)	printk_level(LOG_ERR, __VA_ARGS__)
#define pr_warn(...)	printk_level(LOG_WARNING, __VA_ARGS__)
#define pr_info(...)	printk_level(LOG_INFO, __VA_ARGS__)
#define pr_debug(...)	printk_level(LOG_DEBUG, __VA_ARGS__)

__printf(1, 2) void console_printf(const char *fmt, ...);
void console_vprintf(const char *fmt, va_list ap);
void console_write(const char *s, size_t len);

/* Bytes written to the console so far: lets the shell tell whether a
 * long command has printed anything lately. */
u64 console_output_count(void);

/* For the panic path: stop honouring the console lock after a short wait,
 * since the CPU that held it may have died holding it. */
void console_enter_panic_mode(void);
/* For a report printed in NMI context: see printk.c. */
bool console_nmi_begin(void);
void console_nmi_end(void);

enum log_kind {
	LOG_RECENT,	/* the newest messages, boot's included */
	LOG_BOOT,	/* the messages up to printk_boot_done() */
};

/* Iterate over a retained log: returns the next line's length, 0 at end. */
size_t log_read_line(enum log_kind which, size_t *cursor, char *out,
		     size_t outsz);
/* The boot is over (the shell starts): later messages go to the recent
 * log only, so that the boot's stay readable with `log boot`. */
void printk_boot_done(void);

#endif
