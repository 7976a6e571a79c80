/* COM1 16550 UART: polled output, interrupt-driven input. */
#ifndef ARCH_UART_H
#define ARCH_UART_H

#define UART_IRQ	4

void uart_init(void);
void uart_enable_rx_irq(void);
void uart_irq(void);

#endif
