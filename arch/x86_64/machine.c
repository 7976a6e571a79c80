/*
 * Leaving the machine: QEMU's isa-debug-exit device for test results,
 * ACPI S5 for power-off, the keyboard controller for reboot.
 */
#include "acpi.h"
#include "io.h"
#include "arch.h"
#include "kernel/time.h"

#define DEBUG_EXIT_PORT		0xf4
#define KBC_COMMAND		0x64
#define KBC_PULSE_RESET		0xfe
#define SLP_EN			(1u << 13)
/* How long S5 may take before we fall back to isa-debug-exit. */
#define S5_WAIT_US		500000

void arch_exit_emulator(u8 code)
{
	/* QEMU exits with status (code << 1) | 1; without the device the
	 * write does nothing and we halt. */
	outl(DEBUG_EXIT_PORT, code);
	arch_halt_forever();
}

void arch_poweroff(void)
{
	arch_irq_disable();
	if (acpi.s5_known && acpi.pm1a_control) {
		outw(acpi.pm1a_control, (u16)(acpi.slp_typ_s5 << 10) | SLP_EN);
		/* QEMU acts on S5 in its main loop while this CPU runs on;
		 * without a wait the fallback below wins that race. */
		udelay(S5_WAIT_US);
	}
	outl(DEBUG_EXIT_PORT, 0);
	arch_halt_forever();
}

void arch_reboot(void)
{
	arch_irq_disable();
	outb(KBC_COMMAND, KBC_PULSE_RESET);
	arch_halt_forever();
}
