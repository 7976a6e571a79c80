/*
 * crash=ubsan and crash=stack_smash: the debug build's sanitizer and
 * stack protector each report what they exist to catch.
 */
#include "crash.h"
#include "lib/string.h"

/* volatile: the compiler must not see the shift count or fold the UB. */
static volatile unsigned int shift_by = 40;

static void shift_too_far(void)
{
	volatile int one = 1;

	(void)(one << shift_by);
}
CRASH_KIND_WARNS("ubsan", "an int shifted by 40 (undefined behaviour)",
		 shift_too_far);

static volatile size_t overrun_by = 64;

/* noinline: the overrun must hit this frame's canary, not a caller's. */
static __attribute__((noinline)) void smash_own_stack(void)
{
	char buf[16];

	memset(buf, 0x41, sizeof(buf) + overrun_by);
	barrier();
}
CRASH_KIND("stack_smash", "write past a local array", smash_own_stack);
