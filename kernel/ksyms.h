/* The kernel's own symbol table, for backtraces with function names. */
#ifndef KERNEL_KSYMS_H
#define KERNEL_KSYMS_H

#include "lib/types.h"

/* Name of the function containing addr, and addr's offset into it and the
 * function's size; NULL if addr is outside the kernel's text. */
const char *ksym_lookup(uptr addr, uptr *offset, uptr *size);

/* "name+0xoff" for a code address (or "?+0xoff"), into buf; returns buf. */
const char *ksym_format(char *buf, size_t len, uptr addr);

/* Address of a function by name, 0 if unknown (tests use it). */
uptr ksym_address(const char *name);

#endif
