/*
 * rcutorture's fake writers: threads that only wait for grace periods, of
 * every flavour enabled, so that synchronous, expedited, polled, barrier
 * and asynchronous waits overlap on several CPUs with the writer's. Each
 * wait is checked by the oracle against every read-side section running
 * when it ends. They sit out both kinds of pause.
 */
#include "internal.h"
#include "kernel/time.h"
#include "lib/atomic.h"

#define FAKE_ASYNC_HEADS	4

/* A fake writer's own call_rcu() traffic: a few heads, each in flight or
 * free, so that its memory is bounded and outlives every callback (the
 * run ends with rcu_barrier()). */
struct fake_async {
	struct rcu_head rcu;
	unsigned long stamp;
	bool in_flight;
};

static struct fake_async fake_heads[64][FAKE_ASYNC_HEADS];

static void fake_async_done(struct rcu_head *head)
{
	struct fake_async *f = container_of(head, struct fake_async, rcu);

	atomic_add_relaxed(&torture.cbs_invoked, 1);
	oracle_check(f->stamp, torture.ops->gp_names[TGP_ASYNC]);
	/* Only this callback and fake_call_rcu() touch in_flight, and they
	 * never overlap: the head is queued until here. */
	WRITE_ONCE(f->in_flight, false);
}

static void fake_call_rcu(struct fake_async *heads)
{
	unsigned int i;

	for (i = 0; i < FAKE_ASYNC_HEADS; i++) {
		if (READ_ONCE(heads[i].in_flight))
			continue;
		heads[i].in_flight = true;
		heads[i].stamp = oracle_stamp();
		torture.ops->call(&heads[i].rcu, fake_async_done);
		return;
	}
}

void torture_fakewriter(void *arg)
{
	unsigned int me = (unsigned int)(uptr)arg;
	struct prng rng;

	prng_seed(&rng, torture.cfg.seed + me * 7919);
	while (!READ_ONCE(torture.stop)) {
		enum torture_gp gp;

		if (READ_ONCE(torture.stutter) != STUTTER_NONE) {
			torture_sit_out_pause();
			continue;
		}
		gp = torture_pick_gp(&rng);
		if (gp == TGP_ASYNC)
			fake_call_rcu(fake_heads[me % ARRAY_SIZE(fake_heads)]);
		else
			torture_wait_gp(gp, &rng);
		sleep_ms(prng_below(&rng, 10));
	}
}
