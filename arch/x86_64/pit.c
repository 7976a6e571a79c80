/*
 * The 8254 PIT, used once: as the reference clock that measures the TSC
 * frequency. Channel 2 counts down in mode 0 with its gate on port 0x61;
 * its output bit goes high at terminal count. Where CPUID leaf 0x15 gives
 * the TSC frequency outright, that is used instead.
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
#define CALIBRATION_MS		20

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

static u64 tsc_hz_from_pit(void)
{
	u16 count = PIT_HZ * CALIBRATION_MS / 1000;
	u8 gate = inb(PIT_GATE_PORT);
	u64 start, end;

	outb(PIT_GATE_PORT, (gate & ~SPEAKER_ON) & ~GATE_ON);
	outb(PIT_COMMAND, CMD_CH2_LOHI_MODE0);
	outb(PIT_CHANNEL2, count & 0xff);
	outb(PIT_CHANNEL2, count >> 8);
	outb(PIT_GATE_PORT, (gate & ~SPEAKER_ON) | GATE_ON);
	start = arch_read_tsc();
	while (!(inb(PIT_GATE_PORT) & OUT2_HIGH))
		arch_cpu_relax();
	end = arch_read_tsc();
	outb(PIT_GATE_PORT, gate);
	return (end - start) * 1000 / CALIBRATION_MS;
}

__init u64 tsc_measure_hz(const char **source)
{
	u64 hz = tsc_hz_from_cpuid();

	if (hz) {
		*source = "CPUID leaf 0x15";
		return hz;
	}
	*source = "the PIT";
	return tsc_hz_from_pit();
}
