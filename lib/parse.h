/*
 * Strict parsing of numbers and words from the command line and the shell.
 * Every parser returns 0 on success and -1 on empty input, trailing
 * garbage or overflow, leaving *out untouched on failure.
 */
#ifndef LIB_PARSE_H
#define LIB_PARSE_H

#include "types.h"

/* Decimal ("4096", leading zeros allowed, never octal) or "0x" hex. */
int parse_u64(const char *s, u64 *out);
/* As parse_u64, with an optional leading '-' or '+'. */
int parse_s64(const char *s, s64 *out);
/* As parse_u64, with an optional K, M or G suffix (either case, x1024). */
int parse_size(const char *s, u64 *out);
/* 1/y/yes/on/true or 0/n/no/off/false, in any case. */
int parse_bool(const char *s, bool *out);

/*
 * Return the next space-, tab- or newline-separated word of *cursor,
 * NUL-terminating it in place and advancing *cursor past it; NULL when no
 * words are left.
 */
char *next_token(char **cursor);

/* Is word one of the items of the comma-separated list? ("a,bc", "bc") */
bool list_has(const char *list, const char *word);
/*
 * Copy the next item of a comma-separated list at *cursor into word (cut
 * to size - 1 characters) and advance *cursor past it and its comma;
 * false once the list is used up. "a,,b" yields "a", "", "b".
 */
bool list_next(const char **cursor, char *word, size_t size);

#endif
