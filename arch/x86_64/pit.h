/* Measuring the TSC frequency against a reference. */
#ifndef ARCH_PIT_H
#define ARCH_PIT_H

#include "lib/types.h"

u64 tsc_measure_hz(const char **source);

#endif
