/*
 * The shell's end of console input: a type-ahead queue that the shell's
 * thread fills from the UART, sleeping until bytes arrive, and Ctrl-C for
 * commands that run long.
 *
 * Which command a Ctrl-C interrupts follows from where it stands in the
 * input, not from when it arrives: the running command, unless a whole
 * line (an Enter) comes before it in the input not yet read, in which
 * case it belongs to that line. So a script that types `torture 60`,
 * Enter, Ctrl-C stops the torture however early those bytes arrive, even
 * while other commands still run ahead of it; a person who has typed a
 * whole line ahead interrupts the command that line runs instead. The
 * Ctrl-C that interrupts a command is taken out of the queue; any other
 * stays in its place and cancels the line it falls in. Only the shell's
 * thread touches the queue; commands in other threads see the verdict
 * through `interrupted`.
 */
#include "internal.h"
#include "arch.h"
#include "kernel/entry.h"
#include "kernel/sched/waitqueue.h"

#define CTRL_C		0x03
#define QUEUE_SIZE	4096	/* a power of two: indices wrap cleanly */

static DEFINE_WAIT_QUEUE(input_wait);
static struct thread *shell_thread;

/* Bytes [queue_tail, queue_head) wait, oldest first; indices only grow. */
static u8 queue[QUEUE_SIZE];
static unsigned int queue_head, queue_tail;
static bool command_running;
/* Written by the shell's thread (WRITE_ONCE), read by commands running
 * in other threads (READ_ONCE in shell_interrupted()). */
static bool interrupted;

/* From the UART's IRQ handler, after it has published the bytes: the
 * wait queue's lock orders that against the sleeper's check. */
void console_input_arrived(void)
{
	wake_up_all(&input_wait);
}

/* Move what the UART holds into the queue, as far as it has room; the
 * rest waits in the UART's own ring. */
static void fill_queue(void)
{
	int c;

	while (queue_head - queue_tail < QUEUE_SIZE &&
	       (c = arch_console_getc()) >= 0)
		queue[queue_head++ % QUEUE_SIZE] = (u8)c;
}

/* The oldest byte typed, or -1. */
static int take_byte(void)
{
	fill_queue();
	if (queue_tail == queue_head)
		return -1;
	return queue[queue_tail++ % QUEUE_SIZE];
}

void shell_input_init(void)
{
	shell_thread = current_thread();
}

int shell_getc(void)
{
	int c;

	/* The condition runs after the thread is on the queue, so a byte
	 * that arrives between the check and the sleep still wakes it. */
	wait_event(&input_wait, (c = take_byte()) >= 0);
	return c;
}

int shell_trygetc(void)
{
	return take_byte();
}

/* Remove the byte at index i, closing the gap from the older side. */
static void remove_byte(unsigned int i)
{
	for (; i != queue_tail; i--)
		queue[i % QUEUE_SIZE] = queue[(i - 1) % QUEUE_SIZE];
	queue_tail++;
}

/* A Ctrl-C meant for the running command (see the top of the file),
 * taken out of the queue; false if there is none. */
static bool claim_interrupt(void)
{
	unsigned int i;

	fill_queue();
	for (i = queue_tail; i != queue_head; i++) {
		u8 c = queue[i % QUEUE_SIZE];

		if (c == CTRL_C) {
			remove_byte(i);
			return true;
		}
		if (c == '\r' || c == '\n')
			return false;
	}
	return false;
}

bool shell_interrupted(void)
{
	if (current_thread() == shell_thread && command_running &&
	    !interrupted && claim_interrupt())
		WRITE_ONCE(interrupted, true);
	return READ_ONCE(interrupted);
}

void shell_command_begin(void)
{
	WRITE_ONCE(interrupted, false);
	command_running = true;
}

void shell_command_end(void)
{
	command_running = false;
}
