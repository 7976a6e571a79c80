/*
 * In-kernel self-tests, printed as KTAP version 1 (Linux KUnit's format).
 *
 *	KTEST(suite, name)
 *	{
 *		KEXPECT_EQ(1 + 1, 2);	// records a failure, goes on
 *		KASSERT_TRUE(p != NULL);	// records a failure, stops the test
 *	}
 *
 * KTEST places a descriptor in the ktest_cases linker section, so a file
 * added to tests/kernel/ is picked up with no list to edit. Variants run
 * the body on one chosen CPU (KTEST_ON_CPU) or on every online CPU at once
 * (KTEST_EACH_CPU, the body sees its CPU in t->cpu). `ktest=` selects
 * suites; suites marked slow run only when named.
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include "lib/compiler.h"
#include "lib/types.h"

#define KTEST_ANY_CPU	(-1)
#define KTEST_EACH_CPU_MARK	(-2)
#define KTEST_DEFAULT_TIMEOUT_MS	30000

struct ktest_context {
	const struct ktest *test;
	int cpu;			/* CPU this body runs on */
	unsigned int failures;		/* updated atomically */
	const char *skip_reason;
};

struct ktest {
	const char *suite;
	const char *name;
	void (*fn)(struct ktest_context *t);
	int cpu;			/* KTEST_ANY_CPU, a CPU, or EACH_CPU */
	unsigned int timeout_ms;
	bool slow;			/* run only when the suite is named */
};

#define KTEST_DEFINE(s, n, where, ms, is_slow)				\
	static void ktest_fn_##s##_##n(struct ktest_context *t);	\
	static const struct ktest ktest_desc_##s##_##n			\
	__used __section("ktest_cases") __aligned(8) = {		\
		.suite = #s, .name = #n, .fn = ktest_fn_##s##_##n,	\
		.cpu = where, .timeout_ms = ms, .slow = is_slow,	\
	};								\
	static void ktest_fn_##s##_##n(struct ktest_context *t)

#define KTEST(s, n) KTEST_DEFINE(s, n, KTEST_ANY_CPU, KTEST_DEFAULT_TIMEOUT_MS, false)
#define KTEST_ON_CPU(s, n, c) KTEST_DEFINE(s, n, c, KTEST_DEFAULT_TIMEOUT_MS, false)
#define KTEST_EACH_CPU(s, n) KTEST_DEFINE(s, n, KTEST_EACH_CPU_MARK, KTEST_DEFAULT_TIMEOUT_MS, false)
#define KTEST_TIMEOUT(s, n, ms) KTEST_DEFINE(s, n, KTEST_ANY_CPU, ms, false)
#define KTEST_SLOW(s, n, ms) KTEST_DEFINE(s, n, KTEST_ANY_CPU, ms, true)

__printf(4, 5) void ktest_fail(struct ktest_context *t, const char *file,
			       int line, const char *fmt, ...);

/* The outer macros (KEXPECT_EQ...) stringify their arguments themselves
 * and pass the text down: a macro's argument is expanded before it
 * reaches an inner macro, so #a here would print NULL as ((void *)0). */
#define KTEST_CHECK_CMP(t, a, op, b, a_text, b_text, on_fail)		\
	do {								\
		__typeof__(a) __a = (a);				\
		__typeof__(b) __b = (b);				\
		if (!(__a op __b)) {					\
			ktest_fail(t, __FILE__, __LINE__,		\
				   "expected %s %s %s, but %s = %lld "	\
				   "(%#llx) and %s = %lld (%#llx)",	\
				   a_text, #op, b_text, a_text,		\
				   (long long)__a,			\
				   (unsigned long long)__a, b_text,	\
				   (long long)__b,			\
				   (unsigned long long)__b);		\
			on_fail;					\
		}							\
	} while (0)

#define KTEST_CHECK_BOOL(t, x, x_text, want, on_fail)			\
	do {								\
		if ((bool)(x) != (bool)(want)) {			\
			ktest_fail(t, __FILE__, __LINE__,		\
				   "expected %s to be %s", x_text,	\
				   (want) ? "true" : "false");		\
			on_fail;					\
		}							\
	} while (0)

#define KEXPECT_EQ(a, b)	KTEST_CHECK_CMP(t, a, ==, b, #a, #b, (void)0)
#define KEXPECT_NE(a, b)	KTEST_CHECK_CMP(t, a, !=, b, #a, #b, (void)0)
#define KEXPECT_LT(a, b)	KTEST_CHECK_CMP(t, a, <, b, #a, #b, (void)0)
#define KEXPECT_LE(a, b)	KTEST_CHECK_CMP(t, a, <=, b, #a, #b, (void)0)
#define KEXPECT_GT(a, b)	KTEST_CHECK_CMP(t, a, >, b, #a, #b, (void)0)
#define KEXPECT_GE(a, b)	KTEST_CHECK_CMP(t, a, >=, b, #a, #b, (void)0)
#define KEXPECT_TRUE(x)		KTEST_CHECK_BOOL(t, x, #x, true, (void)0)
#define KEXPECT_FALSE(x)	KTEST_CHECK_BOOL(t, x, #x, false, (void)0)
#define KASSERT_EQ(a, b)	KTEST_CHECK_CMP(t, a, ==, b, #a, #b, return)
#define KASSERT_NE(a, b)	KTEST_CHECK_CMP(t, a, !=, b, #a, #b, return)
#define KASSERT_LE(a, b)	KTEST_CHECK_CMP(t, a, <=, b, #a, #b, return)
#define KASSERT_GE(a, b)	KTEST_CHECK_CMP(t, a, >=, b, #a, #b, return)
#define KASSERT_TRUE(x)		KTEST_CHECK_BOOL(t, x, #x, true, return)
#define KASSERT_FALSE(x)	KTEST_CHECK_BOOL(t, x, #x, false, return)
#define KTEST_FAIL(...)		ktest_fail(t, __FILE__, __LINE__, __VA_ARGS__)
#define KTEST_SKIP(reason)	do { t->skip_reason = (reason); return; } while (0)

/*
 * Speed is not behaviour: a test that failed because the host was busy
 * would be a false alarm, so speed figures are judged only when asked
 * (ktest.timing=1, which make perf-test sets on a quiet host); otherwise
 * they are printed. measure() makes its functional checks (KEXPECT) on
 * every call and reports its speed bounds (KTEST_FAIL) only when told it
 * is the last attempt. When timing is judged, ktest_timing() runs it up
 * to KTEST_TIMING_ATTEMPTS times and stops at the first within bounds,
 * since under emulation the host may deschedule a vCPU for milliseconds:
 * a real regression fails every attempt. Otherwise it runs once, never as
 * the last attempt.
 */
#define KTEST_TIMING_ATTEMPTS	3

extern bool ktest_judge_timing;

static inline void ktest_timing(struct ktest_context *t,
				bool (*measure)(struct ktest_context *t,
						bool last))
{
	unsigned int i;

	if (!ktest_judge_timing) {
		measure(t, false);
		return;
	}
	for (i = 0; i < KTEST_TIMING_ATTEMPTS; i++)
		if (measure(t, i + 1 == KTEST_TIMING_ATTEMPTS))
			return;
}

/* Run the suites selected by `spec` (ktest= syntax); true if all passed. */
bool ktest_run(const char *spec);
/* As ktest_run, but once *stop is set the tests not yet started are
 * reported as skipped: how the shell's `test` stops on Ctrl-C. */
bool ktest_run_until(const char *spec, const bool *stop);
/* The nth suite name (from 0, in link order), NULL past the last. */
const char *ktest_suite_name(unsigned int n);
/* Whether `spec` names anything to run. */
bool ktest_spec_valid(const char *spec);
extern char ktest_spec[];

#endif
