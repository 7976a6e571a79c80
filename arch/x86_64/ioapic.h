#ifndef ARCH_IOAPIC_H
#define ARCH_IOAPIC_H

#include "lib/types.h"

/* Route legacy ISA IRQ `irq` to `vector` on the CPU with dest_apic_id. */
int ioapic_route_irq(unsigned int irq, u8 vector, u32 dest_apic_id);

#endif
