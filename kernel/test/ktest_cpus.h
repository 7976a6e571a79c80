/*
 * The CPUs a self-test spreads its spinning threads over (readers,
 * walkers): a few, not every online one. QEMU runs each vCPU as a host
 * thread, so a thread spinning on every vCPU takes host time from the
 * writer and from the grace periods it waits for, and the test's wall
 * time grows with the CPU count and the host's load (at -smp 32 on two
 * host cores, rculist's list test overran its 120 s watchdog and the
 * dcache oracle its 300 s one; both take seconds at -smp 2). A race
 * needs a few CPUs racing the writer, not all of them; the others idle.
 */
#ifndef KERNEL_KTEST_CPUS_H
#define KERNEL_KTEST_CPUS_H

/* The most CPUs ktest_sample_cpus() picks. */
#define KTEST_SAMPLE_CPUS	3u

/**
 * ktest_sample_cpus - pick the online CPUs a test's spinning threads run on
 * @cpus: filled with up to KTEST_SAMPLE_CPUS CPU numbers, ascending
 * @skip: a CPU to leave out (the writer's own), or -1 for none; still
 *	picked when it is the only CPU online
 *
 * The CPUs are spread evenly over the online ones, so that at high
 * counts they sit in different leaves of RCU's tree, as the CPUs of a
 * real machine's readers would; of three candidates or fewer, all are
 * taken, so small boots keep a thread on every CPU.
 *
 * Context: any, while no CPU goes down or up.
 * Return: how many CPUs @cpus holds, at least 1.
 */
unsigned int ktest_sample_cpus(unsigned int cpus[KTEST_SAMPLE_CPUS], int skip);

#endif
