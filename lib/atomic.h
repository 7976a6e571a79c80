/*
 * Memory ordering and atomic operations: the one vocabulary the kernel
 * uses for data that CPUs share without a lock.
 *
 * Ordering, with Linux's names and meanings:
 *	smp_mb()		full barrier: every access before it is
 *				visible before any access after it, stores
 *				before loads included (the one order x86-TSO
 *				does not give for free; a locked instruction)
 *	smp_rmb(), smp_wmb()	loads before loads, stores before stores
 *				(compiler barriers only, on x86-TSO)
 *	smp_load_acquire(p)	a load that later accesses cannot pass
 *	smp_store_release(p, v)	a store that earlier accesses cannot pass
 *	READ_ONCE, WRITE_ONCE	(lib/compiler.h) untorn, unordered
 *
 * Read-modify-write on a plain naturally aligned integer, through its
 * address. These are fully ordered, as a locked instruction is on x86,
 * and take C11's names and argument order (object first): Linux's
 * atomic_t type and its (value, object) order are not provided, so that a
 * call cannot be read the wrong way round.
 *	atomic_fetch_add(p, v), atomic_fetch_sub(p, v)	the old value
 *	atomic_fetch_or(p, v), atomic_fetch_and(p, v)	the old value
 *	atomic_add_return(p, v), atomic_sub_return(p, v) the new value
 *	xchg(p, v)		store v, return the old value
 *	cmpxchg(p, old, new)	store new if *p == old; return what *p was
 *	atomic_add_relaxed(p, v) an increment with no ordering at all, for
 *				statistics that are only summed
 *
 * Every use says in a comment what it orders and which barrier on the
 * other side it pairs with.
 */
#ifndef LIB_ATOMIC_H
#define LIB_ATOMIC_H

#include "compiler.h"

#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)

#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

#define atomic_fetch_add(p, v)	__atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define atomic_fetch_sub(p, v)	__atomic_fetch_sub((p), (v), __ATOMIC_SEQ_CST)
#define atomic_fetch_or(p, v)	__atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#define atomic_fetch_and(p, v)	__atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST)
#define atomic_add_return(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)
#define atomic_sub_return(p, v)	__atomic_sub_fetch((p), (v), __ATOMIC_SEQ_CST)
#define xchg(p, v)		__atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)

#define cmpxchg(p, old, new)						\
	({								\
		__typeof__(*(p)) __cx_old = (old);			\
		__atomic_compare_exchange_n((p), &__cx_old, (new), false, \
					    __ATOMIC_SEQ_CST,		\
					    __ATOMIC_SEQ_CST);		\
		__cx_old;						\
	})

#define atomic_add_relaxed(p, v)					\
	((void)__atomic_fetch_add((p), (v), __ATOMIC_RELAXED))

#endif
