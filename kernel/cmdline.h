/*
 * Kernel command-line options: `key=value` words, parsed once at boot into
 * typed variables. Each subsystem declares its own options next to the
 * variable with CMDLINE_UINT/BOOL/STRING; the declarations land in one
 * linker section, so there is no central list to edit.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include "lib/compiler.h"
#include "lib/types.h"

enum cmdline_type {
	CMDLINE_TYPE_UINT,
	CMDLINE_TYPE_BOOL,
	CMDLINE_TYPE_STRING,
};

struct cmdline_option {
	const char *key;
	enum cmdline_type type;
	void *var;
	size_t size;		/* of the variable, or of the string buffer */
	u64 min, max;		/* for UINT */
	const char *help;
};

#define CMDLINE_CONCAT2(a, b)	a##b
#define CMDLINE_CONCAT(a, b)	CMDLINE_CONCAT2(a, b)

/* v may be any lvalue (a struct member too); the descriptor is named
 * after the line, so declare one option per line. */
#define CMDLINE_OPTION(k, t, v, lo, hi, h)				\
	static const struct cmdline_option CMDLINE_CONCAT(__cmdline_, __LINE__) \
	__used __section("cmdline_options") __aligned(8) = {		\
		.key = k, .type = t, .var = &v, .size = sizeof(v),	\
		.min = lo, .max = hi, .help = h,			\
	}

/* An unsigned integer (unsigned int or u64) within [lo, hi]. */
#define CMDLINE_UINT(k, v, lo, hi, h) \
	CMDLINE_OPTION(k, CMDLINE_TYPE_UINT, v, lo, hi, h)
#define CMDLINE_BOOL(k, v, h) CMDLINE_OPTION(k, CMDLINE_TYPE_BOOL, v, 0, 1, h)
/* A string copied into a char array; too long a value is refused. */
#define CMDLINE_STRING(k, v, h) \
	CMDLINE_OPTION(k, CMDLINE_TYPE_STRING, v, 0, 0, h)

void cmdline_parse(const char *cmdline);
const char *cmdline_raw(void);
void cmdline_print_options(void);

#endif
