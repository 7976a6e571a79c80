/*
 * Reader-writer spinlocks. Readers share the lock; a writer excludes
 * everyone. A writer first takes `writers` (a ticket lock, so writers
 * queue fairly), then raises WRITER_BIT, which turns new readers away,
 * and waits for the readers inside to leave. Every reader entry is an
 * atomic add on the shared word: this is the cache-line traffic that RCU
 * readers avoid, and the benchmarks measure it.
 */
#ifndef KERNEL_RWLOCK_H
#define KERNEL_RWLOCK_H

#include "spinlock.h"
#include "lib/atomic.h"

#define RWLOCK_WRITER_BIT	(1u << 31)

typedef struct rwlock {
	u32 word;		/* readers inside, plus WRITER_BIT */
	spinlock_t writers;
} rwlock_t;

#define RWLOCK_INIT	{ 0, SPINLOCK_INIT }
#define DEFINE_RWLOCK(name)	rwlock_t name = RWLOCK_INIT

static inline void rwlock_init(rwlock_t *l)
{
	l->word = 0;
	spin_lock_init(&l->writers);
}

static inline void read_lock(rwlock_t *l) __acquires(l)
{
	preempt_disable();
	for (;;) {
		/* Acquire: the section's reads stay after the increment;
		 * pairs with the release in write_unlock(). */
		u32 v = atomic_add_return(&l->word, 1);

		if (likely(!(v & RWLOCK_WRITER_BIT)))
			return;
		atomic_fetch_sub(&l->word, 1);
		while (READ_ONCE(l->word) &
		       RWLOCK_WRITER_BIT)
			arch_cpu_relax();
	}
}

static inline void read_unlock(rwlock_t *l) __releases(l)
{
	/* Release: the section's reads finish before the writer, which
	 * waits for the count with acquire, may write. */
	atomic_fetch_sub(&l->word, 1);
	preempt_enable();
}

static inline void write_lock(rwlock_t *l) __acquires(l)
{
	spin_lock(&l->writers);
	atomic_fetch_or(&l->word, RWLOCK_WRITER_BIT);
	/* Acquire pairs with read_unlock()'s release. */
	while (smp_load_acquire(&l->word) != RWLOCK_WRITER_BIT)
		arch_cpu_relax();
}

static inline void write_unlock(rwlock_t *l) __releases(l)
{
	/* Release: the writer's stores are visible to the next reader;
	 * pairs with read_lock()'s acquire. */
	atomic_fetch_and(&l->word, ~RWLOCK_WRITER_BIT);
	spin_unlock(&l->writers);
}

#endif
