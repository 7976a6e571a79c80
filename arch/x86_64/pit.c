/*
 * The 8254 PIT, used once: as the reference clock that measures the TSC
 * frequency. Channel 2 counts down in mode 0 with its gate on port 0x61;
 * its output bit goes high at terminal count. Where CPUID leaf 0x15 gives
 * the TSC frequency outright, that is used instead.
 *
 * Under an emulator the vCPU doing the measuring can be descheduled by
 * the host at any instant: one 20 ms window measured the same 2096 MHz
 * TSC at anything from 2101 to 2828 MHz. So the measurement takes
 * several windows and bounds each one from both sides.
 */
#include "pit.h"
#include "cpu.h"
#include "io.h"
#include "arch.h"
#include "kernel/init.h"

#define PIT_HZ			1193182
#define PIT_CHANNEL2		0x42
#define PIT_COMMAND		0x43
#define PIT_GATE_PORT		0x61
#define GATE_ON			0x01
#define SPEAKER_ON		0x02
#define OUT2_HIGH		0x20
#define CMD_CH2_LOHI_MODE0	0xb0
#define CALIBRATION_MS		10
#define CALIBRATION_WINDOWS	7

static u64 tsc_hz_from_cpuid(void)
{
	struct cpuid_regs r;

	if (cpuid_max_leaf(0) < 0x15)
		return 0;
	r = cpuid(0x15, 0);
	if (!r.eax || !r.ebx || !r.ecx)
		return 0;
	return (u64)r.ecx * r.ebx / r.eax;
}

/*
 * One PIT window of count ticks. The counter starts between two TSC reads
 * (before and after the gate opens) and reaches terminal count between
 * the last poll that saw its output low and the first that saw it high,
 * so the TSC ticks of the window lie in [*least, *most]. A vCPU
 * descheduled at either end widens the bounds; it never biases them.
 */
static void pit_window(u16 count, u64 *least, u64 *most)
{
	u8 gate = inb(PIT_GATE_PORT);
	u64 before_start, after_start, last_low, high;

	outb(PIT_GATE_PORT, (gate & ~SPEAKER_ON) & ~GATE_ON);
	outb(PIT_COMMAND, CMD_CH2_LOHI_MODE0);
	outb(PIT_CHANNEL2, count & 0xff);
	outb(PIT_CHANNEL2, count >> 8);
	before_start = arch_read_tsc();
	outb(PIT_GATE_PORT, (gate & ~SPEAKER_ON) | GATE_ON);
	after_start = arch_read_tsc();
	last_low = after_start;
	for (;;) {
		u64 now = arch_read_tsc();

		if (inb(PIT_GATE_PORT) & OUT2_HIGH) {
			high = arch_read_tsc();
			break;
		}
		last_low = now;
		arch_cpu_relax();
	}
	outb(PIT_GATE_PORT, gate);
	*least = last_low - after_start;
	*most = high - before_start;
}

/*
 * CALIBRATION_WINDOWS windows; the frequency is the midpoint of the
 * tightest one (a window the host interrupted is only wider). The spread
 * of the tightest three says how far to trust it: above 1 % the boot
 * says so, since every time figure it prints inherits the error.
 */
static u64 tsc_hz_from_pit(u64 *spread_ppm)
{
	u16 count = PIT_HZ * CALIBRATION_MS / 1000;
	u64 hz[CALIBRATION_WINDOWS], width[CALIBRATION_WINDOWS];
	unsigned int order[CALIBRATION_WINDOWS], i, j;
	u64 lo = ~0ull, hi = 0;

	for (i = 0; i < CALIBRATION_WINDOWS; i++) {
		u64 least, most;

		pit_window(count, &least, &most);
		hz[i] = (least + most) / 2 * 1000 / CALIBRATION_MS;
		width[i] = most - least;
		/* Insertion sort of the windows, tightest first. */
		for (j = i; j > 0 && width[order[j - 1]] > width[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < 3; i++) {
		lo = MIN(lo, hz[order[i]]);
		hi = MAX(hi, hz[order[i]]);
	}
	*spread_ppm = (hi - lo) * 1000000 / lo;
	return hz[order[0]];
}

__init u64 tsc_measure_hz(const char **source, u64 *spread_ppm)
{
	u64 hz = tsc_hz_from_cpuid();

	*spread_ppm = 0;
	if (hz) {
		*source = "CPUID leaf 0x15";
		return hz;
	}
	*source = "the PIT";
	return tsc_hz_from_pit(spread_ppm);
}
