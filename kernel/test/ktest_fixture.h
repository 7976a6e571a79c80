/*
 * What the self-test runner remembers of the tests it ran: whether each
 * passed, so that a test whose setup did not is skipped, naming it; and
 * for each fixture (a test and the later tests that need it, directly or
 * not; most tests are a fixture of one) the memory held before its first
 * test, for the leak check after the last of its tests that runs.
 */
#ifndef KERNEL_KTEST_FIXTURE_H
#define KERNEL_KTEST_FIXTURE_H

#include "ktest.h"
#include "ktest_exec.h"

/* ktest.c's: the test descriptors, in link order, and the selection. */
extern const struct ktest __start_ktest_cases[];
extern const struct ktest __stop_ktest_cases[];
bool ktest_selected(const char *spec, const struct ktest *k);

struct ktest_fixtures {
	const char *spec;
	const bool *stop;	/* once set, no test will start */
	struct test_state *state;	/* one per descriptor, by index */
};

/* For one run of `spec`; false if out of memory. */
bool ktest_fixtures_init(struct ktest_fixtures *f, const char *spec,
			 const bool *stop);
void ktest_fixtures_release(struct ktest_fixtures *f);

/* Why k cannot run for want of a test it needs, or NULL if it can. A
 * need that is not an earlier test of the suite sets *fails. */
const char *ktest_unmet_need(struct ktest_fixtures *f, const struct ktest *k,
			     bool *fails);
/* Before k runs: if it starts a fixture, count the memory held. */
void ktest_fixture_begin(struct ktest_fixtures *f, const struct ktest *k);
/* k's outcome, run or skipped. */
void ktest_record(struct ktest_fixtures *f, const struct ktest *k,
		  enum ktest_outcome r);
/* After k ran: a `kept:` line for what it kept on purpose, or NULL. */
const char *ktest_fixture_kept(struct ktest_fixtures *f,
			       const struct ktest *k);
/* After k ran: a `leak:` line if its fixture is over and the memory its
 * tests took is not all back, else NULL. */
const char *ktest_fixture_leaks(struct ktest_fixtures *f,
				const struct ktest *k);

#endif
