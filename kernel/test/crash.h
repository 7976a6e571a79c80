/*
 * crash=NAME: a deliberate fault after boot, so the harness can check that
 * each kind of failure produces the report it should. Subsystems register
 * their own crash kinds with CRASH_KIND next to the code they exercise.
 */
#ifndef KERNEL_CRASH_H
#define KERNEL_CRASH_H

#include "lib/compiler.h"

struct crash_kind {
	const char *name;
	const char *what;	/* one line for the help text */
	void (*fn)(void);
	bool warns;		/* reports a WARNING and goes on */
};

#define CRASH_KIND_DEFINE(n, w, f, goes_on)				\
	static const struct crash_kind __crash_##f			\
	__used __section("crash_kinds") __aligned(8) = {		\
		.name = n, .what = w, .fn = f, .warns = goes_on,	\
	}

/* A kind that must stop the machine: returning from it fails the run. */
#define CRASH_KIND(n, w, f)	CRASH_KIND_DEFINE(n, w, f, false)
/* A kind whose report is a warning, after which the boot goes on. */
#define CRASH_KIND_WARNS(n, w, f) CRASH_KIND_DEFINE(n, w, f, true)

#endif
