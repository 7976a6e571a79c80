/*
 * Needs and fixtures (ktest_fixture.h). A fixture's memory is checked
 * once, after the last of its tests that will run: a setup may keep
 * memory for the tests that need it, and the last of them frees it. A
 * leak reported once is added to the base of every fixture still open,
 * so that a fixture spanning the leaking test does not report it again.
 */
#include "ktest_fixture.h"
#include "ktest_leak.h"
#include "kernel/mm/kmalloc.h"
#include "lib/compiler.h"
#include "lib/format.h"
#include "lib/string.h"

struct test_state {
	bool decided;
	enum ktest_outcome outcome;
	/* Skipped for want of a test it needs: the test that did not
	 * pass, named in the skip, and passed on to its own dependents. */
	const struct ktest *cause;
	bool fixture_open;		/* leak check still to come */
	struct ktest_mem base;
};

static struct test_state *state_of(struct ktest_fixtures *f,
				   const struct ktest *k)
{
	return &f->state[k - __start_ktest_cases];
}

/* The first test of k's fixture: what k needs, what that needs... A need
 * that is not earlier is refused by ktest_unmet_need(), and ends the walk. */
static const struct ktest *fixture_root(const struct ktest *k)
{
	while (k->needs && k->needs < k)
		k = k->needs;
	return k;
}

/* Whether k will be skipped because a test it needs, directly or not,
 * has run and not passed. */
static bool blocked(struct ktest_fixtures *f, const struct ktest *k)
{
	const struct ktest *p, *d;

	for (p = k, d = k->needs; d && d < p; p = d, d = d->needs)
		if (state_of(f, d)->decided &&
		    state_of(f, d)->outcome != KTEST_PASSED)
			return true;
	return false;
}

/* Whether a later test of k's fixture may still run: then the fixture's
 * memory is checked after that one, not now. */
static bool fixture_goes_on(struct ktest_fixtures *f, const struct ktest *k)
{
	const struct ktest *root = fixture_root(k), *j;

	if (f->stop && READ_ONCE(*f->stop))
		return false;
	for (j = k + 1; j < __stop_ktest_cases; j++)
		if (ktest_selected(f->spec, j) && j->needs &&
		    !strcmp(j->suite, k->suite) && fixture_root(j) == root &&
		    !blocked(f, j))
			return true;
	return false;
}

/* Why k cannot run for want of what it needs, or NULL if it can. A need
 * that is not an earlier test of the suite is a mistake in the test's
 * definition, reported as a failure (*fails). */
const char *ktest_unmet_need(struct ktest_fixtures *f, const struct ktest *k,
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
	ds = state_of(f, d);
	if (!ds->decided) {
		ksnprintf(why, sizeof(why), "needs %s, which did not run "
			  "(not selected)", d->name);
	} else if (ds->cause) {
		state_of(f, k)->cause = ds->cause;
		ksnprintf(why, sizeof(why), "needs %s, which %s",
			  ds->cause->name,
			  state_of(f, ds->cause)->outcome == KTEST_SKIPPED ?
			  "was skipped" : "failed");
	} else if (ds->outcome != KTEST_PASSED) {
		state_of(f, k)->cause = d;
		ksnprintf(why, sizeof(why), "needs %s, which %s", d->name,
			  ds->outcome == KTEST_SKIPPED ? "was skipped" :
			  "failed");
	} else {
		return NULL;
	}
	return why;
}

/* Add what grew from before to after to every open fixture's base. */
static void accept_everywhere(struct ktest_fixtures *f, const struct ktest *k,
			      const struct ktest_mem *before,
			      const struct ktest_mem *after)
{
	const struct ktest *j;

	for (j = __start_ktest_cases; j <= k; j++)
		if (state_of(f, j)->fixture_open)
			ktest_mem_accept(&state_of(f, j)->base, before,
					 after);
}

/* What k kept on purpose (ktest_keep_begin()) is no leak: a line saying
 * what it was, or NULL. */
const char *ktest_fixture_kept(struct ktest_fixtures *f, const struct ktest *k)
{
	static char line[256];
	struct ktest_mem before, after;
	const char *why = ktest_mem_take_kept(&before, &after);
	char what[192];

	if (!why)
		return NULL;
	accept_everywhere(f, k, &before, &after);
	if (!ktest_mem_growth(&before, &after, what, sizeof(what)))
		return NULL;
	ksnprintf(line, sizeof(line), "kept: %s (%s)", what, why);
	return line;
}

/* After k ran: if its fixture is over, the memory its tests took must
 * be back. Returns a line for k's report if not. */
const char *ktest_fixture_leaks(struct ktest_fixtures *f, const struct ktest *k)
{
	static char line[256];
	const struct ktest *root = fixture_root(k);
	struct test_state *rs = state_of(f, root);
	struct ktest_mem now;
	char what[192];

	if (fixture_goes_on(f, k))
		return NULL;
	rs->fixture_open = false;
	ktest_mem_measure(&now);
	if (!ktest_mem_growth(&rs->base, &now, what, sizeof(what)))
		return NULL;
	/* Reported here once: fixtures still open that span k would
	 * otherwise count it again. */
	accept_everywhere(f, k, &rs->base, &now);
	if (root == k)
		ksnprintf(line, sizeof(line), "leak: %s still allocated after "
			  "the test", what);
	else
		ksnprintf(line, sizeof(line), "leak: %s still allocated after "
			  "%s and the tests that need it", what, root->name);
	return line;
}

bool ktest_fixtures_init(struct ktest_fixtures *f, const char *spec,
			 const bool *stop)
{
	f->spec = spec;
	f->stop = stop;
	f->state = kzalloc((__stop_ktest_cases - __start_ktest_cases) *
			   sizeof(*f->state));
	return f->state != NULL;
}

void ktest_fixtures_release(struct ktest_fixtures *f)
{
	kfree(f->state);
	f->state = NULL;
}

void ktest_fixture_begin(struct ktest_fixtures *f, const struct ktest *k)
{
	struct test_state *s = state_of(f, k);

	if (fixture_root(k) != k)
		return;
	ktest_mem_measure(&s->base);
	s->fixture_open = true;
}

void ktest_record(struct ktest_fixtures *f, const struct ktest *k,
		  enum ktest_outcome r)
{
	state_of(f, k)->outcome = r;
	state_of(f, k)->decided = true;
}
