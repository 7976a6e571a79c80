/*
 * The scheduler paths RCU's quiescent states ride on: the cost of a
 * context switch (two threads on one CPU yielding to each other) and the
 * latency of waking a thread on another CPU (a completion ping-pong).
 */
#include "bench.h"
#include "kernel/percpu.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"

#define YIELDS		20000u
#define PINGS		200u

static void yielder(void *arg)
{
	unsigned int *left = arg;

	while (READ_ONCE(*left)) {
		WRITE_ONCE(*left, *left - 1);
		yield();
	}
}

BENCH(context_switch)
{
	u64 samples[32];
	unsigned int r, n = b->repeats < 32 ? b->repeats : 32;
	unsigned int count = b->quick ? 200 : YIELDS;

	for (r = 0; r < n; r++) {
		unsigned int left_a = count, left_b = count;
		struct thread *ta = thread_create_on(yielder, &left_a, "yield_a", 0);
		struct thread *tb = thread_create_on(yielder, &left_b, "yield_b", 0);
		u64 start = clock_ns();

		if (ta)
			thread_join(ta);
		if (tb)
			thread_join(tb);
		if (!ta || !tb)
			return;
		samples[r] = (clock_ns() - start) / (2 * count);
	}
	bench_report(b, "yield between two threads", "ns/switch", samples, n);
}

struct ping {
	struct completion to_far, to_near;
	u64 sent_at, latency[PINGS];
	unsigned int rounds;
};

static void far_side(void *arg)
{
	struct ping *p = arg;
	unsigned int i;

	for (i = 0; i < p->rounds; i++) {
		wait_for_completion(&p->to_far);
		p->latency[i] = (clock_ns() - READ_ONCE(p->sent_at));
		complete(&p->to_near);
	}
}

BENCH(wakeup)
{
	static struct ping p;
	struct thread *far;
	unsigned int i;

	if (nr_cpus_online < 2)
		return;
	init_completion(&p.to_far);
	init_completion(&p.to_near);
	p.rounds = b->quick ? 5 : PINGS;
	far = thread_create_on(far_side, &p, "far_side", 1);
	if (!far)
		return;
	for (i = 0; i < p.rounds; i++) {
		WRITE_ONCE(p.sent_at, clock_ns());
		complete(&p.to_far);
		wait_for_completion(&p.to_near);
	}
	thread_join(far);
	bench_report(b, "cross-CPU wake-up", "ns", p.latency, p.rounds);
}
