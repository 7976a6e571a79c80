/* The per-CPU areas and their installation into each CPU's GS base. */
#include "percpu.h"

struct percpu percpu_areas[MAX_CPUS];
unsigned int nr_cpus = 1;
unsigned int nr_cpus_online;

/* Called on the CPU itself, first thing, so that preempt_count and
 * printk's "cpuN:" prefix work from then on. */
void percpu_init_cpu(unsigned int cpu)
{
	struct percpu *p = &percpu_areas[cpu];

	p->self = p;
	p->cpu = cpu;
	arch_set_percpu_base(p);
}
