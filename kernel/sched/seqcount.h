/*
 * Sequence counts: a reader that takes no lock learns whether a writer
 * changed the data while it read. The writer makes the count odd, writes,
 * makes it even again; a reader samples an even count, reads, and checks
 * the count is unchanged. Writers must exclude each other by other means
 * (a spinlock or a mutex): the count only tells readers, it does not lock.
 *
 * On x86-TSO loads are not reordered with loads nor stores with stores,
 * so the smp_rmb()/smp_wmb() here are compiler barriers; they still name
 * the order Linux's seqcount needs and where it pairs.
 */
#ifndef KERNEL_SEQCOUNT_H
#define KERNEL_SEQCOUNT_H

#include "arch.h"
#include "lib/compiler.h"
#include "lib/types.h"

typedef struct seqcount {
	u32 sequence;
} seqcount_t;

#define SEQCOUNT_INIT	{ 0 }

/* Read-read and write-write order: enough on TSO, see the top comment. */
#define seq_smp_rmb()	barrier()
#define seq_smp_wmb()	barrier()

/* Wait out a writer in progress, then return the even count to check. */
static inline u32 read_seqcount_begin(const seqcount_t *s)
{
	u32 seq;

	while ((seq = READ_ONCE(s->sequence)) & 1)
		arch_cpu_relax();
	/* The data reads come after the count; pairs with the wmb in
	 * write_seqcount_end(). */
	seq_smp_rmb();
	return seq;
}

/* The count without waiting: an odd value (a writer inside) makes the
 * caller's later read_seqcount_retry() fail, so a lock-free walker that
 * will recheck anyway need not spin here. */
static inline u32 raw_read_seqcount(const seqcount_t *s)
{
	u32 seq = READ_ONCE(s->sequence) & ~1u;

	/* As in read_seqcount_begin(). An odd count was rounded down, so
	 * it can never match at the recheck. */
	seq_smp_rmb();
	return seq;
}

/* True when a writer ran since read_seqcount_begin() returned seq. */
static inline bool read_seqcount_retry(const seqcount_t *s, u32 seq)
{
	/* The data reads come before the recheck; pairs with the wmb in
	 * write_seqcount_begin(). */
	seq_smp_rmb();
	return READ_ONCE(s->sequence) != seq;
}

static inline void write_seqcount_begin(seqcount_t *s)
{
	WRITE_ONCE(s->sequence, s->sequence + 1);
	/* The odd count is visible before any data write; pairs with the
	 * rmb in read_seqcount_retry(). */
	seq_smp_wmb();
}

static inline void write_seqcount_end(seqcount_t *s)
{
	/* Every data write is visible before the even count; pairs with the
	 * rmb in read_seqcount_begin(). */
	seq_smp_wmb();
	WRITE_ONCE(s->sequence, s->sequence + 1);
}

#endif
