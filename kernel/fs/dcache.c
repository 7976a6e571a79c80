/*
 * The dcache's entries and their table: allocation, hashing, the changes
 * a writer makes to an entry (new inode, move, kill), the table's set-up
 * and the statistics. The lookup of one step is in dcache_lookup.c, path
 * walks in dcache_walk.c,
 * the namespace changes built on these entry changes in dcache_ops.c, and
 * eviction with the LRU of unused entries in dcache_lru.c.
 *
 * Locking: every change, and every miss that inserts, holds
 * namespace_mutex, which also guards refcounts, the children lists and
 * the LRU. A change to hashed state also takes the bucket lock, the entry
 * lock (to write its seq) and dcache_change_begin()'s global locks.
 * Lock order: namespace_mutex, dcache_big_lock, dcache_rwlock,
 * rename_seq (a write section), entry lock, bucket lock.
 *
 * An entry's refcount is the number of its cached children; one with
 * none is unused and sits on the LRU, the only entries eviction takes.
 * So the ancestors of any cached entry are never evicted from under it.
 */
#include "dcache_internal.h"
#include "ramfs.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/race.h"
#include "lib/atomic.h"
#include "lib/hash.h"
#include "lib/rculist.h"
#include "lib/string.h"

DEFINE_MUTEX(namespace_mutex);
seqcount_t rename_seq = SEQCOUNT_INIT;
struct dentry *dcache_root;
DEFINE_SPINLOCK(dcache_big_lock);
DEFINE_RWLOCK(dcache_rwlock);
DEFINE_PERCPU_ARRAY(struct dcache_cpu_counters, dcache_counters);

static struct dcache_bucket *buckets;
static u32 bucket_mask;
u64 dcache_nr_entries;
static u64 nr_negative;

void dcache_change_begin(void)
{
	spin_lock(&dcache_big_lock);
	write_lock(&dcache_rwlock);
}

void dcache_change_end(void)
{
	write_unlock(&dcache_rwlock);
	spin_unlock(&dcache_big_lock);
}

struct dcache_bucket *dcache_bucket_for(const struct dentry *parent, u32 hash)
{
	return &buckets[hash_mix_ptr(hash, parent) & bucket_mask];
}

/* Point d at a copy of name, inline when it fits. Returns the external
 * name it replaced (to free after a grace period), or NULL. */
static int set_name(struct dentry *d, const char *name, size_t len,
		    struct external_name **old)
{
	struct external_name *ext = NULL;
	char *buf = d->inline_name;

	*old = d->name && d->name != d->inline_name ?
	       container_of(d->name, struct external_name, s[0]) : NULL;
	if (len > DNAME_INLINE_LEN) {
		ext = kmalloc(offsetof(struct external_name, s) + len);
		if (!ext)
			return -ENOMEM;
		ext->magic = EXT_NAME_LIVE;
		ext->capacity = len;
		buf = ext->s;
	}
	/* Inline bytes may be rewritten under a racing reader: see
	 * name_matches(). */
	for (size_t i = 0; i < len; i++)
		WRITE_ONCE(buf[i], name[i]);
	/* Publishes the new name: its bytes and an external name's magic
	 * and capacity are stored first. Release, as rcu_assign_pointer()
	 * would be: pairs with the READ_ONCE of d->name in name_matches(),
	 * whose later loads depend on it (free on x86-TSO). */
	smp_store_release(&d->name, buf);
	WRITE_ONCE(d->name_len, len);
	WRITE_ONCE(d->name_hash, hash_name(name, len));
	return 0;
}

static void free_external_name(void *ptr)
{
	struct external_name *ext = ptr;

	/* Read lock-free by walkers' debug check (name_matches()). */
	WRITE_ONCE(ext->magic, EXT_NAME_FREED);
	kfree(ext);
}

static void free_dentry(void *ptr)
{
	struct dentry *d = ptr;

	WRITE_ONCE(d->magic, DENTRY_FREED);
	if (d->name != d->inline_name)
		free_external_name(container_of(d->name, struct external_name,
						s[0]));
	kfree(d);
}

struct dentry *d_alloc(struct dentry *parent, const char *name, size_t len,
		       struct ramfs_inode *inode)
{
	struct dentry *d = kzalloc(sizeof(*d));
	struct external_name *none;
	struct dcache_bucket *b;

	if (!d) {
		dcache_shrink_locked(64);	/* memory is short: give some back */
		d = kzalloc(sizeof(*d));
		if (!d)
			return NULL;
	}
	d->magic = DENTRY_LIVE;
	spin_lock_init(&d->lock);
	INIT_LIST_HEAD(&d->children);
	INIT_LIST_HEAD(&d->lru);
	if (set_name(d, name, len, &none) < 0) {
		kfree(d);
		return NULL;
	}
	d->inode = inode;
	d->parent = parent;
	/* The parent leaves the LRU before eviction runs, so it is never
	 * the victim that makes room for its own child. */
	d_get_child_ref(parent);
	list_add(&d->child_link, &parent->children);
	dcache_make_room();
	b = dcache_bucket_for(parent, d->name_hash);
	dcache_change_begin();
	spin_lock(&b->lock);
	/* Publish: every field is written before the entry is reachable;
	 * hlist_add_head_rcu's release pairs with the readers' dependent
	 * loads in hlist_for_each_entry_rcu. */
	hlist_add_head_rcu(&d->hash_link, &b->chain);
	spin_unlock(&b->lock);
	dcache_change_end();
	dcache_nr_entries++;
	nr_negative += !inode;
	dcache_lru_add(d);
	return d;
}

void d_set_inode(struct dentry *d, struct ramfs_inode *inode)
{
	dcache_change_begin();
	spin_lock(&d->lock);
	write_seqcount_begin(&d->seq);
	nr_negative += !inode - !d->inode;
	WRITE_ONCE(d->inode, inode);
	write_seqcount_end(&d->seq);
	spin_unlock(&d->lock);
	dcache_change_end();
}

static void unhash(struct dentry *d)
{
	struct dcache_bucket *b = dcache_bucket_for(d->parent, d->name_hash);

	spin_lock(&d->lock);
	write_seqcount_begin(&d->seq);
	WRITE_ONCE(d->flags, d->flags | DENTRY_UNHASHED);
	race_window(RACE_DCACHE_UNHASH);
	spin_lock(&b->lock);
	hlist_del_rcu(&d->hash_link);
	spin_unlock(&b->lock);
	race_window(RACE_DCACHE_UNLINKED);
	write_seqcount_end(&d->seq);
	spin_unlock(&d->lock);
}

/* Remove d (and its cached children, which can only be negative entries
 * of an empty directory) from the cache; freed after a grace period. */
void d_kill(struct dentry *d)
{
	struct dentry *child, *tmp;

	BUG_ON(d == dcache_root);
	list_for_each_entry_safe(child, tmp, &d->children, child_link)
		d_kill(child);
	/* Every step below has a window before the next (race.h). Here
	 * the caller may sleep, so a grace period may end inside: one
	 * that an entry queued too early was waiting for. */
	race_window(RACE_DCACHE_KILL);
	dcache_change_begin();
	unhash(d);
	dcache_change_end();
	race_window(RACE_DCACHE_UNHASHED);
	list_del(&d->child_link);
	if (d->refcount == 0)
		list_del(&d->lru);
	d_put_child_ref(d->parent);
	dcache_nr_entries--;
	nr_negative -= !d->inode;
	race_window(RACE_DCACHE_FREE);
	call_rcu(&d->rcu, free_dentry, d);
	race_window(RACE_DCACHE_QUEUED);
}

/* Rename d to (new_parent, name). Readers that raced see d's seq or
 * rename_seq change and fall back to the locked walk. */
int d_move(struct dentry *d, struct dentry *new_parent, const char *name,
	   size_t len)
{
	struct dentry *old_parent = d->parent;
	struct external_name *old_ext;
	struct dcache_bucket *b;
	int err;

	dcache_change_begin();
	write_seqcount_begin(&rename_seq);
	spin_lock(&d->lock);
	write_seqcount_begin(&d->seq);
	b = dcache_bucket_for(d->parent, d->name_hash);
	spin_lock(&b->lock);
	hlist_del_rcu(&d->hash_link);
	spin_unlock(&b->lock);
	race_window(RACE_DCACHE_RENAME);
	err = set_name(d, name, len, &old_ext);
	if (!err) {
		WRITE_ONCE(d->parent, new_parent);
		race_window(RACE_DCACHE_RENAMED);
		if (old_ext)
			call_rcu(&old_ext->rcu, free_external_name, old_ext);
		race_window(RACE_DCACHE_NAME_QUEUED);
	}
	b = dcache_bucket_for(d->parent, d->name_hash);
	spin_lock(&b->lock);
	hlist_add_head_rcu(&d->hash_link, &b->chain);
	spin_unlock(&b->lock);
	race_window(RACE_DCACHE_REHASHED);
	write_seqcount_end(&d->seq);
	spin_unlock(&d->lock);
	write_seqcount_end(&rename_seq);
	dcache_change_end();
	if (err)
		return err;
	list_del(&d->child_link);
	d_get_child_ref(new_parent);
	list_add(&d->child_link, &new_parent->children);
	d_put_child_ref(old_parent);
	return 0;
}

static void alloc_table(void)
{
	struct page_alloc_stats ps;
	u64 want, n = 1024;

	page_alloc_get_stats(&ps);
	/* About one bucket per 8 KiB of RAM: chains stay short at the
	 * entry counts that memory can hold. */
	want = ps.total_pages * PAGE_SIZE / 8192;
	while (n < want && n < (1u << 20))
		n <<= 1;
	while (!(buckets = kzalloc(n * sizeof(*buckets))))
		if ((n >>= 1) < 64)
			panic("dcache: no memory for the hash table");
	bucket_mask = n - 1;
	for (u64 i = 0; i < n; i++) {
		spin_lock_init(&buckets[i].lock);
		INIT_HLIST_HEAD(&buckets[i].chain);
	}
}

/**
 * dcache_init - set up the backing ramfs, the hash table and the root
 *
 * Context: boot, once, after kmalloc and RCU are up. The table's size
 * follows from RAM; panics if there is no memory for it.
 */
__init void dcache_init(void)
{
	ramfs_init();
	alloc_table();
	dcache_root = kzalloc(sizeof(*dcache_root));
	if (!dcache_root)
		panic("dcache: no memory for the root entry");
	dcache_root->magic = DENTRY_LIVE;
	spin_lock_init(&dcache_root->lock);
	INIT_LIST_HEAD(&dcache_root->children);
	INIT_LIST_HEAD(&dcache_root->lru);
	dcache_root->name = dcache_root->inline_name;
	dcache_root->name_len = 1;
	dcache_root->inline_name[0] = '/';
	dcache_root->parent = dcache_root;
	dcache_root->inode = ramfs_root();
	pr_info("dcache: %u buckets, at most %u entries\n", bucket_mask + 1,
		dcache_max_entries);
}

/**
 * dcache_get_cpu_stats - one CPU's lookup counters
 * @cpu: the CPU
 * @out: filled with its hits, negative hits, misses and fallbacks
 *
 * Context: any thread; reads counters that only their CPU writes, with no
 * lock, so the figures are a snapshot, not one consistent instant.
 */
void dcache_get_cpu_stats(unsigned int cpu, struct dcache_cpu_stats *out)
{
	/* Lock-free snapshot of counters only their CPU writes. */
	out->hits = READ_ONCE(dcache_counters[cpu].hits);
	out->negative_hits = READ_ONCE(dcache_counters[cpu].negative_hits);
	out->misses = READ_ONCE(dcache_counters[cpu].misses);
	out->fallbacks = READ_ONCE(dcache_counters[cpu].fallbacks);
}

/**
 * dcache_get_stats - the whole cache's figures
 * @out: filled with the summed lookup counters and the entry counts
 *
 * Context: thread context; sleeps on the namespace mutex for the entry
 * counts.
 */
void dcache_get_stats(struct dcache_stats *out)
{
	unsigned int c;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < nr_cpus; c++) {
		struct dcache_cpu_stats one;

		dcache_get_cpu_stats(c, &one);
		out->hits += one.hits;
		out->negative_hits += one.negative_hits;
		out->misses += one.misses;
		out->fallbacks += one.fallbacks;
	}
	mutex_lock(&namespace_mutex);
	out->entries = dcache_nr_entries;
	out->negative_entries = nr_negative;
	out->evictions = dcache_nr_evictions;
	mutex_unlock(&namespace_mutex);
	out->max_entries = dcache_max_entries;
	out->freed_seen = READ_ONCE(dcache_freed_seen);
	out->buckets = bucket_mask + 1;
}

/**
 * dcache_mode_name - the name of a walk's synchronization, for reports
 * @mode: the mode
 *
 * Context: any.
 * Return: "rcu", "rwlock", "spinlock", "unsync", or "?" if out of range.
 */
const char *dcache_mode_name(enum dcache_mode mode)
{
	static const char *const names[DCACHE_NR_MODES] = {
		"rcu", "rwlock", "spinlock", "unsync",
	};

	return mode < DCACHE_NR_MODES ? names[mode] : "?";
}
