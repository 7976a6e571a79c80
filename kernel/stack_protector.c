/*
 * -fstack-protector-strong in the debug build: functions with arrays or
 * address-taken locals keep a copy of __stack_chk_guard below their
 * return address and check it before returning. The guard is global
 * (-mstack-protector-guard=global): the usual %fs:0x28 slot does not
 * exist here. Built without the protector itself.
 */
#include "panic.h"
#include "lib/types.h"

/* Not secret: this catches overruns, it does not resist attackers. */
extern unsigned long __stack_chk_guard;
unsigned long __stack_chk_guard = 0x5a17c0de2bad7e11ul;

__noreturn void __stack_chk_fail(void);
__noreturn void __stack_chk_fail(void)
{
	/* The check sits in the function's cold part, which the symbol
	 * table may not name; the address is what can be trusted, since
	 * the overrun may also have clobbered the frame chain. */
	panic("stack-protector: kernel stack corrupted: canary overwritten "
	      "in the function that returns to %p",
	      __builtin_return_address(0));
}
