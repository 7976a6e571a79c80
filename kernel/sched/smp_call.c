/*
 * Cross-CPU function calls, one at a time: a caller takes call_mutex and
 * then call_lock, publishes the request, sends IPI_CALL_FUNCTION to the
 * other CPUs and waits until each has run it. Calls are rare (TLB
 * flushes when kernel stacks are purged, rcu_barrier(), test set-up), so
 * one request at a time suffices.
 *
 * Callers queue on the mutex, asleep and first come first served. With
 * call_lock alone (a test-and-set lock) a caller that called again at
 * once retook it before a waiter on another vCPU saw it free: under a
 * loaded host the hotplug suite's rcu_barrier() waited 41 s behind a
 * thread calling in a loop. call_lock is left to serialize the mutex's
 * holder with a CPU joining or leaving the online set, which cannot
 * sleep (an AP coming up has interrupts off).
 */
#include "smp_call.h"
#include "mutex.h"
#include "preempt.h"
#include "spinlock.h"
#include "kernel/ipi.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "lib/atomic.h"

static DEFINE_MUTEX(call_mutex);
static DEFINE_SPINLOCK(call_lock);
static smp_call_fn call_fn;
static void *call_arg;
static unsigned int calls_outstanding;
/* CPUs waiting in smp_call_set_online() to join or leave the online set;
 * callers let them have call_lock first. */
static unsigned int set_online_waiting;

void smp_call_function_interrupt(void)
{
	/* The request was published before the IPI was sent; the IPI's
	 * delivery orders it before this read on x86, and READ_ONCE keeps
	 * the compiler honest. */
	smp_call_fn fn = READ_ONCE(call_fn);

	if (!fn)
		return;
	fn(READ_ONCE(call_arg));
	/* Release: fn's effects happen before the caller sees the count
	 * drop; pairs with the acquire load in smp_call_function_all(). */
	atomic_fetch_sub(&calls_outstanding, 1);
}

/* CPU hotplug: a CPU joins or leaves the online set only under call_lock,
 * so a call never counts a CPU that will not answer it. An AP coming up
 * may wait here with interrupts off: no call in flight counts it yet. */
void smp_call_set_online(unsigned int cpu, bool online)
{
	/* Fully ordered: callers that see the count step aside (see
	 * smp_call_function_all()). Without it an AP spinning here with
	 * interrupts off, already out of RCU's idle state, could lose
	 * every try to a caller that takes the lock again the moment it
	 * drops it, and hold up grace periods meanwhile (ktest=all at
	 * -smp 32 on a busy host: 20 s and more). */
	atomic_fetch_add(&set_online_waiting, 1);
	while (!spin_trylock(&call_lock))
		arch_cpu_relax();
	atomic_fetch_sub(&set_online_waiting, 1);
	if (online) {
		/* The count first, then the flag with release: cpu_up()
		 * returns once it sees the flag (acquire), and its caller
		 * must find the count already up. Flag first, an AP
		 * descheduled between the two stores let a hotplug test
		 * read one CPU short (-smp 512). */
		atomic_fetch_add(&nr_cpus_online, 1);
		smp_store_release(&cpu_area(cpu)->online, true);
	} else {
		/* Run by cpu_down()'s caller itself: no one waits between
		 * the two stores. */
		WRITE_ONCE(cpu_area(cpu)->online, false);
		atomic_fetch_sub(&nr_cpus_online, 1);
	}
	spin_unlock(&call_lock);
}

void smp_call_function_all(smp_call_fn fn, void *arg)
{
	unsigned int cpu, me, others = 0;

	BUG_ON(!arch_irqs_enabled());
	mutex_lock(&call_mutex);
	/* The mutex leaves only a CPU joining or leaving the online set to
	 * contend for call_lock: while one waits, let it go first. A hint:
	 * a stale zero only makes the joiner try once more. */
	while (READ_ONCE(set_online_waiting) || !spin_trylock(&call_lock))
		arch_cpu_relax();
	me = this_cpu_id();
	for_each_online_cpu(cpu)
		others += cpu != me;
	WRITE_ONCE(call_arg, arg);
	WRITE_ONCE(calls_outstanding, others);
	WRITE_ONCE(call_fn, fn);
	for_each_online_cpu(cpu)
		if (cpu != me)
			arch_send_ipi(cpu, IPI_CALL_FUNCTION);
	fn(arg);
	while (smp_load_acquire(&calls_outstanding))
		arch_cpu_relax();
	WRITE_ONCE(call_fn, NULL);
	spin_unlock(&call_lock);
	mutex_unlock(&call_mutex);
}
