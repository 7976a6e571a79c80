/*
 * printf-style formatting without floating point: %d %i %u %x %X %o %c %s
 * %p %% with flags "-0 +#", width, precision ('*' too) and the length
 * modifiers hh h l ll z t j. An unknown conversion is printed as written.
 * %p is always "0x" and 16 hex digits; a NULL %s prints "(null)".
 */
#ifndef LIB_FORMAT_H
#define LIB_FORMAT_H

#include <stdarg.h>
#include "compiler.h"

/* The engine: hands each output character to emit(ctx, c), in order. */
__printf(3, 0) void kvformat(void (*emit)(void *ctx, char c), void *ctx,
			     const char *fmt, va_list ap);

/*
 * C99 snprintf semantics: writes at most size bytes, NUL-terminated when
 * size > 0, and returns the length the whole output would have had.
 */
__printf(3, 0) int kvsnprintf(char *buf, size_t size, const char *fmt,
			      va_list ap);
__printf(3, 4) int ksnprintf(char *buf, size_t size, const char *fmt, ...);

#endif
