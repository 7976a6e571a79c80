/*
 * Per-CPU arrays sized at boot. MAX_CPUS is what the kernel can run on
 * (4096); the machine usually has a few. An array of MAX_CPUS elements in
 * .bss would cost every boot the maximum, so a subsystem declares
 *
 *	DEFINE_PERCPU_ARRAY(struct foo, foo);
 *
 * which is a pointer, `struct foo *foo`, plus a record in the
 * percpu_arrays section. percpu_arrays_alloc() points every recorded
 * pointer at nr_cpus zeroed elements, before any AP starts, so foo[cpu]
 * reads as it did when foo was an array. Until then the pointer is NULL:
 * an early foo[cpu] faults at once (from paging_init() on, which drops
 * the boot tables' map of page 0) rather than touching some other CPU's
 * data. The few arrays the boot CPU needs before the allocator exists
 * name a static element of their own (_BOOT), which becomes element 0;
 * an array whose elements do not start as zeroes names an init function
 * (_INIT), run on each element.
 *
 * Linux copies a template section (DEFINE_PER_CPU) into each CPU's area
 * and reaches a variable at an offset; that changes every access to
 * per_cpu(foo, cpu). Here the accesses stay foo[cpu], and each array is
 * contiguous, so KASAN can fence it: one element past its end is
 * poisoned, and foo[nr_cpus] is reported like a global's overflow.
 */
#ifndef KERNEL_PERCPU_ARRAY_H
#define KERNEL_PERCPU_ARRAY_H

#include "lib/compiler.h"
#include "lib/types.h"

struct percpu_array {
	void **base;			/* the pointer to set */
	size_t size;			/* one CPU's element(s) */
	size_t align;
	void (*init)(void *elem, unsigned int cpu);
	const char *name;
};

#define PERCPU_ARRAY_RECORD(ptr, bytes, alignment, init_fn, label)	\
	static const struct percpu_array __percpu_array_##label		\
	__used __section("percpu_arrays") __aligned(8) = {		\
		.base = (void **)(ptr), .size = (bytes),		\
		.align = (alignment), .init = (init_fn), .name = #label }

/* `static DEFINE_PERCPU_ARRAY(...)` makes the pointer file-local. */
#define DEFINE_PERCPU_ARRAY(type, name)					\
	type *name;							\
	PERCPU_ARRAY_RECORD(&name, sizeof(type), __alignof__(type), NULL, \
			    name)

/* n elements per CPU, all in one run: name[cpu * n + i]. */
#define DEFINE_PERCPU_ARRAY_N(type, name, n)				\
	type *name;							\
	PERCPU_ARRAY_RECORD(&name, sizeof(type) * (n), __alignof__(type), \
			    NULL, name)

/* Elements that start other than zeroed: init(elem, cpu) on each. */
#define DEFINE_PERCPU_ARRAY_INIT(type, name, init_fn)			\
	type *name;							\
	PERCPU_ARRAY_RECORD(&name, sizeof(type), __alignof__(type),	\
			    init_fn, name)

/*
 * For the boot CPU's use before percpu_arrays_alloc(): name points until
 * then at one static element (a file-scope compound literal) with the
 * initialiser given, whose contents become element 0; nothing may keep a
 * pointer into it. init, if given, runs on the other elements.
 */
#define DEFINE_PERCPU_ARRAY_BOOT(type, name, init_fn, ...)		\
	type *name = (type[1]){ __VA_ARGS__ };				\
	PERCPU_ARRAY_RECORD(&name, sizeof(type), __alignof__(type),	\
			    init_fn, name)

#define DECLARE_PERCPU_ARRAY(type, name)	extern type *name

/*
 * percpu_arrays_alloc - give every per-CPU array its nr_cpus elements
 *
 * Context: boot CPU, once, after kmalloc_init() and the MADT (nr_cpus
 * final), before anything touches another CPU's element. Panics if
 * memory runs out: the kernel cannot run without them.
 */
void percpu_arrays_alloc(void);

#endif
