/*
 * Memory and string functions. The kernel gets the standard names, which
 * gcc also calls on its own (struct copies, large initialisers).
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include "types.h"

/*
 * Host unit tests (-DLIB_HOST_TEST) must not replace libc's functions, so
 * there these names become lib_memcpy etc. in lib/string.c and in every
 * file that includes this header; include system headers before it.
 */
#ifdef LIB_HOST_TEST
#define memset	lib_memset
#define memcpy	lib_memcpy
#define memmove	lib_memmove
#define memcmp	lib_memcmp
#define strlen	lib_strlen
#define strnlen	lib_strnlen
#define strcmp	lib_strcmp
#define strncmp	lib_strncmp
#define strchr	lib_strchr
#define strlcpy	lib_strlcpy
#endif

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
size_t strlcpy(char *dst, const char *src, size_t size);

#endif
