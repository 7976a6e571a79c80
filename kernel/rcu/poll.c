/*
 * Polled grace periods: a cookie now, and later the question whether a
 * full grace period has elapsed since, with Linux 6.x's names. Either
 * kind of grace period, normal or expedited, satisfies any cookie.
 *
 * A _full cookie (struct rcu_gp_oldstate) holds a snapshot of each
 * sequence: the value of the engine's gp_seq, and of its expedited one,
 * at which a grace period of that kind begun after the call will have
 * ended (rcu_seq_snap()). A plain cookie is one unsigned long, as
 * Linux's is; Linux 6.1 keeps a third sequence that both kinds advance
 * for it. Here it holds both snapshots in 32 bits each, the normal one
 * low and the expedited one high, compared modulo 2^32. A half can only
 * err towards "not yet", and only once 2^30 grace periods of its kind
 * have passed since the cookie was taken (the horizon a 32-bit Linux's
 * cookies have): then the caller waits for one more grace period.
 */
#include "engine.h"
#include "kernel/sched/waitqueue.h"
#include "lib/atomic.h"

#define COOKIE_HALF_BITS	32

/* Internal to RCU: gp_seq's value once a normal grace period begun after
 * the caller's earlier accesses has ended. What synchronize_rcu() and
 * the cookies wait for. */
unsigned long rcu_gp_snap(void)
{
	/* Full barrier: the caller's earlier updates come before the
	 * sample of gp_seq, so a grace period that has already started
	 * (and might miss those updates' readers) is not counted. Pairs
	 * with the full barrier each engine places after it makes gp_seq
	 * odd: rcu_gp_start()'s smp_mb() (tree), classic_start_batch()'s
	 * (classic). */
	smp_mb();
	return rcu_seq_snap(rcu_engine->gp_seq());
}

/* Whether the normal grace period rcu_gp_snap() named has ended. */
bool rcu_gp_done(unsigned long snap)
{
	/* The engine reads its sequence with acquire: the ended grace
	 * period's readers are done before the caller's next accesses. */
	return rcu_seq_done(rcu_engine->gp_seq(), snap);
}

/* For _full cookies: the expedited sequence's value at which an
 * expedited grace period begun after the caller's full barrier will
 * have ended. A stale read is smaller: at worst a later one is named. */
unsigned long rcu_exp_get_state(void)
{
	return rcu_seq_snap(rcu_engine->exp_seq());
}

static unsigned long pack_cookie(const struct rcu_gp_oldstate *rgos)
{
	return (u32)rgos->rgos_norm |
	       ((unsigned long)(u32)rgos->rgos_exp << COOKIE_HALF_BITS);
}

/* rcu_seq_done() on 32-bit halves: wrap-safe within 2^31. */
static bool half_done(unsigned long now, unsigned long half)
{
	return (s32)((u32)now - (u32)half) >= 0;
}

/**
 * get_state_synchronize_rcu - a cookie for polling for a grace period
 *
 * Context: any, interrupt handlers and read-side sections included;
 * never sleeps. It does not ask for a grace period: pass the cookie to
 * cond_synchronize_rcu(), or rely on other activity (call_rcu()) to
 * start one, or poll_state_synchronize_rcu() may stay false.
 * A full barrier comes first, so the caller's earlier accesses are
 * ordered before the samples of the grace-period counters.
 * Return: the cookie for poll_state_synchronize_rcu() and
 * cond_synchronize_rcu().
 */
unsigned long get_state_synchronize_rcu(void)
{
	struct rcu_gp_oldstate rgos;

	get_state_synchronize_rcu_full(&rgos);
	return pack_cookie(&rgos);
}

/**
 * start_poll_synchronize_rcu - a cookie for polling, and the grace period
 *	it needs asked for
 *
 * Context: any context where get_state_synchronize_rcu() may be used;
 * never sleeps. As get_state_synchronize_rcu(), and it also asks for the
 * grace period the cookie waits for, so that polling with
 * poll_state_synchronize_rcu() ends even if nothing else starts one.
 * Return: the cookie.
 */
unsigned long start_poll_synchronize_rcu(void)
{
	struct rcu_gp_oldstate rgos;

	start_poll_synchronize_rcu_full(&rgos);
	return pack_cookie(&rgos);
}

/**
 * poll_state_synchronize_rcu - has a full grace period elapsed?
 * @cookie: from get_state_synchronize_rcu()
 *
 * Context: any, interrupt handlers and read-side sections included;
 * never sleeps and never asks for a grace period.
 * The counters are read with acquire: once this returns true, every
 * reader that began before get_state_synchronize_rcu() has ended, and
 * its accesses happen before the caller's later ones.
 * Return: true if a full grace period, normal or expedited, has ended
 * since the cookie was taken.
 */
bool poll_state_synchronize_rcu(unsigned long cookie)
{
	/* Both sequences are read with acquire (engine.h): pairs with the
	 * release that ends a grace period of either kind. */
	return half_done(rcu_engine->gp_seq(), cookie) ||
	       half_done(rcu_engine->exp_seq(), cookie >> COOKIE_HALF_BITS);
}

/**
 * cond_synchronize_rcu - wait for a grace period unless one has elapsed
 * @cookie: from get_state_synchronize_rcu()
 *
 * Context: as synchronize_rcu() (it may sleep), after
 * rcu_start_kthreads(). Returns at once if a grace period of either
 * kind has ended since the cookie was taken; otherwise waits for a
 * normal one, as Linux's does.
 * On return, as poll_state_synchronize_rcu() returning true: every
 * reader that began before the cookie was taken has ended, and its
 * accesses happen before the caller's later ones.
 */
void cond_synchronize_rcu(unsigned long cookie)
{
	if (!poll_state_synchronize_rcu(cookie))
		synchronize_rcu();
}

/**
 * get_state_synchronize_rcu_full - a cookie that either kind of grace
 * period satisfies
 * @rgosp: where to store it
 *
 * Context: any; never sleeps, asks for nothing. One full barrier before
 * both samples, as in get_state_synchronize_rcu().
 */
void get_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	/* rcu_gp_snap()'s full barrier comes first: the caller's updates
	 * come before both samples; it pairs with rcu_gp_start()'s smp_mb()
	 * and with the locked add that follows the start of an expedited
	 * grace period (exp.c). */
	rgosp->rgos_norm = rcu_gp_snap();
	rgosp->rgos_exp = rcu_exp_get_state();
}

/* As get_state_synchronize_rcu_full(), and the normal grace period it
 * names is asked for. */
void start_poll_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	get_state_synchronize_rcu_full(rgosp);
	rcu_request_gp(rgosp->rgos_norm);
}

/**
 * poll_state_synchronize_rcu_full - has a grace period of either kind
 * elapsed since the cookie?
 * @rgosp: from get_state_synchronize_rcu_full()
 *
 * Context: any; never sleeps. Both sequences are read with acquire, so
 * once this says true the readers it waited for are done before the
 * caller's next accesses.
 */
bool poll_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	return rcu_gp_done(rgosp->rgos_norm) ||
	       rcu_seq_done(rcu_engine->exp_seq(), rgosp->rgos_exp);
}

/* Wait for a normal grace period unless one of either kind has elapsed. */
void cond_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	if (!poll_state_synchronize_rcu_full(rgosp))
		synchronize_rcu();
}

/**
 * start_poll_synchronize_rcu_expedited - a cookie, and an expedited grace
 * period to satisfy it soon
 *
 * Context: thread context that may sleep: the expedited grace period
 * runs in the caller (Linux hands it to a worker). Return: a plain
 * cookie, which that grace period satisfies, as does any normal one.
 */
unsigned long start_poll_synchronize_rcu_expedited(void)
{
	struct rcu_gp_oldstate rgos;

	start_poll_synchronize_rcu_expedited_full(&rgos);
	return pack_cookie(&rgos);
}

/* The same with a _full cookie. Afterwards the normal cookie is also
 * satisfied: the expedited grace period covered it, and the normal one it
 * names has been asked for. */
void start_poll_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp)
{
	start_poll_synchronize_rcu_full(rgosp);
	synchronize_rcu_expedited();
}

/* Wait for an expedited grace period unless one of either kind has
 * elapsed since the cookie. */
void cond_synchronize_rcu_expedited(unsigned long cookie)
{
	if (!poll_state_synchronize_rcu(cookie))
		synchronize_rcu_expedited();
}

void cond_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp)
{
	if (!poll_state_synchronize_rcu_full(rgosp))
		synchronize_rcu_expedited();
}
