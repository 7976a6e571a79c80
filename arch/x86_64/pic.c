/*
 * The legacy 8259 PICs: remapped away from the exception vectors and then
 * fully masked, so a stray legacy interrupt can never look like a CPU
 * exception. Device interrupts go through the IOAPIC instead.
 */
#include "pic.h"
#include "io.h"

#define PIC1_COMMAND	0x20
#define PIC1_DATA	0x21
#define PIC2_COMMAND	0xa0
#define PIC2_DATA	0xa1
#define ICW1_INIT_ICW4	0x11
#define ICW4_8086	0x01
#define PIC_REMAP_BASE	0x20

void pic_disable(void)
{
	outb(PIC1_COMMAND, ICW1_INIT_ICW4);
	outb(PIC2_COMMAND, ICW1_INIT_ICW4);
	outb(PIC1_DATA, PIC_REMAP_BASE);	/* IRQ 0-7 at 0x20 */
	outb(PIC2_DATA, PIC_REMAP_BASE + 8);	/* IRQ 8-15 at 0x28 */
	outb(PIC1_DATA, 4);			/* slave on IRQ 2 */
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, ICW4_8086);
	outb(PIC2_DATA, ICW4_8086);
	outb(PIC1_DATA, 0xff);
	outb(PIC2_DATA, 0xff);
}
