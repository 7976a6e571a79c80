/*
 * CPU hotplug (hotplug.h says what it offers). cpu_down(), in a thread on
 * a surviving CPU:
 *
 *  1. keeps rcu_barrier() out until the callbacks have moved, and takes
 *     the CPU out of the online set (under the cross-CPU call lock, so no
 *     call waits for it, and no new thread is placed on it);
 *  2. tells its scheduler to go down (sched/hotplug.c): the CPU finishes
 *     its per-CPU kernel threads and reaches its idle thread, which runs
 *     cpu_die_here(): threads and timers move away, RCU hears its last
 *     quiescent state, and it says so and parks (arch_cpu_park());
 *  3. takes its RCU callbacks (rcu_cpu_dead()).
 *
 * cpu_up() starts the CPU through the trampoline (arch_cpu_start()); it
 * leaves RCU's extended quiescent state and rejoins the online set in
 * secondary_cpu_main(), and runs its idle thread again. Both hold
 * hotplug_mutex: one change at a time.
 */
#include "hotplug.h"
#include "errno.h"
#include "percpu.h"
#include "printk.h"
#include "time.h"
#include "kernel/rcu/hooks.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/smp_call.h"
#include "kernel/sched/timer.h"
#include "lib/atomic.h"

static DEFINE_MUTEX(hotplug_mutex);
static struct hotplug_stats stats;
/* Set by the outgoing CPU just before it parks, read by cpu_down();
 * cleared by cpu_up() before it starts the CPU again. */
static DEFINE_PERCPU_ARRAY(bool, parked);

static int check_cpu(unsigned int cpu, bool want_online)
{
	if (cpu == 0)
		return -EINVAL;
	if (cpu >= nr_cpus)
		return -ENODEV;
	if ((bool)READ_ONCE(cpu_area(cpu)->online) == want_online)
		return -EBUSY;
	return 0;
}

__noreturn void cpu_die_here(void)
{
	unsigned int cpu = this_cpu_id();

	sched_migrate_away(cpu);
	timer_migrate_away(cpu, 0);
	rcu_cpu_dying();
	pr_info("offline\n");
	/* Release: everything above is done before cpu_down() goes on;
	 * pairs with its acquire load. */
	smp_store_release(&parked[cpu], true);
	arch_cpu_park();
}

int cpu_down(unsigned int cpu)
{
	u64 start = clock_ns();
	int err;

	mutex_lock(&hotplug_mutex);
	err = check_cpu(cpu, false);
	if (err)
		goto out;
	rcu_hotplug_lock();
	WRITE_ONCE(parked[cpu], false);
	smp_call_set_online(cpu, false);
	sched_cpu_going_down(cpu);
	while (!smp_load_acquire(&parked[cpu]))
		sleep_ms(1);
	/* On whichever CPU we are: rcu_cpu_dead() pins itself. */
	rcu_cpu_dead(cpu);
	rcu_hotplug_unlock();
	WRITE_ONCE(stats.downs, stats.downs + 1);
	WRITE_ONCE(stats.last_down_ns, clock_ns() - start);
out:
	mutex_unlock(&hotplug_mutex);
	return err;
}

int cpu_up(unsigned int cpu)
{
	u64 start = clock_ns();
	int err;

	mutex_lock(&hotplug_mutex);
	err = check_cpu(cpu, true);
	if (err)
		goto out;
	sched_cpu_coming_up(cpu);
	WRITE_ONCE(parked[cpu], false);
	if (!arch_cpu_start(cpu)) {
		err = -EIO;
		goto out;
	}
	/* secondary_cpu_main() marks it online once RCU and its timer are
	 * ready; until then it is not ours to use. Acquire: pairs with the
	 * release in smp_call_set_online(), so nr_cpus_online counts it. */
	while (!smp_load_acquire(&cpu_area(cpu)->online))
		sleep_ms(1);
	WRITE_ONCE(stats.ups, stats.ups + 1);
	WRITE_ONCE(stats.last_up_ns, clock_ns() - start);
out:
	mutex_unlock(&hotplug_mutex);
	return err;
}

bool cpu_is_parked(unsigned int cpu)
{
	return READ_ONCE(parked[cpu]);
}

void hotplug_get_stats(struct hotplug_stats *out)
{
	out->downs = READ_ONCE(stats.downs);
	out->ups = READ_ONCE(stats.ups);
	out->last_down_ns = READ_ONCE(stats.last_down_ns);
	out->last_up_ns = READ_ONCE(stats.last_up_ns);
}
