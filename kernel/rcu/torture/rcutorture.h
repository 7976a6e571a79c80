/*
 * rcutorture: a stress test in the shape of Linux's, built to catch an
 * RCU that ends grace periods early (rcutorture.c explains how).
 */
#ifndef KERNEL_RCUTORTURE_H
#define KERNEL_RCUTORTURE_H

#include "lib/types.h"

#define TORTURE_PIPE_LEN	10

struct torture_config {
	char type[8];			/* rcu or srcu */
	unsigned int secs;
	unsigned int readers;		/* 0: one per CPU */
	unsigned int fakewriters;
	unsigned int stat_interval;	/* seconds between status lines */
	u64 seed;
	char gp[64];			/* flavours: sync,exp,poll,async,barrier */
	bool forward_progress;		/* end with a call_rcu() flood */
	unsigned int onoff_interval_ms;	/* CPU hotplug every so often */
	unsigned int onoff_holdoff_ms;
	unsigned int preempt_one_in;	/* preempt 1 in N thread sections */
	bool test_boost;		/* real-time hogs against readers */
};

/* The torture.* command-line options. */
extern struct torture_config torture_cmdline;

/* Run for cfg->secs; true on SUCCESS. Stops early when *stop is set. */
bool rcu_torture_run(const struct torture_config *cfg, const bool *stop);

/* The forward-progress phase (forward_progress.c): flood call_rcu()
 * while the readers run, for a number of grace periods; true if they
 * ended before memory ran low, and every callback ran. */
bool rcu_torture_forward_progress(void);

#endif
