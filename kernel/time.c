/*
 * The kernel clock. The arch code measures the TSC frequency once at boot
 * (against the PIT, or from CPUID) and hands it to clock_init(); from then
 * on the TSC is the clock. Under QEMU's TCG the TSC follows host time, so
 * this is wall time, not a cycle count of the emulated CPU.
 *
 * ns = cycles * mult >> 32, with mult = 10^9 * 2^32 / tsc_hz, so reading
 * the clock is one rdtsc and one 64x64->128 multiply, no division.
 */
#include "time.h"
#include "cmdline.h"
#include "init.h"
#include "arch.h"
#include "lib/compiler.h"

static u64 tsc_at_boot;
static u64 tsc_hz_measured;
static u64 ns_mult;

unsigned int hz = 1000;
volatile u64 jiffies;

CMDLINE_UINT("hz", hz, 10, 10000, "timer interrupts per second");

__init void clock_init(u64 tsc_hz)
{
	tsc_at_boot = arch_read_tsc();
	tsc_hz_measured = tsc_hz;
	ns_mult = (NSEC_PER_SEC << 32) / tsc_hz;	/* 10^9 << 32 fits in 64 bits */
}

u64 tsc_to_ns(u64 cycles)
{
	return (u64)(((unsigned __int128)cycles * ns_mult) >> 32);
}

/* Nanoseconds since clock_init(); 0 before it. */
u64 clock_ns(void)
{
	if (!ns_mult)
		return 0;
	return tsc_to_ns(arch_read_tsc() - tsc_at_boot);
}

u64 clock_tsc_hz(void)
{
	return tsc_hz_measured;
}

/* Busy-wait: only for hardware delays (AP start-up) and early boot. */
void udelay(u64 us)
{
	u64 end = arch_read_tsc() + tsc_hz_measured / 1000000 * us;

	while ((s64)(arch_read_tsc() - end) < 0)
		arch_cpu_relax();
}
