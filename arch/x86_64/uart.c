/*
 * 16550 UART on COM1, 115200 8N1: the kernel's console.
 *
 * Output is polled: the panic path must be able to print with interrupts
 * off and other CPUs stopped, so the transmitter never depends on an IRQ.
 * Input arrives by interrupt (IRQ 4) into a ring that the shell drains, so
 * typed bytes are not lost while the kernel is busy. When the ring is
 * full the handler turns the receive interrupt off instead of dropping
 * bytes: they wait in the UART, and QEMU stops taking more from its
 * input until the reader, having made room, turns the interrupt back on.
 * (The fuzz boot lost its final commands to drops once the shell ran
 * slower than the input came.)
 */
#include "uart.h"
#include "io.h"
#include "arch.h"
#include "kernel/entry.h"
#include "kernel/init.h"
#include "lib/atomic.h"
#include "lib/compiler.h"

#define COM1		0x3f8
#define UART_DATA	0
#define UART_IER	1	/* interrupt enable (DLL high when DLAB=1) */
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */

#define LCR_8N1		0x03
#define LCR_DLAB	0x80
#define IER_RX		0x01
#define FCR_ENABLE	0xc7	/* enable, clear both FIFOs, 14-byte trigger */
#define MCR_DTR_RTS_OUT2 0x0b	/* OUT2 gates the IRQ line to the PIC/IOAPIC */
#define LSR_DATA_READY	0x01
#define LSR_THR_EMPTY	0x20

#define BAUD_BASE	115200
#define BAUD		115200

/*
 * Received bytes, written only by the IRQ handler on one CPU and read by
 * the shell; a single-producer single-consumer ring.
 */
#define RX_RING_SIZE	4096
static u8 rx_ring[RX_RING_SIZE];
static unsigned int rx_head;	/* written by the IRQ handler */
static unsigned int rx_tail;	/* written by the reader */
/* The handler found the ring full and turned the receive interrupt off;
 * whoever clears it (xchg) turns it back on. */
static bool rx_paused;
/* Set once the IRQ delivers input: from then on only the IRQ handler
 * reads the UART, since a reader polling it on another CPU could take a
 * byte ahead of the one the handler holds and swap their order. */
static bool rx_irq_on;

__init void uart_init(void)
{
	u16 divisor = BAUD_BASE / BAUD;

	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DATA, divisor & 0xff);
	outb(COM1 + UART_IER, divisor >> 8);
	outb(COM1 + UART_LCR, LCR_8N1);
	outb(COM1 + UART_FCR, FCR_ENABLE);
	outb(COM1 + UART_MCR, MCR_DTR_RTS_OUT2);
}

void uart_enable_rx_irq(void)
{
	outb(COM1 + UART_IER, IER_RX);
	WRITE_ONCE(rx_irq_on, true);
}

void arch_console_putc(char c)
{
	while (!(inb(COM1 + UART_LSR) & LSR_THR_EMPTY))
		arch_cpu_relax();
	outb(COM1 + UART_DATA, (u8)c);
}

/* Receive interrupts back on, by whoever claims the pause. */
static void rx_resume(void)
{
	if (xchg(&rx_paused, false))
		outb(COM1 + UART_IER, IER_RX);
}

/* The ring is full: stop the receive interrupt, then look again.
 * Store buffering against arch_console_getc(): we set rx_paused, then
 * (full barrier) read rx_tail; the reader sets rx_tail, then (full
 * barrier) reads rx_paused. One of the two sees the other's store, so
 * either the reader resumes, or we see the room it made and resume here:
 * the interrupt is never left off with the ring drained. IER is written
 * off before the flag is set, so no resume can precede it. false if the
 * ring is still full. */
static bool rx_pause(unsigned int head)
{
	outb(COM1 + UART_IER, 0);
	WRITE_ONCE(rx_paused, true);
	smp_mb();
	if (head - READ_ONCE(rx_tail) >= RX_RING_SIZE)
		return false;
	rx_resume();
	return true;
}

/* IRQ 4: move every waiting byte into the ring, until it is full; then
 * pause (rx_pause()), leaving the rest in the UART. Wake whoever waits
 * for input. */
void uart_irq(void)
{
	bool stored = false;

	while (inb(COM1 + UART_LSR) & LSR_DATA_READY) {
		unsigned int head = rx_head;

		if (head - READ_ONCE(rx_tail) >= RX_RING_SIZE &&
		    !rx_pause(head))
			break;
		rx_ring[head % RX_RING_SIZE] = inb(COM1 + UART_DATA);
		/* Publish the byte before the index: the compiler must not
		 * sink the store below; x86-TSO keeps store order. Pairs with
		 * the READ_ONCE(rx_head) in arch_console_getc(). */
		barrier();
		WRITE_ONCE(rx_head, head + 1);
		stored = true;
	}
	if (stored)
		console_input_arrived();
}

/* Next received byte, or -1 when none is waiting. Polls the UART while
 * its IRQ is not set up, so input works without it too. */
int arch_console_getc(void)
{
	unsigned int tail = rx_tail;
	int c;

	if (tail == READ_ONCE(rx_head)) {
		if (READ_ONCE(rx_irq_on) ||
		    !(inb(COM1 + UART_LSR) & LSR_DATA_READY))
			return -1;
		return inb(COM1 + UART_DATA);
	}
	/* Read the byte after seeing the index; pairs with the barrier()
	 * before WRITE_ONCE(rx_head) in uart_irq(). */
	barrier();
	c = rx_ring[tail % RX_RING_SIZE];
	WRITE_ONCE(rx_tail, tail + 1);
	/* Full barrier between the room made and the look at rx_paused;
	 * pairs with the one in rx_pause(). */
	smp_mb();
	if (READ_ONCE(rx_paused))
		rx_resume();
	return c;
}
