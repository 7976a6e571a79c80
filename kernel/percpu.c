/* The per-CPU areas and their installation into each CPU's GS base. */
#include "percpu.h"

/* The boot CPU's area is static until percpu_arrays_alloc(), which
 * moves it and calls percpu_init_cpu(0) again. */
DEFINE_PERCPU_ARRAY_BOOT(struct percpu, percpu_areas, NULL, {});
unsigned int nr_cpus = 1;
unsigned int nr_cpus_online;

/* Called on the CPU itself, first thing, so that preempt_count and
 * printk's "cpuN:" prefix work from then on; and on the boot CPU again
 * once its area has moved (percpu_arrays_alloc()). */
void percpu_init_cpu(unsigned int cpu)
{
	struct percpu *p = &percpu_areas[cpu];

	p->self = p;
	p->cpu = cpu;
	arch_set_percpu_base(p);
}
