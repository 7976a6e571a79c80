/*
 * How spinlocks are taken on this machine (spinlock.h explains the two
 * ways): spinlock.mode=ticket or tas, or auto (the default), which takes
 * test-and-set with backoff when the CPU says it runs under a hypervisor.
 */
#include "spinlock.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "lib/string.h"

bool spinlock_virt;

static char spinlock_mode[8] = "auto";
CMDLINE_STRING("spinlock.mode", spinlock_mode,
	       "how spinlocks wait: auto (test-and-set under a hypervisor, "
	       "else ticket), ticket or tas");

__init void spinlock_choose_mode(void)
{
	bool hypervisor = arch_under_hypervisor();

	if (!strcmp(spinlock_mode, "ticket")) {
		spinlock_virt = false;
	} else if (!strcmp(spinlock_mode, "tas")) {
		spinlock_virt = true;
	} else {
		if (strcmp(spinlock_mode, "auto"))
			pr_err("spinlock: spinlock.mode=%s: expected auto, "
			       "ticket or tas; using auto\n", spinlock_mode);
		spinlock_virt = hypervisor;
	}
	pr_info("spinlock: %s (%s)\n", spinlock_virt ?
		"test-and-set with backoff" : "fair ticket locks",
		hypervisor ? "under a hypervisor" : "on bare metal");
}
