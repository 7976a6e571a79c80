/*
 * rcutorture's readers in interrupt handlers: a timer on every CPU whose
 * callback (run from the tick, in hard-interrupt context) takes a
 * read-side section and rearms itself a few milliseconds on, and a thread
 * that sends every other CPU an IPI whose handler does the same. They run
 * through the idle pause of the torture, so they also hit CPUs that are
 * idle, where the interrupt must take the CPU out of RCU's extended
 * quiescent state for as long as the handler's section lasts. The timers
 * run through the hogs pause too; the IPI thread sits it out, as its
 * wake-ups would land on the hogs' CPUs.
 */
#include "internal.h"
#include "kernel/sched/smp_call.h"
#include "kernel/sched/timer.h"
#include "kernel/printk.h"
#include "kernel/time.h"

#define IRQ_READER_PERIOD_MS	4	/* a timer section every 1 to 4 ms */
#define IPI_READER_PERIOD_MS	5

struct irq_reader {
	struct timer timer;
	struct prng timer_rng;		/* timer callback only */
	struct prng ipi_rng;		/* IPI handler only */
} __aligned(CACHE_LINE);

static DEFINE_PERCPU_ARRAY(struct irq_reader, irq_readers);
static bool irq_readers_stop;
static struct thread *ipi_thread;

static void timer_reader(void *arg)
{
	struct irq_reader *r = arg;

	torture_read_section(&r->timer_rng, ORACLE_IRQ);
	/* torture_irq_readers_stop() sets the flag, then cancels under
	 * the timer lock that this callback holds: either we see the flag
	 * here, or the cancel takes the timer off after we rearm it. */
	if (!READ_ONCE(irq_readers_stop))
		timer_rearm(&r->timer, clock_ns() + (1 + prng_below(
			    &r->timer_rng, IRQ_READER_PERIOD_MS)) *
			    NSEC_PER_MSEC);
}

/* Through smp_call_function_all(), on each CPU: arm its own timer. */
static void arm_timer_here(void *unused)
{
	struct irq_reader *r = &irq_readers[this_cpu_id()];

	(void)unused;
	r->timer.fn = timer_reader;
	r->timer.arg = r;
	timer_add(&r->timer, clock_ns() + NSEC_PER_MSEC);
}

/* The IPI's handler; the sending CPU runs it too, in thread context,
 * which the thread readers cover already, so it leaves at once there. */
static void ipi_reader(void *unused)
{
	(void)unused;
	if (in_irq())
		torture_read_section(&irq_readers[this_cpu_id()].ipi_rng,
				     ORACLE_IRQ);
}

static void ipi_sender(void *unused)
{
	(void)unused;
	while (!READ_ONCE(irq_readers_stop)) {
		if (READ_ONCE(torture.stutter) == STUTTER_HOGS)
			torture_sit_out_pause();
		smp_call_function_all(ipi_reader, NULL);
		sleep_ms(IPI_READER_PERIOD_MS);
	}
}

void torture_irq_readers_start(void)
{
	unsigned int cpu;

	WRITE_ONCE(irq_readers_stop, false);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		prng_seed(&irq_readers[cpu].timer_rng,
			  torture.cfg.seed * 257 + cpu);
		prng_seed(&irq_readers[cpu].ipi_rng,
			  torture.cfg.seed * 263 + cpu);
	}
	smp_call_function_all(arm_timer_here, NULL);
	ipi_thread = thread_create(ipi_sender, NULL, "rcu_torture_ipi");
	if (!ipi_thread)
		pr_err("rcu-torture: could not start rcu_torture_ipi\n");
}

void torture_irq_readers_stop(void)
{
	unsigned int cpu;

	WRITE_ONCE(irq_readers_stop, true);
	/* Every CPU's, online or not: an offline CPU's timer moved on. */
	for (cpu = 0; cpu < nr_cpus; cpu++)
		timer_cancel(&irq_readers[cpu].timer);
	if (ipi_thread)
		thread_join(ipi_thread);
	ipi_thread = NULL;
}
