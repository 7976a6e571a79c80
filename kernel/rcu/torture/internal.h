/* rcutorture's shared state (rcutorture.c explains the test). */
#ifndef KERNEL_TORTURE_INTERNAL_H
#define KERNEL_TORTURE_INTERNAL_H

#include "oracle.h"
#include "rcutorture.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/spinlock.h"
#include "kernel/sched/waitqueue.h"
#include "lib/list.h"
#include "lib/random.h"

#define TORTURE_POOL_SIZE	128
/* Room for every thread of a run: a writer, the fake writers (64 at
 * most), the readers (torture.readers=, 256 at most, or one per CPU), a
 * hog per CPU and the per-CPU threads of the boost test and the rest. */
#define TORTURE_MAX_THREADS	(3 * nr_cpus + 256 + 64)

enum torture_gp { TGP_SYNC, TGP_EXP, TGP_POLL, TGP_ASYNC, TGP_BARRIER,
		  TGP_COUNT };

/* The pauses of the run (torture_monitor() alternates them): every
 * STUTTER_PERIOD_MS, a pause of STUTTER_PAUSE_MS. */
#define STUTTER_PERIOD_MS	4000
#define STUTTER_PAUSE_MS	1000
enum torture_stutter {
	STUTTER_NONE,
	STUTTER_HOGS,	/* the hogs of CPUs 1 and up spin alone while CPU 0
			 * asks for grace periods: RCU must nudge them */
	STUTTER_IDLE,	/* all but the writer and the interrupt readers
			 * pause: CPUs go in and out of idle */
};

/* What a flavour's readers and writers call (ops.c). */
struct torture_ops {
	const char *name;
	int (*read_lock)(void);		/* returns what read_unlock takes */
	void (*read_unlock)(int idx);
	bool (*read_held)(void);	/* for rcu_dereference_check() */
	bool readers_sleep;		/* thread sections may sleep */
	unsigned long (*gp_seq)(void);	/* odd while a grace period runs */
	u64 (*exp_completed)(void);
	unsigned long (*get_state)(void);
	unsigned long (*start_poll)(void);
	bool (*poll_state)(unsigned long cookie);
	void (*cond_sync)(unsigned long cookie);
	void (*sync)(void);
	void (*exp_sync)(void);
	void (*call)(struct rcu_head *head, rcu_callback_t func);
	void (*cb_barrier)(void);
	const char *gp_names[TGP_COUNT];	/* for the oracle's reports */
};

/* The flavour named, or NULL. */
const struct torture_ops *torture_find_ops(const char *name);

struct torture_elem {
	struct rcu_head rcu;
	struct list_head link;		/* pool or writer pipe */
	unsigned int pipe_count;	/* grace periods since retired */
	unsigned int mbtest;		/* 1 while valid, 0 once freed */
	unsigned long stamp;		/* oracle stamp of its call_rcu() */
};

struct torture_state {
	struct torture_config cfg;
	const struct torture_ops *ops;
	bool gp_enabled[TGP_COUNT];
	struct torture_elem __rcu *current;
	struct torture_elem *elems;
	struct list_head pool;
	spinlock_t pool_lock;
	struct list_head writer_pipe;	/* writer thread only */
	bool stop;
	enum torture_stutter stutter;
	struct wait_queue pause_end;	/* threads sitting out a pause */
	unsigned long version;		/* writer's replacements */
	unsigned long pool_empty;
	unsigned long frees;
	unsigned long free_circulation[TORTURE_PIPE_LEN + 1];
	unsigned long reader_pipe[TORTURE_PIPE_LEN + 1];
	unsigned long reader_batch[TORTURE_PIPE_LEN + 1];
	unsigned long poison_seen;	/* rtmbe */
	unsigned long poll_early;	/* cookie complete inside a reader */
	unsigned long writer_stalls;
	unsigned long sections;
	unsigned long irq_sections;	/* of those, in interrupt handlers */
	unsigned long preempted_sections; /* preempted on purpose */
	/* The boost test (boost.c), Linux's rtb: and rtbf: fields. */
	unsigned long boosts, boost_failures;
	unsigned long cbs_invoked;	/* the torture's own callbacks */
	/* CPU hotplug (onoff.c), Linux's onoff: field. */
	unsigned long offline_attempts, offline_successes;
	unsigned long online_attempts, online_successes;
	unsigned long onoff_failures;
	struct thread **threads;	/* TORTURE_MAX_THREADS */
	unsigned int nr_threads;
};

extern struct torture_state torture;

enum torture_gp torture_pick_gp(struct prng *rng);
/* Wait for a grace period of flavour gp (not async), and check it with
 * the oracle: the writer and the fake writers share it. */
void torture_wait_gp(enum torture_gp gp, struct prng *rng);
/* One read-side section, in reader thread number `reader` or, with
 * ORACLE_IRQ, in an interrupt handler. */
void torture_read_section(struct prng *rng, unsigned int reader);
int torture_setup(const struct torture_config *cfg);
void torture_start_threads(thread_fn writer);
void torture_fakewriter(void *arg);
/* The timed part of the run: status lines, pauses, writer stalls. */
void torture_monitor(const bool *stop);
/* Around the run's end: what every thread does if it takes too long. */
void torture_teardown_watch_start(void);
void torture_teardown_watch_stop(void);
/* Block until the current pause ends (or the run stops). */
void torture_sit_out_pause(void);
void torture_stop_threads(void);
unsigned long torture_errors(void);
/* The names of the checks that failed, appended to buf ("a, b") for the
 * verdict line; torture_name_failure() appends one more. */
void torture_name_failures(char *buf, size_t size);
void torture_name_failure(char *buf, size_t size, const char *name);
/* RCU's stall warnings since `before` that fail the run; *starved gets
 * those that named only vCPUs the host starved, which do not. */
struct rcu_stats;
u64 torture_counted_stalls(const struct rcu_stats *before, u64 *starved);
void torture_print_stats(const char *tail);
void torture_teardown(void);
/* Read-side sections in timer callbacks on every CPU, and in IPI
 * handlers sent to every CPU (irq_readers.c). */
void torture_irq_readers_start(void);
void torture_irq_readers_stop(void);
/* CPUs going offline and back during the run (onoff.c). */
void torture_onoff_start(void);
void torture_onoff_stop(void);
/* torture.preempt= (preempt.c): checked once per run (ignored, with a
 * note, where readers cannot be preempted); a thread reader, inside its
 * section with interrupts on, is preempted now and then. */
void torture_preempt_setup(void);
void torture_preempt_reader_maybe(struct prng *rng);
/* Real-time hogs preempting readers that only boosting lets finish
 * (boost.c); stopped when the timed part of the run ends. */
void torture_boost_start(void);
void torture_boost_stop(void);

#endif
