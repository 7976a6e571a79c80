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
#include "lib/format.h"

static u64 tsc_at_boot;
static u64 tsc_hz_measured;
static u64 ns_mult;

unsigned int hz = 1000;

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

/* The TSC value at which clock_ns() reads ns: for clock event devices
 * that take a TSC deadline. Whole seconds and the rest apart, so that
 * no product overflows 64 bits (the rest times tsc_hz stays below
 * 10^9 * 2^34) and no 128-bit division is needed. */
u64 clock_ns_to_tsc(u64 ns)
{
	return tsc_at_boot + ns / NSEC_PER_SEC * tsc_hz_measured +
	       ns % NSEC_PER_SEC * tsc_hz_measured / NSEC_PER_SEC;
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

/**
 * format_ms_from_now - a moment as reports show it, relative to now
 * @buf: where to write, @size bytes
 * @when_ns: the moment (clock_ns())
 * @now_ns: now
 *
 * "in 3 ms" or "12000 ms ago": a reader of a hang report compares
 * moments with each other and with now, never with the time since boot.
 * Return: buf.
 */
const char *format_ms_from_now(char *buf, size_t size, u64 when_ns,
			       u64 now_ns)
{
	if (when_ns >= now_ns)
		ksnprintf(buf, size, "in %llu ms",
			  (when_ns - now_ns) / NSEC_PER_MSEC);
	else
		ksnprintf(buf, size, "%llu ms ago",
			  (now_ns - when_ns) / NSEC_PER_MSEC);
	return buf;
}
