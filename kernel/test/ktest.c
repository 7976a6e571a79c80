/*
 * The self-test runner: walks the ktest_cases section in link order
 * (files sorted by name, tests in file order), groups tests by suite and
 * prints KTAP version 1: each suite is an indented subtest with its own
 * plan, failure diagnostics are `#` lines, and the run ends with
 * `N passed, N failed` for the harness.
 */
#include "ktest.h"
#include "ktest_exec.h"
#include "ktest_leak.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "lib/atomic.h"
#include "lib/format.h"
#include "lib/parse.h"
#include "lib/string.h"

extern const struct ktest __start_ktest_cases[];
extern const struct ktest __stop_ktest_cases[];

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

static bool selected(const char *spec, const struct ktest *k)
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
		if (selected(spec, k) && (!suite || !strcmp(k->suite, suite)))
			n++;
	return n;
}

static unsigned int count_suites(const char *spec)
{
	const struct ktest *k;
	unsigned int n = 0;

	for (k = __start_ktest_cases; k < __stop_ktest_cases; k++)
		if (selected(spec, k) && !suite_seen_before(k))
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

struct test_state {
	bool decided;
	enum ktest_outcome outcome;
	/* Skipped for want of a test it needs: the test that did not
	 * pass, named in the skip, and passed on to its own dependents. */
	const struct ktest *cause;
	bool fixture_open;		/* leak check still to come */
	struct ktest_mem base;
};

struct tally {
	unsigned int passed, failed, skipped;
	/* A test that timed out, whose threads were abandoned still
	 * running: the rest of its suite is skipped (they could share its
	 * state), the run is reported as tainted, and memory is no longer
	 * checked for leaks (the abandoned threads hold some). */
	const struct ktest *timed_out;
	/* One per test of the section, by index: its outcome once run, and
	 * for a fixture's first test the memory held before it ran. */
	struct test_state *state;
	const bool *stop;
	const char *spec;
};

static struct test_state *state_of(struct tally *total, const struct ktest *k)
{
	return &total->state[k - __start_ktest_cases];
}

/* The first test of k's fixture: what k needs, what that needs... A need
 * that is not earlier is refused by unmet_need(), and ends the walk. */
static const struct ktest *fixture_root(const struct ktest *k)
{
	while (k->needs && k->needs < k)
		k = k->needs;
	return k;
}

/* Whether k will be skipped because a test it needs, directly or not,
 * has run and not passed. */
static bool blocked(struct tally *total, const struct ktest *k)
{
	const struct ktest *p, *d;

	for (p = k, d = k->needs; d && d < p; p = d, d = d->needs)
		if (state_of(total, d)->decided &&
		    state_of(total, d)->outcome != KTEST_PASSED)
			return true;
	return false;
}

/* Whether a later test of k's fixture may still run: then the fixture's
 * memory is checked after that one, not now. */
static bool fixture_goes_on(struct tally *total, const struct ktest *k)
{
	const struct ktest *root = fixture_root(k), *j;

	if (total->stop && READ_ONCE(*total->stop))
		return false;
	for (j = k + 1; j < __stop_ktest_cases; j++)
		if (selected(total->spec, j) && j->needs &&
		    fixture_root(j) == root && !blocked(total, j))
			return true;
	return false;
}

/* Why k cannot run for want of what it needs, or NULL if it can. A need
 * that is not an earlier test of the suite is a mistake in the test's
 * definition, reported as a failure (*fails). */
static const char *unmet_need(struct tally *total, const struct ktest *k,
			      bool *fails)
{
	static char why[160];
	const struct ktest *d = k->needs;
	struct test_state *ds;

	*fails = false;
	if (!d)
		return NULL;
	if (d >= k || strcmp(d->suite, k->suite)) {
		*fails = true;
		ksnprintf(why, sizeof(why), "needs %s.%s, which is not an "
			  "earlier test of suite %s", d->suite, d->name,
			  k->suite);
		return why;
	}
	ds = state_of(total, d);
	if (!ds->decided) {
		ksnprintf(why, sizeof(why), "needs %s, which did not run "
			  "(not selected)", d->name);
	} else if (ds->cause) {
		state_of(total, k)->cause = ds->cause;
		ksnprintf(why, sizeof(why), "needs %s, which %s",
			  ds->cause->name,
			  state_of(total, ds->cause)->outcome == KTEST_SKIPPED ?
			  "was skipped" : "failed");
	} else if (ds->outcome != KTEST_PASSED) {
		state_of(total, k)->cause = d;
		ksnprintf(why, sizeof(why), "needs %s, which %s", d->name,
			  ds->outcome == KTEST_SKIPPED ? "was skipped" :
			  "failed");
	} else {
		return NULL;
	}
	return why;
}

/* Add what grew from before to after to every open fixture's base. */
static void accept_everywhere(struct tally *total, const struct ktest *k,
			      const struct ktest_mem *before,
			      const struct ktest_mem *after)
{
	const struct ktest *j;

	for (j = __start_ktest_cases; j <= k; j++)
		if (state_of(total, j)->fixture_open)
			ktest_mem_accept(&state_of(total, j)->base, before,
					 after);
}

/* What k kept on purpose (ktest_keep_begin()) is no leak: a line saying
 * what it was, or NULL. */
static const char *note_kept(struct tally *total, const struct ktest *k)
{
	static char line[256];
	struct ktest_mem before, after;
	const char *why = ktest_mem_take_kept(&before, &after);
	char what[192];

	if (!why)
		return NULL;
	accept_everywhere(total, k, &before, &after);
	if (!ktest_mem_growth(&before, &after, what, sizeof(what)))
		return NULL;
	ksnprintf(line, sizeof(line), "kept: %s (%s)", what, why);
	return line;
}

/* After k ran: if its fixture is over, the memory its tests took must
 * be back. Returns a line for k's report if not. */
static const char *check_leaks(struct tally *total, const struct ktest *k)
{
	static char line[256];
	const struct ktest *root = fixture_root(k);
	struct test_state *rs = state_of(total, root);
	struct ktest_mem now;
	char what[192];

	if (fixture_goes_on(total, k))
		return NULL;
	rs->fixture_open = false;
	ktest_mem_measure(&now);
	if (!ktest_mem_growth(&rs->base, &now, what, sizeof(what)))
		return NULL;
	/* Reported here once: fixtures still open that span k would
	 * otherwise count it again. */
	accept_everywhere(total, k, &rs->base, &now);
	if (root == k)
		ksnprintf(line, sizeof(line), "leak: %s still allocated after "
			  "the test", what);
	else
		ksnprintf(line, sizeof(line), "leak: %s still allocated after "
			  "%s and the tests that need it", what, root->name);
	return line;
}

/* Run k, or skip it: its outcome, and *why, *kept and *leak for its
 * report. */
static enum ktest_outcome run_one(struct tally *total, const struct ktest *k,
				  const char **why, const char **kept,
				  const char **leak)
{
	static char tainted_why[96];
	struct test_state *s = state_of(total, k);
	bool fails;

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
	*why = unmet_need(total, k, &fails);
	if (*why)
		return fails ? KTEST_FAILED : KTEST_SKIPPED;
	if (fixture_root(k) == k && !total->timed_out) {
		ktest_mem_measure(&s->base);
		s->fixture_open = true;
	}
	s->outcome = ktest_execute(k, why);
	/* Decided before the leak check, which asks whether the tests
	 * that need k will run. */
	s->decided = true;
	if (s->outcome == KTEST_TIMED_OUT) {
		total->timed_out = k;
	} else if (!total->timed_out) {
		*kept = note_kept(total, k);
		*leak = check_leaks(total, k);
	}
	if (*leak && s->outcome != KTEST_FAILED) {
		*why = NULL;
		return KTEST_FAILED;
	}
	return s->outcome;
}

static bool run_suite(const char *suite, unsigned int nr, struct tally *total)
{
	const struct ktest *k;
	unsigned int i = 0, suite_failed = 0;

	console_printf("    KTAP version 1\n    # Subtest: %s\n    1..%u\n",
		       suite, count_selected(total->spec, suite));
	for (k = __start_ktest_cases; k < __stop_ktest_cases; k++) {
		struct test_state *s = state_of(total, k);
		const char *why, *kept, *leak;

		if (!selected(total->spec, k) || strcmp(k->suite, suite))
			continue;
		s->outcome = run_one(total, k, &why, &kept, &leak);
		s->decided = true;
		i++;
		if (kept)
			console_printf("    # %s: %s\n", k->name, kept);
		if (s->outcome == KTEST_SKIPPED) {
			console_printf("    ok %u %s # SKIP %s\n", i, k->name,
				       why);
			total->skipped++;
		} else if (s->outcome == KTEST_PASSED) {
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

	total.state = kzalloc((__stop_ktest_cases - __start_ktest_cases) *
			      sizeof(*total.state));
	if (!total.state) {
		pr_err("ktest: no memory for the runner's bookkeeping\n");
		return false;
	}
	console_printf("KTAP version 1\n1..%u\n", count_suites(spec));
	for (k = __start_ktest_cases; k < __stop_ktest_cases; k++) {
		if (!selected(spec, k) || suite_seen_before(k))
			continue;
		run_suite(k->suite, ++nr, &total);
	}
	kfree(total.state);
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
