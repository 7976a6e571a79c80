/*
 * Byte-at-a-time implementations: simple and obviously correct, which
 * matters more here than speed (the kernel copies little). Under KASAN
 * the bulk functions check their whole buffers once on entry
 * (lib/compiler.h), so a copy from freed memory is reported, at the cost
 * of one check rather than one per byte.
 */
#include "string.h"
#include "compiler.h"

__no_sanitize_address void *memset(void *dst, int c, size_t n)
{
	u8 *d = dst;
	size_t i;

	sanitize_check_write(dst, n);
	for (i = 0; i < n; i++)
		d[i] = (u8)c;
	return dst;
}

__no_sanitize_address void *memcpy(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;
	size_t i;

	sanitize_check_read(src, n);
	sanitize_check_write(dst, n);
	for (i = 0; i < n; i++)
		d[i] = s[i];
	return dst;
}

/* Copies backwards when dst overlaps the end of src. */
__no_sanitize_address void *memmove(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;
	size_t i;

	sanitize_check_read(src, n);
	sanitize_check_write(dst, n);
	if ((uptr)d <= (uptr)s || (uptr)d >= (uptr)s + n) {
		for (i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		for (i = n; i > 0; i--)
			d[i - 1] = s[i - 1];
	}
	return dst;
}

__no_sanitize_address int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a;
	const u8 *y = b;
	size_t i;

	sanitize_check_read(a, n);
	sanitize_check_read(b, n);
	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/* Characters compare as unsigned char, as in the C library. */
int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, SIZE_MAX);
}

int strncmp(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		u8 x = (u8)a[i];
		u8 y = (u8)b[i];

		if (x != y)
			return x < y ? -1 : 1;
		if (!x)
			break;
	}
	return 0;
}

/* As in C, the terminating NUL counts as part of the string. */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

/*
 * Copy with truncation, always NUL-terminating when size > 0. Returns
 * strlen(src), so `strlcpy(...) >= size` means the copy was truncated.
 */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}
