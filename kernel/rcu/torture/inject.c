#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/rcu/inject.h"
#include "lib/string.h"

enum rcu_injected_bug rcu_injected;

static char inject_name[24];
CMDLINE_STRING("rcu.inject", inject_name,
	       "debug: plant an RCU bug: none, forget_cpu, early_advance, "
	       "idle_barrier, no_nudge, drop_offline_cbs or "
	       "offline_in_masks");

static const char *const bug_names[] = {
	[RCU_BUG_FORGET_CPU] = "forget_cpu",
	[RCU_BUG_EARLY_ADVANCE] = "early_advance",
	[RCU_BUG_IDLE_BARRIER] = "idle_barrier",
	[RCU_BUG_NO_NUDGE] = "no_nudge",
	[RCU_BUG_DROP_OFFLINE_CBS] = "drop_offline_cbs",
	[RCU_BUG_OFFLINE_IN_MASKS] = "offline_in_masks",
};

/* Parse rcu.inject once the command line has been read. */
__init void rcu_inject_init(void)
{
	unsigned int i;

	if (!inject_name[0] || strcmp(inject_name, "none") == 0)
		return;
	for (i = 1; i < ARRAY_SIZE(bug_names); i++) {
		if (strcmp(inject_name, bug_names[i]) == 0) {
			if (!KERNEL_DEBUG) {
				pr_err("rcu: rcu.inject=%s needs the debug "
				       "build; ignored\n", inject_name);
				return;
			}
			rcu_injected = i;
			pr_warn("rcu: planting bug '%s' (rcu.inject), as asked\n",
				inject_name);
			return;
		}
	}
	pr_err("rcu: rcu.inject=%s: expected none, forget_cpu, "
	       "early_advance, idle_barrier, no_nudge, drop_offline_cbs or "
	       "offline_in_masks; no bug planted\n", inject_name);
}
