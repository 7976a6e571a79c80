/*
 * A tiny unit-test framework for the host tests of lib/. Each CHECK counts
 * a pass, or prints file:line and what was expected and seen; main() ends
 * with `return check_summary();`. Include this before any lib/ header
 * (lib/string.h renames the string functions on the host).
 */
#ifndef TESTS_HOST_CHECK_H
#define TESTS_HOST_CHECK_H

#include <stdio.h>
#include <string.h>

static unsigned int check_passed;
static unsigned int check_failed;

/* Count one check; on failure print where and what, and return false. */
static inline int check_count(int ok, const char *file, int line,
			      const char *what)
{
	if (ok) {
		check_passed++;
		return 1;
	}
	check_failed++;
	printf("%s:%d: FAILED: %s\n", file, line, what);
	return 0;
}

#define CHECK(cond)	check_count(!!(cond), __FILE__, __LINE__, #cond)

#define CHECK_EQ_U64(a, b)						\
	do {								\
		unsigned long long __ca = (a), __cb = (b);		\
									\
		if (!check_count(__ca == __cb, __FILE__, __LINE__,	\
				 #a " == " #b))				\
			printf("    expected: %llu (0x%llx)\n"		\
			       "    seen:     %llu (0x%llx)\n",		\
			       __cb, __cb, __ca, __ca);			\
	} while (0)

#define CHECK_STR(a, b)							\
	do {								\
		const char *__ca = (a), *__cb = (b);			\
									\
		if (!check_count(__ca && __cb && strcmp(__ca, __cb) == 0, \
				 __FILE__, __LINE__, #a " equals " #b))	\
			printf("    expected: \"%s\"\n"			\
			       "    seen:     \"%s\"\n",		\
			       __cb ? __cb : "(null)",			\
			       __ca ? __ca : "(null)");			\
	} while (0)

/* Print "host: NAME: N passed, N failed", NAME being the test file's
 * name; fail a test that checked nothing, too. */
static inline int check_summary_for(const char *file)
{
	const char *name = strrchr(file, '/');
	const char *dot;

	name = name ? name + 1 : file;
	dot = strchr(name, '.');
	printf("host: %.*s: %u passed, %u failed\n",
	       dot ? (int)(dot - name) : (int)strlen(name), name,
	       check_passed, check_failed);
	return check_failed || !check_passed;
}

#define check_summary()	check_summary_for(__FILE__)

#endif
