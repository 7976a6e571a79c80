/*
 * The stack depot: call stacks stored once each and named by a 32-bit id,
 * as Linux's lib/stackdepot.c, so that KASAN can remember who allocated,
 * freed and queued every object for the cost of an id per object. The
 * same stack saved twice gets the same id. Stacks are never removed; when
 * the pool is full, new stacks get id 0 ("not recorded").
 */
#ifndef KERNEL_MM_STACKDEPOT_H
#define KERNEL_MM_STACKDEPOT_H

#include "lib/types.h"

#define STACK_DEPOT_MAX_FRAMES	12

/* The caller's call stack, leaving out its innermost skip callers. */
u32 stack_depot_save_here(unsigned int skip);
/* Print a saved stack, one frame a line; "(not recorded)" for id 0. */
void stack_depot_print(u32 id);

#endif
