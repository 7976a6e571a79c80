/*
 * The lookup of one step: the entry cached for a name in a directory,
 * found in its hash chain, lock-free for the RCU walk (its answer then
 * trusted only after the caller's sequence check) or under the namespace
 * mutex. The debug build also says so when a walker stands on an entry,
 * or compares a name, whose memory was freed under it: a grace period
 * that ended too early.
 */
#include "dcache_internal.h"
#include "kernel/printk.h"
#include "kernel/race.h"
#include "lib/atomic.h"
#include "lib/hash.h"
#include "lib/rculist.h"

/* Freed entries and names a walker met (debug build). */
u64 dcache_freed_seen;

/* How many bytes the name buffer at p holds: a reader compares at most
 * that many, whatever name_len it saw, so a rename racing with it can
 * make it wrong (the seq check catches that) but never read out of it. */
static u32 name_capacity(const struct dentry *d, const char *p)
{
	if (p == d->inline_name)
		return DNAME_INLINE_LEN;
	return container_of(p, struct external_name, s[0])->capacity;
}

/* A walker compared a name whose storage was freed under it: a rename
 * freed the old name without waiting for a grace period. */
static void report_freed_name(const struct dentry *d, const char *p)
{
	atomic_add_relaxed(&dcache_freed_seen, 1);
	pr_warn("WARNING: dcache: a walker compared freed name %p of entry %p "
		"(magic %#x)\n", p, d,
		READ_ONCE(container_of(p, struct external_name, s[0])->magic));
}

static bool name_matches(const struct dentry *d, const char *name, size_t len)
{
	/* Lock-free: a rename may change these under us. The buffer read
	 * stays valid (an external name is freed after a grace period) and
	 * the caller's seq check rejects a torn comparison. */
	const char *p = READ_ONCE(d->name);
	bool same = READ_ONCE(d->name_len) == len &&
		    len <= name_capacity(d, p);
	size_t i;

	/* Holding the name, as a slow reader would, while a rename frees
	 * it: only a grace period may end the old name's life. */
	race_window(RACE_DCACHE_NAME);
	for (i = 0; same && i < len; i++)
		same = READ_ONCE(p[i]) == name[i];
	/* Freed memory compares as a mismatch, which alone would only send
	 * the walk to the locked fallback: say that the bytes compared
	 * were freed ones. The magic is read after the bytes, so a free
	 * during the comparison shows too. */
	if (KERNEL_DEBUG && p != d->inline_name &&
	    READ_ONCE(container_of(p, struct external_name, s[0])->magic) !=
	    EXT_NAME_LIVE)
		report_freed_name(d, p);
	return same;
}

/* A walker reached an entry that was freed under it: a grace period
 * ended too early, or an entry was freed without one. */
static void report_freed_entry(const struct dentry *d)
{
	atomic_add_relaxed(&dcache_freed_seen, 1);
	pr_warn("WARNING: dcache: a walker reached freed entry %p (magic "
		"%#x)\n", d, READ_ONCE(d->magic));
}

bool d_freed(const struct dentry *d)
{
	/* Lock-free: free_dentry() (or kfree()'s poison) overwrites it. */
	if (!KERNEL_DEBUG || READ_ONCE(d->magic) == DENTRY_LIVE)
		return false;
	report_freed_entry(d);
	return true;
}

struct dentry *d_lookup_cached(const struct dentry *parent, const char *name,
			       size_t len, u32 hash, u32 *seq, bool validate)
{
	struct dcache_bucket *b = dcache_bucket_for(parent, hash);
	struct dentry *d;

	/* Only the lock-free walk (validate) relies on a read-side
	 * section. The others keep writers out themselves: namespace_mutex
	 * (d_find_locked()), the big lock or the rwlock of the locked walk
	 * modes, or, for the unsynchronized baseline, a workload that
	 * changes nothing. */
	hlist_for_each_entry_rcu(d, &b->chain, hash_link, !validate) {
		u32 s;

		if (d_freed(d))
			return NULL;

		/* Standing on d, about to follow its next pointer. */
		race_window(RACE_DCACHE_CHAIN);
		/* Again after the window: d may have been freed while we
		 * stood on it (its grace period ended too early). */
		if (d_freed(d))
			return NULL;
		if (READ_ONCE(d->name_hash) != hash)
			continue;
		/* The caller rechecks this count before it trusts what it
		 * read of d (its next step, or the end of the walk), so a
		 * change racing with the tests below is caught there. */
		s = validate ? raw_read_seqcount(&d->seq) : 0;
		if (READ_ONCE(d->flags) & DENTRY_UNHASHED)
			continue;
		if (READ_ONCE(d->parent) != parent || !name_matches(d, name, len))
			continue;
		*seq = s;
		return d;
	}
	return NULL;
}

/**
 * d_lookup_rcu - find the cached entry for one name in a directory
 * @parent: the directory's entry, reached under the same read-side section
 * @name: the component, not NUL-terminated
 * @len: its length
 * @seq: where to store the entry's sequence count as sampled
 *
 * Context: inside rcu_read_lock(); takes no lock and writes no shared
 * memory. The entry cannot be freed before the caller's
 * rcu_read_unlock(), but it may change meanwhile: trust its name, parent
 * and inode only once read_seqcount_retry(&d->seq, *seq) says no change
 * raced with the lookup.
 * Return: the entry, or NULL if the name is not cached in @parent.
 */
struct dentry *d_lookup_rcu(const struct dentry *parent, const char *name,
			    size_t len, u32 *seq)
{
	if (KERNEL_DEBUG && !rcu_read_lock_held())
		rcu_dereference_warn(__FILE__, __LINE__);
	return d_lookup_cached(parent, name, len, hash_name(name, len), seq,
			       true);
}

struct dentry *d_find_locked(struct dentry *parent, const char *name,
			     size_t len)
{
	u32 seq;

	/* No writer runs while we hold the mutex: no seq to check. */
	return d_lookup_cached(parent, name, len, hash_name(name, len), &seq,
			       false);
}
