#ifndef ARCH_SMP_H
#define ARCH_SMP_H

#include "trap.h"

/* Start every enabled AP listed in the MADT. */
unsigned int smp_boot_aps(void);
void smp_register_ipis(void);
void smp_release_nmi(struct trap_frame *f);

#endif
