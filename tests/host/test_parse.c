/*
 * lib/parse.c: each parser takes a whole string or fails without writing
 * *out; next_token splits in place.
 */
#include "check.h"
#include "lib/parse.h"

#define UNTOUCHED	0x5a5a5a5a5a5a5a5aULL

static void u64_ok(const char *s, u64 want)
{
	u64 v = UNTOUCHED;

	CHECK(parse_u64(s, &v) == 0);
	CHECK_EQ_U64(v, want);
}

static void u64_bad(const char *s)
{
	u64 v = UNTOUCHED;

	CHECK(parse_u64(s, &v) == -1);
	CHECK_EQ_U64(v, UNTOUCHED);
}

static void test_u64(void)
{
	u64_ok("0", 0);
	u64_ok("7", 7);
	u64_ok("4096", 4096);
	u64_ok("007", 7);
	u64_ok("0x0", 0);
	u64_ok("0x1f", 31);
	u64_ok("0XABCdef", 0xabcdef);
	u64_ok("18446744073709551615", UINT64_MAX);
	u64_ok("0xffffffffffffffff", UINT64_MAX);
	u64_ok("0x00000000000000000001", 1);
	u64_bad("");
	u64_bad(NULL);
	u64_bad("18446744073709551616");
	u64_bad("99999999999999999999");
	u64_bad("0x10000000000000000");
	u64_bad("12abc");
	u64_bad("12 ");
	u64_bad(" 12");
	u64_bad("-1");
	u64_bad("+1");
	u64_bad("0x");
	u64_bad("0x-1");
	u64_bad("0xg");
	u64_bad("1a");
	u64_bad("x12");
}

static void s64_ok(const char *s, s64 want)
{
	s64 v = 0x5a5a;

	CHECK(parse_s64(s, &v) == 0);
	CHECK_EQ_U64((u64)v, (u64)want);
}

static void s64_bad(const char *s)
{
	s64 v = 0x5a5a;

	CHECK(parse_s64(s, &v) == -1);
	CHECK(v == 0x5a5a);
}

static void test_s64(void)
{
	s64_ok("0", 0);
	s64_ok("-0", 0);
	s64_ok("42", 42);
	s64_ok("+42", 42);
	s64_ok("-42", -42);
	s64_ok("-0x10", -16);
	s64_ok("9223372036854775807", INT64_MAX);
	s64_ok("-9223372036854775808", INT64_MIN);
	s64_bad("9223372036854775808");
	s64_bad("-9223372036854775809");
	s64_bad("-");
	s64_bad("+");
	s64_bad("--1");
	s64_bad("+-1");
	s64_bad("-1x");
	s64_bad("");
}

static void size_ok(const char *s, u64 want)
{
	u64 v = UNTOUCHED;

	CHECK(parse_size(s, &v) == 0);
	CHECK_EQ_U64(v, want);
}

static void size_bad(const char *s)
{
	u64 v = UNTOUCHED;

	CHECK(parse_size(s, &v) == -1);
	CHECK_EQ_U64(v, UNTOUCHED);
}

static void test_size(void)
{
	size_ok("0", 0);
	size_ok("512", 512);
	size_ok("4K", 4096);
	size_ok("4k", 4096);
	size_ok("512M", 512ULL << 20);
	size_ok("2G", 2ULL << 30);
	size_ok("0x10K", 16 << 10);
	size_ok("17179869183G", 17179869183ULL << 30);
	size_bad("17179869184G");
	size_bad("K");
	size_bad("");
	size_bad("4KK");
	size_bad("4KB");
	size_bad("4T");
	size_bad("4 K");
	size_bad("0xK");
}

static void bool_is(const char *s, bool want)
{
	bool b = !want;

	CHECK(parse_bool(s, &b) == 0);
	CHECK(b == want);
}

static void bool_bad(const char *s)
{
	bool b = true;

	CHECK(parse_bool(s, &b) == -1);
	CHECK(b == true);
}

static void test_bool(void)
{
	const char *yes[] = { "1", "y", "Y", "yes", "YES", "on", "On",
			      "true", "True" };
	const char *no[] = { "0", "n", "N", "no", "No", "off", "OFF",
			     "false", "FALSE" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		bool_is(yes[i], true);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		bool_is(no[i], false);
	bool_bad("");
	bool_bad("2");
	bool_bad("ye");
	bool_bad("yess");
	bool_bad("tru");
	bool_bad("o");
	bool_bad("of");
	bool_bad("10");
	bool_bad(" 1");
	bool_bad(NULL);
}

static void test_tokens(void)
{
	char line[] = "  ktest=all\tsmp=4  \t quiet\n";
	char empty[] = "";
	char blank[] = " \t \r\n";
	char one[] = "word";
	char *cursor = line;

	CHECK_STR(next_token(&cursor), "ktest=all");
	CHECK_STR(next_token(&cursor), "smp=4");
	CHECK_STR(next_token(&cursor), "quiet");
	CHECK(next_token(&cursor) == NULL);
	CHECK(next_token(&cursor) == NULL);
	CHECK_STR(line + 2, "ktest=all");

	cursor = empty;
	CHECK(next_token(&cursor) == NULL);
	cursor = blank;
	CHECK(next_token(&cursor) == NULL);
	cursor = one;
	CHECK(next_token(&cursor) == one);
	CHECK_STR(one, "word");
	CHECK(next_token(&cursor) == NULL);
}

static void test_list_has(void)
{
	CHECK(list_has("a,bc,d", "bc"));
	CHECK(list_has("a,bc,d", "a"));
	CHECK(list_has("a,bc,d", "d"));
	CHECK(!list_has("a,bc,d", "b"));
	CHECK(!list_has("a,bc,d", "bcd"));
	CHECK(!list_has("", "a"));
	CHECK(list_has("", ""));
	CHECK(list_has("a,,b", ""));
	CHECK(!list_has("abc", "ab"));
}

static void test_list_next(void)
{
	const char *cursor = "ab,,cdef";
	char word[4];

	CHECK(list_next(&cursor, word, sizeof(word)));
	CHECK_STR(word, "ab");
	CHECK(list_next(&cursor, word, sizeof(word)));
	CHECK_STR(word, "");
	CHECK(list_next(&cursor, word, sizeof(word)));
	CHECK_STR(word, "cde");		/* cut to fit */
	CHECK(!list_next(&cursor, word, sizeof(word)));
	CHECK(!list_next(&cursor, word, sizeof(word)));
	cursor = "";
	CHECK(list_next(&cursor, word, sizeof(word)));
	CHECK_STR(word, "");
	CHECK(!list_next(&cursor, word, sizeof(word)));
}

int main(void)
{
	test_list_has();
	test_list_next();
	test_u64();
	test_s64();
	test_size();
	test_bool();
	test_tokens();
	return check_summary();
}
