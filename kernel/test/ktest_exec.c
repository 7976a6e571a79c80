/*
 * Running one self-test. The body runs in kernel threads of its own, one
 * (KTEST, KTEST_ON_CPU) or one per online CPU (KTEST_EACH_CPU, released
 * together), while the runner waits with a watchdog: a body still running
 * at its deadline is reported `not ok` and abandoned (its thread is left
 * as it is, never joined), and the run goes on.
 */
#include "ktest_exec.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/timer.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/time.h"
#include "lib/atomic.h"
#include "lib/format.h"

struct test_run;

/* One body: at most one per CPU present, so a run holds nr_cpus. */
struct body {
	struct ktest_context ctx;
	struct thread *thread;
	struct test_run *run;
};

struct test_run {
	unsigned int nr_bodies;
	unsigned int finished;		/* bodies that returned */
	bool go;			/* releases EACH_CPU bodies together */
	bool timed_out;			/* set by the watchdog timer */
	struct wait_queue done;		/* the runner sleeps here */
	struct timer watchdog;
	struct body bodies[];
};

static void test_body(void *arg)
{
	struct body *b = arg;
	struct test_run *run = b->run;

	while (!READ_ONCE(run->go))
		arch_cpu_relax();
	b->ctx.test->fn(&b->ctx);
	/* Release: the body's failure counts are visible to the runner
	 * once it sees this; pairs with the acquire in all_finished(). */
	if (atomic_add_return(&run->finished, 1) ==
	    run->nr_bodies)
		wake_up_all(&run->done);
}

static bool all_finished(struct test_run *run)
{
	return smp_load_acquire(&run->finished) >=
	       run->nr_bodies;
}

static void watchdog_fired(void *arg)
{
	struct test_run *run = arg;

	WRITE_ONCE(run->timed_out, true);
	wake_up_all(&run->done);
}

/* Sleep until the bodies finish or the watchdog fires; the runner wakes
 * for nothing else, so it adds no load to the CPUs under test. */
static bool wait_for_bodies(struct test_run *run, unsigned int timeout_ms)
{
	run->watchdog.fn = watchdog_fired;
	run->watchdog.arg = run;
	timer_add(&run->watchdog, clock_ns() + timeout_ms * NSEC_PER_MSEC);
	wait_event(&run->done, all_finished(run) || READ_ONCE(run->timed_out));
	timer_cancel(&run->watchdog);
	return all_finished(run);
}

static bool start_body(struct test_run *run, const struct ktest *k,
		       unsigned int index, int cpu)
{
	struct body *b = &run->bodies[index];
	struct thread *t;

	b->ctx.test = k;
	b->ctx.cpu = cpu;
	b->run = run;
	if (cpu >= 0)
		t = thread_create_on(test_body, b, k->name, cpu);
	else
		t = thread_create(test_body, b, k->name);
	b->thread = t;
	return t != NULL;
}

enum ktest_outcome ktest_execute(const struct ktest *k, const char **why)
{
	static char reason[96];
	struct test_run *run = kzalloc(offsetof(struct test_run, bodies) +
				       nr_cpus * sizeof(struct body));
	enum ktest_outcome result = KTEST_PASSED;
	unsigned int i, cpu;

	*why = NULL;
	if (!run) {
		*why = "out of memory for the test's bookkeeping";
		return KTEST_FAILED;
	}
	wait_queue_init(&run->done);
	if (k->cpu >= 0 && (unsigned int)k->cpu >= nr_cpus_online) {
		ksnprintf(reason, sizeof(reason), "needs cpu%d", k->cpu);
		*why = reason;
		kfree(run);
		return KTEST_SKIPPED;
	}
	if (k->cpu == KTEST_EACH_CPU_MARK) {
		for_each_online_cpu(cpu)
			if (!start_body(run, k, run->nr_bodies++, cpu))
				goto no_thread;
	} else if (!start_body(run, k, run->nr_bodies++, k->cpu)) {
		goto no_thread;
	}
	WRITE_ONCE(run->go, true);
	if (!wait_for_bodies(run, k->timeout_ms)) {
		ksnprintf(reason, sizeof(reason), "timed out after %u ms; the "
			  "test's threads are abandoned", k->timeout_ms);
		*why = reason;
		return KTEST_TIMED_OUT;	/* run stays allocated: bodies use it */
	}
	for (i = 0; i < run->nr_bodies; i++) {
		struct body *b = &run->bodies[i];

		thread_join(b->thread);
		if (b->ctx.failures)
			result = KTEST_FAILED;
		else if (b->ctx.skip_reason && result == KTEST_PASSED) {
			result = KTEST_SKIPPED;
			*why = b->ctx.skip_reason;
		}
	}
	kfree(run);
	return result;

no_thread:
	WRITE_ONCE(run->go, true);
	*why = "could not create the test's threads";
	return KTEST_FAILED;
}
