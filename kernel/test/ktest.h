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
 *
 * A test that needs an earlier test of its suite to have passed (its
 * setup) says so, and is skipped, naming it, when that one did not pass:
 *
 *	KTEST(fs, make_tree) { ... }
 *	KTEST_NEEDS(fs, walk_tree, make_tree) { ... }
 *
 * Setups and their dependents form a fixture, which may keep memory from
 * one test to the next; the runner's leak check (ktest_leak.h) looks at
 * a fixture as a whole, after the last of its tests that runs.
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
	/* An earlier test of the same suite that must have passed, or
	 * NULL. A pointer, not a name: a misspelt one does not compile. */
	const struct ktest *needs;
};

/* The trailing arguments are more initializers: KTEST_NEEDS_TEST. */
#define KTEST_DEFINE(s, n, where, ms, is_slow, ...)			\
	static void ktest_fn_##s##_##n(struct ktest_context *t);	\
	static const struct ktest ktest_desc_##s##_##n			\
	__used __section("ktest_cases") __aligned(8) = {		\
		.suite = #s, .name = #n, .fn = ktest_fn_##s##_##n,	\
		.cpu = where, .timeout_ms = ms, .slow = is_slow,	\
		__VA_ARGS__						\
	};								\
	static void ktest_fn_##s##_##n(struct ktest_context *t)

/* The initializer naming test `dep` of suite `s` as the one needed. */
#define KTEST_NEEDS_TEST(s, dep)	.needs = &ktest_desc_##s##_##dep

#define KTEST(s, n) KTEST_DEFINE(s, n, KTEST_ANY_CPU, KTEST_DEFAULT_TIMEOUT_MS, false)
#define KTEST_ON_CPU(s, n, c) KTEST_DEFINE(s, n, c, KTEST_DEFAULT_TIMEOUT_MS, false)
#define KTEST_EACH_CPU(s, n) KTEST_DEFINE(s, n, KTEST_EACH_CPU_MARK, KTEST_DEFAULT_TIMEOUT_MS, false)
#define KTEST_TIMEOUT(s, n, ms) KTEST_DEFINE(s, n, KTEST_ANY_CPU, ms, false)
#define KTEST_SLOW(s, n, ms) KTEST_DEFINE(s, n, KTEST_ANY_CPU, ms, true)
#define KTEST_NEEDS(s, n, dep)						\
	KTEST_DEFINE(s, n, KTEST_ANY_CPU, KTEST_DEFAULT_TIMEOUT_MS,	\
		     false, KTEST_NEEDS_TEST(s, dep))

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

/**
 * ktest_keep_begin - start counting memory that a test keeps on purpose
 *
 * Context: a test body (one body of a KTEST_EACH_CPU test at most), with
 * no other thread of the test allocating until ktest_keep_end().
 *
 * What is allocated from here to ktest_keep_end() is exempt from the
 * runner's leak check and is printed instead, as a `# kept:` line: for
 * state built once and kept for later tests, such as the dcache suite's
 * backing tree. Sleeps (it waits for RCU callbacks).
 */
void ktest_keep_begin(void);

/**
 * ktest_keep_end - stop counting what the test keeps on purpose
 * @why: what it is and why it stays (not copied)
 */
void ktest_keep_end(const char *why);

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
