/*
 * lib/string.c against the C library, on every offset and length of small
 * buffers, including overlapping memmove both ways.
 */
#include "check.h"
#include "lib/string.h"

/* lib/string.h renamed these to lib_*; the reference calls go to libc. */
#undef memset
#undef memcpy
#undef memmove
#undef memcmp
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strchr

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

static void test_memset_memcpy(void)
{
	unsigned char a[64], b[64];
	size_t off, n;

	for (off = 0; off < 8; off++) {
		for (n = 0; n + off <= 40; n++) {
			lib_memset(a, 0xaa, sizeof(a));
			CHECK(lib_memset(a + off, 0x5c, n) == a + off);
			CHECK(a[off + n] == 0xaa);
			CHECK(off == 0 || a[off - 1] == 0xaa);
			for (size_t i = 0; i < n; i++)
				CHECK(a[off + i] == 0x5c);

			for (size_t i = 0; i < sizeof(b); i++)
				b[i] = (unsigned char)(i * 7 + 1);
			lib_memset(a, 0, sizeof(a));
			CHECK(lib_memcpy(a + off, b + 3, n) == a + off);
			CHECK(memcmp(a + off, b + 3, n) == 0);
			CHECK(a[off + n] == 0);
		}
	}
}

static void test_memmove(void)
{
	unsigned char mine[48], ref[48];
	size_t src, dst, n;

	for (src = 0; src < 16; src++) {
		for (dst = 0; dst < 16; dst++) {
			for (n = 0; n <= 32; n++) {
				for (size_t i = 0; i < sizeof(mine); i++)
					mine[i] = ref[i] = (unsigned char)i;
				CHECK(lib_memmove(mine + dst, mine + src, n) ==
				      mine + dst);
				memmove(ref + dst, ref + src, n);
				CHECK(memcmp(mine, ref, sizeof(mine)) == 0);
			}
		}
	}
}

static void test_compare(void)
{
	static const char *const s[] = {
		"", "a", "b", "ab", "abc", "abd", "abcd", "\x80", "\x7f", "A",
	};
	size_t i, j, n;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		for (j = 0; j < sizeof(s) / sizeof(s[0]); j++) {
			CHECK(sign(lib_strcmp(s[i], s[j])) ==
			      sign(strcmp(s[i], s[j])));
			for (n = 0; n < 6; n++)
				CHECK(sign(lib_strncmp(s[i], s[j], n)) ==
				      sign(strncmp(s[i], s[j], n)));
			n = strlen(s[i]) < strlen(s[j]) ? strlen(s[i]) :
							  strlen(s[j]);
			CHECK(sign(lib_memcmp(s[i], s[j], n + 1)) ==
			      sign(memcmp(s[i], s[j], n + 1)));
		}
	}
	CHECK(lib_memcmp("abc", "abd", 2) == 0);
	CHECK(lib_memcmp("x", "y", 0) == 0);
}

static void test_lengths(void)
{
	CHECK_EQ_U64(lib_strlen(""), 0);
	CHECK_EQ_U64(lib_strlen("hello"), 5);
	CHECK_EQ_U64(lib_strnlen("hello", 3), 3);
	CHECK_EQ_U64(lib_strnlen("hello", 5), 5);
	CHECK_EQ_U64(lib_strnlen("hello", 99), 5);
	CHECK_EQ_U64(lib_strnlen("", 0), 0);
	/* strnlen must not read past max: no NUL here at all. */
	CHECK_EQ_U64(lib_strnlen((const char[]){ 'a', 'b' }, 2), 2);
}

static void test_strchr(void)
{
	const char *s = "key=value=x";

	CHECK(lib_strchr(s, '=') == s + 3);
	CHECK(lib_strchr(s, 'x') == s + 10);
	CHECK(lib_strchr(s, 'q') == NULL);
	CHECK(lib_strchr(s, '\0') == s + 11);
	CHECK(lib_strchr("\xff", 0xff) != NULL);
}

static void test_strlcpy(void)
{
	char buf[8];

	lib_memset(buf, 'z', sizeof(buf));
	CHECK_EQ_U64(lib_strlcpy(buf, "abc", sizeof(buf)), 3);
	CHECK_STR(buf, "abc");
	CHECK_EQ_U64(lib_strlcpy(buf, "abcdefghij", sizeof(buf)), 10);
	CHECK_STR(buf, "abcdefg");
	CHECK_EQ_U64(lib_strlcpy(buf, "abcdefg", sizeof(buf)), 7);
	CHECK_STR(buf, "abcdefg");
	CHECK_EQ_U64(lib_strlcpy(buf, "", sizeof(buf)), 0);
	CHECK_STR(buf, "");
	CHECK_EQ_U64(lib_strlcpy(buf, "xy", 1), 2);
	CHECK_STR(buf, "");
	buf[0] = 'q';
	CHECK_EQ_U64(lib_strlcpy(buf, "xy", 0), 2);
	CHECK(buf[0] == 'q');
}

int main(void)
{
	test_memset_memcpy();
	test_memmove();
	test_compare();
	test_lengths();
	test_strchr();
	test_strlcpy();
	return check_summary();
}
