#include "ktest_exec.h"

enum ktest_outcome ktest_execute(const struct ktest *k, const char **why)
{
	struct ktest_context t = { .test = k, .cpu = 0 };

	k->fn(&t);
	*why = t.skip_reason;
	if (t.failures)
		return KTEST_FAILED;
	return t.skip_reason ? KTEST_SKIPPED : KTEST_PASSED;
}
