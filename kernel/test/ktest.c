/*
 * The self-test runner: walks the ktest_cases section in link order
 * (files sorted by name, tests in file order), groups tests by suite and
 * prints KTAP version 1: each suite is an indented subtest with its own
 * plan, failure diagnostics are `#` lines, and the run ends with
 * `N passed, N failed` for the harness.
 */
#include "ktest.h"
#include "ktest_exec.h"
#include "ktest_fixture.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/rcu/stats.h"
#include "lib/atomic.h"
#include "lib/format.h"
#include "lib/parse.h"
#include "lib/string.h"

bool ktest_judge_timing;
CMDLINE_BOOL("ktest.timing", ktest_judge_timing,
	     "judge the speed figures of the self-tests too (make perf-test, "
	     "on a quiet host)");

char ktest_spec[256] = "all";
CMDLINE_STRING("ktest", ktest_spec,
	       "comma list of self-test suites, or all, or none");

void ktest_fail(struct ktest_context *t, const char *file, int line,
		const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	atomic_add_relaxed(&t->failures, 1);
	if (t->cpu >= 0 && t->test->cpu == KTEST_EACH_CPU_MARK)
		console_printf("        # %s:%d: [cpu%d] %s\n", file, line,
			       t->cpu, msg);
	else
		console_printf("        # %s:%d: %s\n", file, line, msg);
}

bool ktest_selected(const char *spec, const struct ktest *k)
{
	if (strcmp(spec, "none") == 0)
		return false;
	if (list_has(spec, k->suite))
		return true;
	return strcmp(spec, "all") == 0 && !k->slow;
}

static bool suite_seen_before(const struct ktest *k)
{
	const struct ktest *p;

	for (p = __start_ktest_cases; p < k; p++)
		if (strcmp(p->suite, k->suite) == 0)
			return true;
	return false;
}

static unsigned int count_selected(const char *spec, const char *suite)
{
	const struct ktest *k;
	unsigned int n = 0;

	for (k = __start_ktest_cases; k < __stop_ktest_cases; k++)
		if (ktest_selected(spec, k) &&
		    (!suite || !strcmp(k->suite, suite)))
			n++;
	return n;
}

static unsigned int count_suites(const char *spec)
{
	const struct ktest *k;
	unsigned int n = 0;

	for (k = __start_ktest_cases; k < __stop_ktest_cases; k++)
		if (ktest_selected(spec, k) && !suite_seen_before(k))
			n++;
	return n;
}

/* " rcu srcu ...": every suite's name, for an error line. */
static const char *suite_list(void)
{
	static char list[512];
	const char *name;
	size_t n = 0;
	unsigned int i;

	for (i = 0; (name = ktest_suite_name(i)) != NULL && n < sizeof(list);
	     i++)
		n += ksnprintf(list + n, sizeof(list) - n, " %s", name);
	return list;
}

/* Every name in the list must be a suite (or all/none). */
bool ktest_spec_valid(const char *spec)
{
	char word[64];
	const char *cursor = spec;
	bool ok = true;

	if (!strcmp(spec, "all") || !strcmp(spec, "none"))
		return true;
	while (list_next(&cursor, word, sizeof(word))) {
		const struct ktest *k;
		bool found = false;

		for (k = __start_ktest_cases; k < __stop_ktest_cases; k++)
			found |= !strcmp(k->suite, word);
		if (!found) {
			pr_err("ktest: no suite named '%s'; expected all, none "
			       "or a comma list of:%s\n", word, suite_list());
			ok = false;
		}
	}
	return ok;
}

struct tally {
	unsigned int passed, failed, skipped;
	/* A test that timed out, whose threads were abandoned still
	 * running: the rest of its suite is skipped (they could share its
	 * state), the run is reported as tainted, and memory is no longer
	 * checked for leaks (the abandoned threads hold some). */
	const struct ktest *timed_out;
	/* After a test that saw an RCU stall warning, memory is not
	 * checked either: grace periods may have stopped for good (a
	 * planted RCU bug), and the check's rcu_barrier() would wait for
	 * ever. */
	bool rcu_stalled;
	struct ktest_fixtures fixtures;
	const bool *stop;
	const char *spec;
};

/* Stall warnings so far, of normal and expedited grace periods. */
static u64 rcu_stall_warnings(void)
{
	struct rcu_stats s;

	rcu_get_stats(&s);
	return s.stalls + s.exp_stalls;
}

/* Run k, or skip it: its outcome, and *why, *kept and *leak for its
 * report. */
static enum ktest_outcome run_one(struct tally *total, const struct ktest *k,
				  const char **why, const char **kept,
				  const char **leak)
{
	static char tainted_why[96];
	struct ktest_fixtures *f = &total->fixtures;
	enum ktest_outcome r;
	bool fails;
	u64 stalls;

	*kept = NULL;
	*leak = NULL;
	if (total->stop && READ_ONCE(*total->stop)) {
		*why = "stopped before it began";
		return KTEST_SKIPPED;
	}
	if (total->timed_out && !strcmp(total->timed_out->suite, k->suite)) {
		ksnprintf(tainted_why, sizeof(tainted_why), "tainted: %s "
			  "timed out and its threads may still run",
			  total->timed_out->name);
		*why = tainted_why;
		return KTEST_SKIPPED;
	}
	*why = ktest_unmet_need(f, k, &fails);
	if (*why)
		return fails ? KTEST_FAILED : KTEST_SKIPPED;
	if (!total->timed_out && !total->rcu_stalled)
		ktest_fixture_begin(f, k);
	stalls = rcu_stall_warnings();
	r = ktest_execute(k, why);
	/* Recorded before the leak check, which asks whether the tests
	 * that need k will run. */
	ktest_record(f, k, r);
	if (rcu_stall_warnings() != stalls)
		total->rcu_stalled = true;
	if (r == KTEST_TIMED_OUT) {
		total->timed_out = k;
	} else if (!total->timed_out && !total->rcu_stalled) {
		*kept = ktest_fixture_kept(f, k);
		*leak = ktest_fixture_leaks(f, k);
	}
	if (*leak && r != KTEST_FAILED) {
		*why = NULL;
		return KTEST_FAILED;
	}
	return r;
}

static bool run_suite(const char *suite, unsigned int nr, struct tally *total)
{
	const struct ktest *k;
	unsigned int i = 0, suite_failed = 0;

	console_printf("    KTAP version 1\n    # Subtest: %s\n    1..%u\n",
		       suite, count_selected(total->spec, suite));
	for (k = __start_ktest_cases; k < __stop_ktest_cases; k++) {
		enum ktest_outcome r;
		const char *why, *kept, *leak;

		if (!ktest_selected(total->spec, k) || strcmp(k->suite, suite))
			continue;
		r = run_one(total, k, &why, &kept, &leak);
		ktest_record(&total->fixtures, k, r);
		i++;
		if (kept)
			console_printf("    # %s: %s\n", k->name, kept);
		if (r == KTEST_SKIPPED) {
			console_printf("    ok %u %s # SKIP %s\n", i, k->name,
				       why);
			total->skipped++;
		} else if (r == KTEST_PASSED) {
			console_printf("    ok %u %s\n", i, k->name);
			total->passed++;
		} else {
			if (why)
				console_printf("        # %s\n", why);
			if (leak)
				console_printf("        # %s\n", leak);
			console_printf("    not ok %u %s\n", i, k->name);
			total->failed++;
			suite_failed++;
		}
	}
	console_printf("%sok %u %s\n", suite_failed ? "not " : "", nr, suite);
	return suite_failed == 0;
}

bool ktest_run_until(const char *spec, const bool *stop)
{
	const struct ktest *k;
	struct tally total = { .stop = stop, .spec = spec };
	unsigned int nr = 0;

	if (!ktest_fixtures_init(&total.fixtures, spec, stop)) {
		pr_err("ktest: no memory for the runner's bookkeeping\n");
		return false;
	}
	console_printf("KTAP version 1\n1..%u\n", count_suites(spec));
	for (k = __start_ktest_cases; k < __stop_ktest_cases; k++) {
		if (!ktest_selected(spec, k) || suite_seen_before(k))
			continue;
		run_suite(k->suite, ++nr, &total);
	}
	ktest_fixtures_release(&total.fixtures);
	if (total.timed_out)
		console_printf("# tainted: %s.%s timed out; its threads were "
			       "left running, so later results may be off\n",
			       total.timed_out->suite, total.timed_out->name);
	/* KUnit's totals line, as KTAP tools read it. */
	console_printf("# Totals: pass:%u fail:%u skip:%u\n", total.passed,
		       total.failed, total.skipped);
	if (total.skipped)
		console_printf("%u passed, %u failed, %u skipped\n",
			       total.passed, total.failed, total.skipped);
	else
		console_printf("%u passed, %u failed\n", total.passed,
			       total.failed);
	return total.failed == 0;
}

bool ktest_run(const char *spec)
{
	return ktest_run_until(spec, NULL);
}

/* ktest= at boot. A suite name that matches nothing fails the run: a
 * typo must not pass as "0 tests, all passed". */
static bool ktest_run_at_boot(void)
{
	bool passed = ktest_spec_valid(ktest_spec);

	/* make run's ktest=none: no empty report before the prompt. */
	if (!strcmp(ktest_spec, "none"))
		return true;
	return ktest_run(ktest_spec) && passed;
}
LATE_WORK(LATE_WORK_SELFTEST, ktest_run_at_boot);

const char *ktest_suite_name(unsigned int n)
{
	const struct ktest *k;

	for (k = __start_ktest_cases; k < __stop_ktest_cases; k++)
		if (!suite_seen_before(k) && n-- == 0)
			return k->suite;
	return NULL;
}
