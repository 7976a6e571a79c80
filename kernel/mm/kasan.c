/*
 * KASAN's runtime: the checks the compiler calls, poisoning, and the
 * hooks kmalloc, the page allocator, kernel stacks and RCU call
 * (kasan.h explains the scheme). Built without instrumentation: it reads
 * and writes the shadow and the objects' metadata, which is poisoned.
 */
#include "kasan_internal.h"
#include "kmalloc.h"
#include "page_alloc.h"
#include "stackdepot.h"
#include "kernel/bootinfo.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kstack.h"
#include "lib/atomic.h"
#include "lib/string.h"

/* Set once by kasan_init(), before the APs start (their start orders
 * it); read by every check. */
static bool kasan_enabled;

bool kasan_checking(void)
{
	return READ_ONCE(kasan_enabled) && !kasan_report_running_here();
}

void kasan_poison(const void *addr, size_t size, u8 code)
{
	uptr a = (uptr)addr;

	if (!kasan_checked_address(a))
		return;
	memset((void *)arch_kasan_shadow_of(a), code,
	       ALIGN_UP(size, KASAN_GRANULE) / KASAN_GRANULE);
}

/* The first size bytes accessible; a partial last granule says how much
 * of it is. */
void kasan_unpoison(const void *addr, size_t size)
{
	uptr a = (uptr)addr;

	if (!kasan_checked_address(a))
		return;
	memset((void *)arch_kasan_shadow_of(a), 0, size / KASAN_GRANULE);
	if (size % KASAN_GRANULE)
		*(u8 *)arch_kasan_shadow_of(a + size) = size % KASAN_GRANULE;
}

/* Is any byte of [addr, addr + size) poisoned? */
static bool region_poisoned(uptr addr, size_t size)
{
	uptr last = addr + size - 1;
	uptr g;

	for (g = ALIGN_DOWN(addr, KASAN_GRANULE); g <= last;
	     g += KASAN_GRANULE) {
		s8 s = kasan_shadow_byte(g);
		uptr end = last < g + KASAN_GRANULE - 1 ? last
							: g + KASAN_GRANULE - 1;

		/* s > 0: bytes g .. g + s - 1 are accessible. */
		if (s && (s < 0 || (s8)(end - g) >= s))
			return true;
	}
	return false;
}

static __always_inline void check_access(uptr addr, size_t size, bool write,
					 uptr ip)
{
	if (!size || !kasan_checked_address(addr) || !kasan_checking())
		return;
	if (unlikely(addr + size < addr || region_poisoned(addr, size)))
		kasan_report_access(addr, size, write, ip);
}

/* What -fsanitize=kernel-address calls before each load and store. */
#define DEFINE_ASAN_ACCESS(n)						\
	void __asan_load##n##_noabort(uptr addr);			\
	void __asan_load##n##_noabort(uptr addr)			\
	{								\
		check_access(addr, n, false,				\
			     (uptr)__builtin_return_address(0));	\
	}								\
	void __asan_store##n##_noabort(uptr addr);			\
	void __asan_store##n##_noabort(uptr addr)			\
	{								\
		check_access(addr, n, true,				\
			     (uptr)__builtin_return_address(0));	\
	}

DEFINE_ASAN_ACCESS(1)
DEFINE_ASAN_ACCESS(2)
DEFINE_ASAN_ACCESS(4)
DEFINE_ASAN_ACCESS(8)
DEFINE_ASAN_ACCESS(16)

void __asan_loadN_noabort(uptr addr, size_t size);
void __asan_loadN_noabort(uptr addr, size_t size)
{
	check_access(addr, size, false, (uptr)__builtin_return_address(0));
}

void __asan_storeN_noabort(uptr addr, size_t size);
void __asan_storeN_noabort(uptr addr, size_t size)
{
	check_access(addr, size, true, (uptr)__builtin_return_address(0));
}

/* Before a call that does not return (a thread's exit, a CPU parking,
 * a switch to another stack), as Linux does: below this frame lie
 * frames of calls that never returned through their epilogues (a
 * context switch out of them), whose redzones are still poisoned; the
 * code that runs next on this stack would meet them. A CPU coming back
 * online runs its idle thread's stack again this way. */
void __asan_handle_no_return(void);
void __asan_handle_no_return(void)
{
	uptr sp = (uptr)__builtin_frame_address(0);
	uptr lo, hi;

	if (READ_ONCE(kasan_enabled) && kstack_bounds(sp, &lo, &hi))
		kasan_unpoison((void *)lo, ALIGN_DOWN(sp, KASAN_GRANULE) - lo);
}

/* Variable-length arrays: the compiler asks for redzones around each. */
void __asan_alloca_poison(uptr addr, size_t size);
void __asan_alloca_poison(uptr addr, size_t size)
{
	uptr rounded = ALIGN_UP(addr + size, 32);

	kasan_poison((void *)(addr - 32), 32, KASAN_ALLOCA_LEFT);
	kasan_unpoison((void *)addr, size);
	kasan_poison((void *)ALIGN_UP(addr + size, KASAN_GRANULE),
		     rounded + 32 - ALIGN_UP(addr + size, KASAN_GRANULE),
		     KASAN_ALLOCA_RIGHT);
}

void __asan_allocas_unpoison(uptr top, uptr bottom);
void __asan_allocas_unpoison(uptr top, uptr bottom)
{
	if (bottom > top)
		kasan_unpoison((void *)top, bottom - top);
}

/* GCC's description of one instrumented global (its asan_global). */
struct asan_global {
	const void *start;
	size_t size;
	size_t size_with_redzone;
	const char *name;
	const char *module;
	unsigned long has_dynamic_init;
	const void *location;
	unsigned long odr_indicator;
};

/* Each instrumented file's constructor registers its globals: the
 * redzone the compiler placed after each is poisoned. */
void __asan_register_globals(struct asan_global *globals, size_t n);
void __asan_register_globals(struct asan_global *globals, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t used = ALIGN_UP(globals[i].size, KASAN_GRANULE);

		kasan_unpoison(globals[i].start, globals[i].size);
		kasan_poison((const u8 *)globals[i].start + used,
			     globals[i].size_with_redzone - used,
			     KASAN_GLOBAL_REDZONE);
	}
}

void __asan_unregister_globals(struct asan_global *globals, size_t n);
void __asan_unregister_globals(struct asan_global *globals, size_t n)
{
	(void)globals;
	(void)n;
}

/* noinline, and the runtime is built without tail calls: the frames to
 * skip are always this function and the hook that called it. */
__attribute__((noinline)) void kasan_track_save(struct kasan_track *track)
{
	struct thread *t = current_thread();

	track->stack = stack_depot_save_here(2);
	track->cpu = this_cpu_id();
	track->thread_id = t ? (u32)t->id : 0;
	track->kind = 1;
}

void kasan_fence_global(const void *obj, size_t size, size_t region)
{
	kasan_poison(obj, region, KASAN_GLOBAL_REDZONE);
	kasan_unpoison(obj, size);
}

size_t kasan_slot_size(size_t size)
{
	return ALIGN_UP(size, KASAN_GRANULE) + sizeof(struct kasan_meta);
}

void kasan_poison_slab(void *page, size_t bytes)
{
	kasan_poison(page, bytes, KASAN_SLAB_REDZONE);
}

void *kasan_object_allocated(void *obj, size_t slot_size, size_t size)
{
	struct kasan_meta *meta = kasan_meta_of(obj, slot_size);
	size_t used = ALIGN_UP(size, KASAN_GRANULE);

	kasan_unpoison(obj, size);
	kasan_poison((u8 *)obj + used, slot_size - used,
		     slot_size > KMALLOC_MAX_CLASS ? KASAN_PAGE_REDZONE
						   : KASAN_SLAB_REDZONE);
	meta->size = size;
	meta->slot_size = slot_size;
	meta->free.kind = 0;
	meta->aux.kind = KASAN_AUX_NONE;
	kasan_track_save(&meta->alloc);
	/* Before the object is returned: any kfree() of it, on any CPU,
	 * comes after the caller passed the pointer on, and whatever passed
	 * it (a lock, a release store) orders this store first. */
	WRITE_ONCE(meta->state, KASAN_OBJECT_LIVE);
	return obj;
}

static const char *bad_free_kind(u32 state)
{
	return state == KASAN_OBJECT_QUARANTINED || state == KASAN_OBJECT_FREED
		       ? "double-free" : "invalid-free";
}

bool kasan_free_allowed(const void *obj, size_t slot_size)
{
	u32 state = READ_ONCE(kasan_meta_of((void *)obj, slot_size)->state);

	if (state == KASAN_OBJECT_LIVE)
		return true;
	kasan_report_bad_free(obj, bad_free_kind(state),
			      (uptr)__builtin_return_address(0));
	return false;
}

bool kasan_object_freed(void *obj, size_t slot_size)
{
	struct kasan_meta *meta = kasan_meta_of(obj, slot_size);
	uptr ip = (uptr)__builtin_return_address(0);
	/* One locked exchange: of two CPUs freeing the same object at once,
	 * one wins and the other reports the double free. */
	u32 was = cmpxchg(&meta->state, KASAN_OBJECT_LIVE,
			  KASAN_OBJECT_QUARANTINED);

	if (was != KASAN_OBJECT_LIVE) {
		kasan_report_bad_free(obj, bad_free_kind(was), ip);
		return false;
	}
	kasan_poison(obj, slot_size - sizeof(*meta), KASAN_SLAB_FREE);
	kasan_track_save(&meta->free);
	kasan_quarantine_put(meta);
	return true;
}

size_t kasan_object_size(const void *obj, size_t slot_size)
{
	return kasan_meta_of((void *)obj, slot_size)->size;
}

void kasan_pages_allocated(void *addr, size_t bytes)
{
	kasan_unpoison(addr, bytes);
}

void kasan_pages_freed(void *addr, size_t bytes)
{
	kasan_poison(addr, bytes, KASAN_PAGE_FREE);
}

void kasan_record_aux_stack(const void *addr, enum kasan_aux_kind kind,
			    unsigned long gp)
{
	struct kasan_meta *meta;
	void *obj;
	size_t slot_size;

	if (!READ_ONCE(kasan_enabled) ||
	    !kmalloc_find_object(addr, &obj, &slot_size))
		return;
	meta = kasan_meta_of(obj, slot_size);
	if (READ_ONCE(meta->state) != KASAN_OBJECT_LIVE)
		return;
	meta->aux_gp = (u32)gp;
	kasan_track_save(&meta->aux);
	meta->aux.kind = kind;
}

int kasan_stack_prepare(uptr base, size_t size)
{
	if (arch_kasan_populate_shadow(base, base + size) < 0)
		return -1;
	kasan_unpoison((void *)base, size);
	return 0;
}

/* Shadow of its own for every range that is checked: RAM's direct map
 * and the kernel image. */
static __init void populate_shadow(void)
{
	extern const char __kernel_end[];
	unsigned int i;

	for (i = 0; i < boot_info.nr_regions; i++) {
		const struct mem_region *r = &boot_info.regions[i];

		if (r->type == MEM_USABLE &&
		    arch_kasan_populate_shadow((uptr)phys_to_virt(r->base),
					       (uptr)phys_to_virt(r->base +
								  r->length)))
			panic("kasan: no memory for the shadow of RAM");
	}
	if (arch_kasan_populate_shadow(ARCH_KERNEL_VMA, (uptr)__kernel_end))
		panic("kasan: no memory for the shadow of the kernel image");
}

/* The compiler's constructors: one per instrumented file, registering
 * its globals. */
static __init void register_globals(void)
{
	typedef void (*constructor_t)(void);
	extern const constructor_t __init_array_start[], __init_array_end[];
	const constructor_t *c;

	for (c = __init_array_start; c < __init_array_end; c++)
		(*c)();
}

/**
 * kasan_init - turn the checks on
 *
 * After the page allocator is up (the shadow takes an eighth of RAM from
 * it) and before kmalloc is, so that every object ever handed out has
 * its redzones. Pages allocated before now read as accessible.
 */
__init void kasan_init(void)
{
	populate_shadow();
	arch_kasan_seal_early_shadow();
	register_globals();
	WRITE_ONCE(kasan_enabled, true);
	pr_info("kasan: generic mode, outline checks, quarantine of %zu KiB\n",
		kasan_quarantine_limit() / 1024);
}
