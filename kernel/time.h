/* The kernel clock: nanoseconds since boot, from the TSC. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "lib/types.h"

#define NSEC_PER_SEC	1000000000ull
#define NSEC_PER_MSEC	1000000ull
#define NSEC_PER_USEC	1000ull

void clock_init(u64 tsc_hz);
u64 clock_ns(void);
u64 clock_tsc_hz(void);
u64 tsc_to_ns(u64 cycles);
u64 clock_ns_to_tsc(u64 ns);
void udelay(u64 us);
/* "in 3 ms" or "12000 ms ago", for reports; returns buf. */
const char *format_ms_from_now(char *buf, size_t size, u64 when_ns,
			       u64 now_ns);

extern unsigned int hz;		/* timer ticks per second (hz=) */

/* One tick's length. */
static inline u64 tick_period_ns(void)
{
	return NSEC_PER_SEC / hz;
}

#endif
