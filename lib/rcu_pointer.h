/*
 * Publishing and reading RCU-protected pointers, without the kernel's
 * read-side checks (kernel/rcupdate.h adds those), so that lib/'s RCU
 * lists also build and run on the host.
 *
 * rcu_assign_pointer() is a release store: everything written to the new
 * object before it is published is visible to a reader that loads the
 * pointer. rcu_dereference_raw() is the matching load: the reader's later
 * accesses through the pointer depend on its value, which orders them
 * after it on every CPU Linux supports bar Alpha, and on x86 loads are
 * ordered anyway; READ_ONCE keeps the compiler from re-reading or
 * inventing loads.
 */
#ifndef LIB_RCU_POINTER_H
#define LIB_RCU_POINTER_H

#include "atomic.h"
#include "compiler.h"

#define rcu_dereference_raw(p)						\
	((__typeof__(*(p)) __force __kernel *)READ_ONCE(p))

#define rcu_access_pointer(p)	rcu_dereference_raw(p)

/* A release store: whoever loads the new pointer (rcu_dereference, a
 * dependent load, which x86 and every CPU but Alpha keep in order) also
 * sees everything written to the new version before it was published. */
#define rcu_assign_pointer(p, v)					\
	smp_store_release(&(p), (__typeof__(*(p)) __force __rcu *)(v))

/* For initialization, and for NULL: nothing to order. */
#define RCU_INIT_POINTER(p, v)						\
	WRITE_ONCE(p, (__typeof__(*(p)) __force __rcu *)(v))

#endif
