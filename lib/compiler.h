/*
 * Compiler attributes and small helper macros, in the spirit of Linux's
 * <linux/compiler.h> and <linux/kernel.h>.
 */
#ifndef LIB_COMPILER_H
#define LIB_COMPILER_H

#include "types.h"

#define __packed		__attribute__((packed))
#define __aligned(n)		__attribute__((aligned(n)))
#define __section(s)		__attribute__((section(s)))
#define __used			__attribute__((used))
#define __noreturn		__attribute__((noreturn))
#define __noinline		__attribute__((noinline))
/* glibc's <sys/cdefs.h> has its own, seen by the host tests and sparse. */
#undef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#define __printf(a, b)		__attribute__((format(printf, a, b)))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

/* Stops the compiler from moving memory accesses across this point. */
#define barrier()		__asm__ __volatile__("" ::: "memory")
/* The address of the code where it is written, even when inlined: for
 * reports of where something began. */
#define _THIS_IP_	({ __label__ __here; __here: (unsigned long)&&__here; })

/*
 * One untorn access the compiler may not merge, split, repeat or drop:
 * for data shared with other CPUs or interrupt handlers. READ_ONCE yields
 * an unqualified rvalue, so __typeof__(READ_ONCE(x)) is the type of x.
 */
#define READ_ONCE(x)							\
	({								\
		__typeof__(x) __ro_val =				\
			*(const volatile __typeof__(x) *)&(x);		\
		__ro_val;						\
	})

#define WRITE_ONCE(x, v)						\
	do {								\
		*(volatile __typeof__(x) *)&(x) = (v);			\
	} while (0)

/*
 * Under the kernel's address sanitizer (GCC defines __SANITIZE_ADDRESS__
 * for -fsanitize=kernel-address too), a loop over a whole buffer checks
 * the buffer once, through the sanitizer's own entry points, instead of
 * once per byte. The host tests' ASan checks lib like any other code.
 */
#if defined(__SANITIZE_ADDRESS__) && !defined(LIB_HOST_TEST)
#define __no_sanitize_address	__attribute__((no_sanitize_address))
void __asan_loadN_noabort(unsigned long addr, size_t size);
void __asan_storeN_noabort(unsigned long addr, size_t size);
#define sanitize_check_read(p, n) __asan_loadN_noabort((unsigned long)(p), (n))
#define sanitize_check_write(p, n) \
	__asan_storeN_noabort((unsigned long)(p), (n))
#else
#define __no_sanitize_address
#define sanitize_check_read(p, n)	((void)(p), (void)(n))
#define sanitize_check_write(p, n)	((void)(p), (void)(n))
#endif

/* Annotations for sparse (make C=1); plain compiles see nothing. */
#ifdef __CHECKER__
#define __rcu		__attribute__((noderef, address_space(__rcu)))
#define __iomem		__attribute__((noderef, address_space(__iomem)))
#define __force		__attribute__((force))
#define __kernel	__attribute__((address_space(0)))
#define __acquires(x)	__attribute__((context(x, 0, 1)))
#define __releases(x)	__attribute__((context(x, 1, 0)))
#else
#define __rcu
#define __iomem
#define __force
#define __kernel
#define __acquires(x)
#define __releases(x)
#endif

#ifndef static_assert
#define static_assert _Static_assert
#endif

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* The structure of type `type` whose member `member` ptr points at. */
#define container_of(ptr, type, member)					\
	({								\
		const __typeof__(((type *)0)->member) *__co_mptr = (ptr); \
		(type *)((char *)__co_mptr - offsetof(type, member));	\
	})

/* a must be a power of two. */
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define ALIGN_UP(x, a)		\
	(((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

/*
 * Each argument is evaluated once, and mixing types (say a signed int with
 * a size_t) is a compile error rather than a silent conversion; cast, or
 * use min_t/max_t, to compare different types.
 */
#define MIN(a, b)							\
	({								\
		__typeof__(a) __min_a = (a);				\
		__typeof__(b) __min_b = (b);				\
		(void)(&__min_a == &__min_b);				\
		__min_a < __min_b ? __min_a : __min_b;			\
	})

#define MAX(a, b)							\
	({								\
		__typeof__(a) __max_a = (a);				\
		__typeof__(b) __max_b = (b);				\
		(void)(&__max_a == &__max_b);				\
		__max_a > __max_b ? __max_a : __max_b;			\
	})

#define min_t(type, a, b)	MIN((type)(a), (type)(b))
#define max_t(type, a, b)	MAX((type)(a), (type)(b))

#endif
