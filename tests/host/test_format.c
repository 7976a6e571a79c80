/*
 * lib/format.c against the host's vsnprintf: fixed cases for every
 * conversion, flag and length modifier, a seeded random sweep of integer
 * specs, and truncation at every buffer size; plus the cases where the
 * kernel's printf deliberately differs (%p, NULL %s, unknown conversions).
 */
#include <stdarg.h>
#include <stdint.h>
#include <limits.h>
#include "check.h"
#include "lib/format.h"
#include "lib/random.h"

/* Format with both, at buffer sizes 0, 1, 2, 5 and the full length + 1,
 * checking the returned lengths and buffer contents match. */
__attribute__((format(printf, 1, 2))) static void same(const char *fmt, ...)
{
	static const size_t sizes[] = { 0, 1, 2, 5, 600 };
	char want[600], got[600];
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		va_list a, b;
		int nw, ng;

		memset(want, 'W', sizeof(want));
		memset(got, 'W', sizeof(got));
		va_start(a, fmt);
		nw = vsnprintf(want, sizes[i], fmt, a);
		va_end(a);
		va_start(b, fmt);
		ng = kvsnprintf(got, sizes[i], fmt, b);
		va_end(b);
		if (!CHECK(nw == ng) ||
		    !CHECK(memcmp(want, got, sizeof(want)) == 0))
			printf("    format \"%s\", size %zu: want %d \"%.*s\","
			       " got %d \"%.*s\"\n", fmt, sizes[i], nw,
			       (int)sizes[i], want, ng, (int)sizes[i], got);
	}
}

static void test_integers(void)
{
	same("%d %d %d %d %d", 0, 1, -1, INT_MAX, INT_MIN);
	same("%i|%5i|%-5i|%05i|%+i|% i", 42, 42, 42, 42, 42, 42);
	/* Flags gcc calls redundant, passed unseen to test them anyway. */
	const char *plus_space = "%+05d|%-+6d|% 05d|%+ d|% +d";
	const char *zero_prec = "%.0d|%.0d|%.3d|%5.3d|%-8.3d|%08.3d|%08.0x";

	same(plus_space, -7, 7, 7, 7, -7);
	same(zero_prec, 0, 5, 5, -5, 5, -5, 0u);
	same("%u %u %5u %-5u| %05u", 0u, UINT_MAX, 9u, 9u, 9u);
	same("%x %X %x %X %o %o", 0u, 0u, 0xdeadbeefu, 0xdeadbeefu, 8u, 0u);
	same("%#x|%#x|%#X|%#08x|%#-8x|%#.0x|%#5.0x", 0u, 255u, 255u, 255u,
	     255u, 0u, 0u);
	same("%#o|%#o|%#.3o|%#.0o|%#5o|%#-5o|%#05o", 0u, 8u, 8u, 0u, 8u, 8u,
	     8u);
	same("%hhd %hhd %hhu %hhx", 200, -129, 300, 0x1ff);
	same("%hd %hd %hu %hx", 70000, -32769, 70000, -1);
	same("%ld %ld %lu %lx", LONG_MIN, LONG_MAX, ULONG_MAX, 0x1234UL);
	same("%lld %llu %llx %#llo", LLONG_MIN, ULLONG_MAX, 0xfeedULL, 8ULL);
	same("%zu %zx %zd %zd", SIZE_MAX, (size_t)4096, (ssize_t)-5,
	     (ssize_t)5);
	same("%td %td %jd %ju", (ptrdiff_t)-3, PTRDIFF_MAX, INTMAX_MIN,
	     UINTMAX_MAX);
	same("%300d|%-300u|%.300x", 1, 2u, 3u);
}

static void test_star(void)
{
	same("%*d|%*d|%-*d|%0*d", 5, 1, -5, 1, 5, 1, 5, -1);
	same("%.*d|%.*d|%.*d|%*.*d", 3, 7, 0, 0, -1, 0, 6, 3, 7);
	same("%*s|%-*s|%.*s|%*.*s", 6, "ab", 6, "ab", 2, "abcdef", -6, 1,
	     "xyz");
	same("[%5llu.%06llu] cpu%u: %.*s", 12ULL, 345ULL, 3u, 5,
	     "hello world");
}

static void test_chars_strings(void)
{
	same("%c%c%c|%3c|%-3c|", 'a', 'b', 0x7f, 'x', 'y');
	same("%s|%s|%10s|%-10s|%.3s|%.0s|%10.2s|%-10.2s|", "", "hello",
	     "right", "left", "abcdef", "gone", "abcdef", "abcdef");
	same("100%% %s%%", "sure");
	same("no conversions at all");
	same("%s", "a considerably longer string that is cut at each of the "
	     "small buffer sizes");
	same("%d%s%c%x", 12, "ab", 'c', 0xdu);
}

/* Random integer specs from the grammar, checked against the host. */
static void test_random_specs(void)
{
	static const char *const lengths[] = { "", "hh", "h", "l", "ll", "z",
					       "j" };
	static const char convs[] = "diuxXo";
	struct prng rng;
	int i;

	prng_seed(&rng, 20240611);
	for (i = 0; i < 20000; i++) {
		char fmt[64], *p = fmt;
		char conv = convs[prng_below(&rng, 6)];
		unsigned int len = (unsigned int)prng_below(&rng, 7);
		long long value = (long long)prng_next(&rng);

		if (prng_below(&rng, 4) == 0)
			value = (long long)prng_below(&rng, 3) - 1;
		else if (prng_below(&rng, 2))
			value >>= prng_below(&rng, 64);
		*p++ = '|';
		*p++ = '%';
		if (prng_below(&rng, 3) == 0)
			*p++ = '-';
		if (prng_below(&rng, 3) == 0)
			*p++ = '0';
		if ((conv == 'd' || conv == 'i') && prng_below(&rng, 3) == 0)
			*p++ = prng_below(&rng, 2) ? ' ' : '+';
		if (conv != 'd' && conv != 'i' && conv != 'u' &&
		    prng_below(&rng, 2))
			*p++ = '#';
		if (prng_below(&rng, 2))
			p += sprintf(p, "%d", (int)prng_below(&rng, 30));
		if (prng_below(&rng, 2))
			p += sprintf(p, ".%d", (int)prng_below(&rng, 25));
		p += sprintf(p, "%s%c|", lengths[len], conv);
		if (len >= 3)
			same(fmt, value);
		else
			same(fmt, (int)value);
	}
}

static void expect(const char *want, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	CHECK_STR(buf, want);
	CHECK_EQ_U64(n, strlen(want));
}

static void test_kernel_only(void)
{
	const char *volatile nothing = NULL;
	const char *unknown[] = { "%q", "a%qb", "%5q", "%-#lq", "abc%",
				  "%", "%l", "%08", "%n" };
	size_t i;

	expect("0x0000000000001234", "%p", (void *)0x1234);
	expect("0x0000000000000000", "%p", NULL);
	expect("0xffff800000000000", "%p", (void *)0xffff800000000000);
	expect("  0x00000000000000ab|", "%20p|", (void *)0xab);
	expect("0x00000000000000ab  |", "%-20p|", (void *)0xab);
	expect("(null)", "%s", nothing);
	expect("  (null)|(nu", "%8s|%.3s", nothing, nothing);
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		expect(unknown[i], unknown[i], 1);
	expect("x%qy5", "x%qy%d", 5);
}

static void test_edges(void)
{
	char buf[4] = "abc";

	CHECK_EQ_U64(ksnprintf(NULL, 0, "%d", 12345), 5);
	CHECK_EQ_U64(ksnprintf(buf, 0, "zz"), 2);
	CHECK_STR(buf, "abc");
	CHECK_EQ_U64(ksnprintf(buf, 1, "zz"), 2);
	CHECK_STR(buf, "");
	CHECK_EQ_U64(ksnprintf(buf, sizeof(buf), "%s", ""), 0);
	CHECK_STR(buf, "");
	CHECK_EQ_U64(ksnprintf(buf, sizeof(buf), "abcd"), 4);
	CHECK_STR(buf, "abc");
}

static void count_emit(void *ctx, char c)
{
	size_t *n = ctx;

	(*n)++;
	CHECK(c != '\0');
}

static __attribute__((format(printf, 1, 2))) size_t count(const char *fmt,
							   ...)
{
	size_t n = 0;
	va_list ap;

	va_start(ap, fmt);
	kvformat(count_emit, &n, fmt, ap);
	va_end(ap);
	return n;
}

static void test_kvformat(void)
{
	CHECK_EQ_U64(count("%s=%d", "answer", 42), 9);
	CHECK_EQ_U64(count("%100d", 1), 100);
	CHECK_EQ_U64(count("%s", ""), 0);
}

int main(void)
{
	test_integers();
	test_star();
	test_chars_strings();
	test_random_specs();
	test_kernel_only();
	test_edges();
	test_kvformat();
	return check_summary();
}
