/*
 * One formatting engine, kvformat(), emitting characters through a
 * callback; kvsnprintf() is the callback that fills a buffer, and the
 * kernel's console uses another that writes to the UART.
 */
#include "format.h"
#include "string.h"

/* Widths and precisions are clamped here, so no arithmetic overflows. */
#define FIELD_MAX	(1 << 24)

/*
 * A length modifier only decides how wide the argument is: l, ll, z, t
 * and j all name 64-bit types on x86-64, which are passed alike.
 */
static_assert(sizeof(long) == 8 && sizeof(size_t) == 8 &&
	      sizeof(ptrdiff_t) == 8 && sizeof(intmax_t) == 8,
	      "64-bit length modifiers");

struct spec {
	bool left;		/* '-' */
	bool zero;		/* '0' */
	bool space;		/* ' ' */
	bool plus;		/* '+' */
	bool alt;		/* '#' */
	int width;
	int prec;		/* -1 when not given */
	int bits;		/* argument width: 8, 16, 32 or 64 */
	char conv;
};

struct sink {
	void (*emit)(void *ctx, char c);
	void *ctx;
};

static void put_repeat(const struct sink *k, char c, int n)
{
	for (; n > 0; n--)
		k->emit(k->ctx, c);
}

static void put_chars(const struct sink *k, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		k->emit(k->ctx, s[i]);
}

/* A width or precision: digits, or '*' taking an int argument. */
static int parse_field(const char **p, va_list *ap)
{
	int n = 0;

	if (**p == '*') {
		(*p)++;
		n = va_arg(*ap, int);
		return n < -FIELD_MAX ? -FIELD_MAX : MIN(n, FIELD_MAX);
	}
	for (; **p >= '0' && **p <= '9'; (*p)++)
		if (n < FIELD_MAX)
			n = n * 10 + (**p - '0');
	return MIN(n, FIELD_MAX);
}

static int parse_length(const char **p)
{
	switch (**p) {
	case 'h':
		(*p)++;
		if (**p != 'h')
			return 16;
		(*p)++;
		return 8;
	case 'l':
		(*p)++;
		if (**p == 'l')
			(*p)++;
		return 64;
	case 'z':
	case 't':
	case 'j':
		(*p)++;
		return 64;
	default:
		return 32;
	}
}

/* Parse what follows a '%'; returns the position after the conversion. */
static const char *parse_spec(const char *p, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){ .prec = -1 };
	for (;; p++) {
		if (*p == '-')
			sp->left = true;
		else if (*p == '0')
			sp->zero = true;
		else if (*p == ' ')
			sp->space = true;
		else if (*p == '+')
			sp->plus = true;
		else if (*p == '#')
			sp->alt = true;
		else
			break;
	}
	sp->width = parse_field(&p, ap);
	if (sp->width < 0) {	/* a negative '*' width means '-' */
		sp->left = true;
		sp->width = -sp->width;
	}
	if (*p == '.') {
		p++;
		/* A negative '*' precision counts as none given. */
		sp->prec = MAX(parse_field(&p, ap), -1);
	}
	sp->bits = parse_length(&p);
	sp->conv = *p;
	if (*p)
		p++;
	return p;
}

static s64 fetch_signed(int bits, va_list *ap)
{
	if (bits == 64)
		return va_arg(*ap, long long);
	if (bits == 16)
		return (short)va_arg(*ap, int);
	if (bits == 8)
		return (signed char)va_arg(*ap, int);
	return va_arg(*ap, int);
}

static u64 fetch_unsigned(int bits, va_list *ap)
{
	if (bits == 64)
		return va_arg(*ap, unsigned long long);
	if (bits == 16)
		return (unsigned short)va_arg(*ap, unsigned int);
	if (bits == 8)
		return (unsigned char)va_arg(*ap, unsigned int);
	return va_arg(*ap, unsigned int);
}

/* Pad s (n bytes) to the field width. */
static void put_field(const struct sink *k, const struct spec *sp,
		      const char *s, size_t n)
{
	int pad = (size_t)sp->width > n ? sp->width - (int)n : 0;

	if (!sp->left)
		put_repeat(k, ' ', pad);
	put_chars(k, s, n);
	if (sp->left)
		put_repeat(k, ' ', pad);
}

/*
 * Lay out [spaces][sign or 0x][zeros][digits][spaces]. sign is '-', '+',
 * ' ' or 0. Precision is the minimum number of digits, and a zero value
 * with precision 0 prints no digits at all, as C requires.
 */
static void put_number(const struct sink *k, const struct spec *sp, u64 v,
		       char sign)
{
	const char *set = sp->conv == 'X' ? "0123456789ABCDEF" :
					    "0123456789abcdef";
	unsigned int base = 10;
	int prec = sp->conv == 'p' ? 16 : sp->prec;
	bool nonzero = v != 0;
	char digits[24];
	char prefix[2];
	int nd = 0, np = 0, zeros, total;

	if (sp->conv == 'o')
		base = 8;
	else if (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p')
		base = 16;
	for (; v; v /= base)
		digits[nd++] = set[v % base];
	if (!nonzero && prec != 0)
		digits[nd++] = '0';

	if (sign)
		prefix[np++] = sign;
	if (sp->conv == 'p' || (sp->alt && nonzero && base == 16)) {
		prefix[np++] = '0';
		prefix[np++] = sp->conv == 'X' ? 'X' : 'x';
	}
	zeros = prec > nd ? prec - nd : 0;
	if (sp->conv == 'o' && sp->alt && zeros == 0 && (nonzero || nd == 0))
		zeros = 1;
	total = np + zeros + nd;
	if (sp->zero && !sp->left && prec < 0 && sp->width > total) {
		zeros += sp->width - total;
		total = sp->width;
	}

	if (!sp->left)
		put_repeat(k, ' ', sp->width - total);
	put_chars(k, prefix, (size_t)np);
	put_repeat(k, '0', zeros);
	while (nd > 0)
		k->emit(k->ctx, digits[--nd]);
	if (sp->left)
		put_repeat(k, ' ', sp->width - total);
}

static void put_signed(const struct sink *k, const struct spec *sp, s64 v)
{
	char sign = 0;

	if (v < 0)
		sign = '-';
	else if (sp->plus)
		sign = '+';
	else if (sp->space)
		sign = ' ';
	/* Negate in u64: -INT64_MIN does not fit in s64. */
	put_number(k, sp, v < 0 ? 0 - (u64)v : (u64)v, sign);
}

/* Returns false for a conversion this engine does not know. */
static bool convert(const struct sink *k, const struct spec *sp,
		    va_list *ap)
{
	const char *s;
	char c;

	switch (sp->conv) {
	case 'd':
	case 'i':
		put_signed(k, sp, fetch_signed(sp->bits, ap));
		return true;
	case 'u':
	case 'o':
	case 'x':
	case 'X':
		put_number(k, sp, fetch_unsigned(sp->bits, ap), 0);
		return true;
	case 'p':
		put_number(k, sp, (uptr)va_arg(*ap, void *), 0);
		return true;
	case 'c':
		c = (char)va_arg(*ap, int);
		put_field(k, sp, &c, 1);
		return true;
	case 's':
		s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
		if (sp->prec < 0)
			put_field(k, sp, s, strlen(s));
		else
			put_field(k, sp, s, strnlen(s, (size_t)sp->prec));
		return true;
	case '%':
		k->emit(k->ctx, '%');
		return true;
	default:
		return false;
	}
}

void kvformat(void (*emit)(void *ctx, char c), void *ctx, const char *fmt,
	      va_list ap)
{
	const struct sink k = { emit, ctx };
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		const char *start = fmt;
		struct spec sp;

		if (*fmt != '%') {
			emit(ctx, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &args);
		if (!convert(&k, &sp, &args))
			put_chars(&k, start, (size_t)(fmt - start));
	}
	va_end(args);
}

struct buf_sink {
	char *buf;
	size_t size;
	size_t len;		/* the full output length, stored or not */
};

static void buf_emit(void *ctx, char c)
{
	struct buf_sink *b = ctx;

	if (b->len + 1 < b->size)
		b->buf[b->len] = c;
	b->len++;
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buf_sink b = { buf, size, 0 };

	kvformat(buf_emit, &b, fmt, ap);
	if (size)
		buf[b.len < size ? b.len : size - 1] = '\0';
	return b.len > __INT_MAX__ ? __INT_MAX__ : (int)b.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
