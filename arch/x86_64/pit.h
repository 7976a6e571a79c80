/* Measuring the TSC frequency against a reference. */
#ifndef ARCH_PIT_H
#define ARCH_PIT_H

#include "lib/types.h"

/* The TSC's frequency in Hz; *source names the reference, *spread_ppm
 * how far the best measurements disagree (0 when CPUID states it). */
u64 tsc_measure_hz(const char **source, u64 *spread_ppm);

#endif
