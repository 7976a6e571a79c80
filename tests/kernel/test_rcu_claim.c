/*
 * The expedited report's claim, white-box: a CPU reports for itself and
 * the requester clears the flag of a CPU it found idle, and the two may
 * try at the same moment. Exactly one of them must win, or the count of
 * outstanding reports drops twice for one CPU and the expedited grace
 * period ends before another CPU has reported.
 *
 * The torture almost never lines the two up: the requester's claim has to
 * land between the CPU's test and its store. Here two threads on two
 * CPUs meet before every round and claim one flag at once, so a claim
 * that is not a single atomic step is seen losing its atomicity within a
 * few thousand rounds: with the claim made a test and a store, 20000
 * rounds at -smp 2 saw 3 to 41 double wins in each of 5 boots. The test
 * counts rounds, never time. Each round waits for both vCPUs to run at
 * once, which a loaded host may grant only once a time slice: 100000
 * rounds took 0.15 s here quiet, 2.2 s beside three busy loops, and
 * once outlasted the default 30 s watchdog under make stress-test.
 * Hence fewer rounds and a watchdog of minutes.
 */
#include "kernel/rcu/tree/tree.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "arch.h"

#define CLAIM_ROUNDS	20000

/* A flag of the test's own, not a CPU's: no real grace period sees it. */
static struct rcu_data claim_rdp;
static unsigned long claim_arrived;
static bool claim_won[2];
static unsigned long claim_double_wins, claim_no_wins;

/* Both claimers wait here until both have arrived at this phase. The
 * locked add orders each side's earlier stores (its verdict, the flag)
 * before the other side's loads after the meeting. */
static void claim_meet(unsigned long phase)
{
	atomic_fetch_add(&claim_arrived, 1);
	while (READ_ONCE(claim_arrived) < 2 * phase)
		arch_cpu_relax();
}

/* Side 0 sets the flag and judges each round; both sides claim. */
static void claimer(void *arg)
{
	unsigned int side = (uptr)arg;
	unsigned long round;

	for (round = 1; round <= CLAIM_ROUNDS; round++) {
		if (side == 0)
			smp_store_release(&claim_rdp.exp_pending, true);
		claim_meet(2 * round - 1);
		WRITE_ONCE(claim_won[side], rcu_exp_claim(&claim_rdp));
		claim_meet(2 * round);
		if (side == 0) {
			unsigned int wins = READ_ONCE(claim_won[0]) +
					    READ_ONCE(claim_won[1]);

			claim_double_wins += wins > 1;
			claim_no_wins += wins == 0;
		}
	}
}

KTEST_TIMEOUT(rcu, expedited_report_is_claimed_exactly_once, 300000)
{
	struct thread *sides[2];

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs two CPUs to claim at once");
	claim_arrived = 0;
	claim_double_wins = claim_no_wins = 0;
	sides[0] = thread_create_on(claimer, (void *)0, "claim0", 0);
	sides[1] = thread_create_on(claimer, (void *)1, "claim1", 1);
	KASSERT_TRUE(sides[0] != NULL && sides[1] != NULL);
	thread_join(sides[0]);
	thread_join(sides[1]);
	KEXPECT_EQ(claim_double_wins, 0ul);
	KEXPECT_EQ(claim_no_wins, 0ul);
}
