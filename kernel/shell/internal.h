/* Shared between shell.c and shell_input.c. */
#ifndef KERNEL_SHELL_INTERNAL_H
#define KERNEL_SHELL_INTERNAL_H

#include "shell.h"

/* The calling thread becomes the one that reads console input. */
void shell_input_init(void);

/* The next byte of console input, sleeping until there is one. */
int shell_getc(void);

/* Around each command: only while one runs does a Ctrl-C interrupt
 * rather than cancel a line. */
void shell_command_begin(void);
void shell_command_end(void);

#endif
