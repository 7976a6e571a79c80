/*
 * The parsers accept a whole string or nothing: "12abc" is an error, not
 * 12, so a typo on the command line is reported instead of half-applied.
 */
#include "parse.h"
#include "compiler.h"
#include "string.h"

/* The value of a hex digit, or -1 for any other character. */
static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parse exactly the len characters at s (no NUL needed) as a u64. */
static int parse_u64_len(const char *s, size_t len, u64 *out)
{
	int base = 10;
	u64 v = 0;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -1;
	for (; i < len; i++) {
		int d = digit_value(s[i]);

		if (d < 0 || d >= base)
			return -1;
		if (v > (UINT64_MAX - (u64)d) / (u64)base)
			return -1;
		v = v * (u64)base + (u64)d;
	}
	*out = v;
	return 0;
}

int parse_u64(const char *s, u64 *out)
{
	if (!s)
		return -1;
	return parse_u64_len(s, strlen(s), out);
}

int parse_s64(const char *s, s64 *out)
{
	bool negative = false;
	u64 v;

	if (!s)
		return -1;
	if (*s == '-' || *s == '+') {
		negative = *s == '-';
		s++;
	}
	if (parse_u64(s, &v))
		return -1;
	if (negative) {
		if (v > (u64)INT64_MAX + 1)
			return -1;
		/* Negate in u64 first: -(INT64_MIN) does not fit in s64. */
		*out = (s64)(0 - v);
	} else {
		if (v > (u64)INT64_MAX)
			return -1;
		*out = (s64)v;
	}
	return 0;
}

int parse_size(const char *s, u64 *out)
{
	unsigned int shift = 0;
	size_t len;
	u64 v;

	if (!s)
		return -1;
	len = strlen(s);
	if (len > 0) {
		switch (s[len - 1]) {
		case 'k': case 'K':
			shift = 10;
			break;
		case 'm': case 'M':
			shift = 20;
			break;
		case 'g': case 'G':
			shift = 30;
			break;
		}
	}
	if (shift)
		len--;
	if (parse_u64_len(s, len, &v))
		return -1;
	if (v > (UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

static bool same_word(const char *a, const char *lower)
{
	for (; *a && *lower; a++, lower++) {
		char c = *a;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != *lower)
			return false;
	}
	return *a == *lower;
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "y", "yes", "on", "true" };
	static const char *const no[] = { "0", "n", "no", "off", "false" };
	size_t i;

	if (!s)
		return -1;
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (same_word(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (same_word(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static bool is_separator(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

char *next_token(char **cursor)
{
	char *p = *cursor;
	char *word;

	while (is_separator(*p))
		p++;
	if (!*p) {
		*cursor = p;
		return NULL;
	}
	word = p;
	while (*p && !is_separator(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*cursor = p;
	return word;
}

bool list_has(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && strncmp(p, word, n) == 0)
			return true;
		if (!comma)
			return false;
		p = comma + 1;
	}
}

bool list_next(const char **cursor, char *word, size_t size)
{
	const char *p = *cursor, *comma;
	size_t len;

	if (!p)
		return false;
	comma = strchr(p, ',');
	len = comma ? (size_t)(comma - p) : strlen(p);
	if (size)
		strlcpy(word, p, len + 1 < size ? len + 1 : size);
	*cursor = comma ? comma + 1 : NULL;
	return true;
}
