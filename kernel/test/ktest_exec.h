/* Running one self-test: on which CPU, in which thread, under a watchdog. */
#ifndef KERNEL_KTEST_EXEC_H
#define KERNEL_KTEST_EXEC_H

#include "ktest.h"

/* KTEST_TIMED_OUT is a failure whose threads may still be running. */
enum ktest_outcome { KTEST_PASSED, KTEST_FAILED, KTEST_SKIPPED,
		     KTEST_TIMED_OUT };

/* *why is set to a skip reason, or to a failure beyond the assertions
 * (a timeout). */
enum ktest_outcome ktest_execute(const struct ktest *k, const char **why);

#endif
