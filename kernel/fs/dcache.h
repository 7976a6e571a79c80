/*
 * The dentry cache: RCU's first client in the 2003 article. An entry per
 * (parent, name) remembers what the backing store (ramfs) said about that
 * name: an inode, or nothing (a negative entry, a cached "does not exist").
 *
 * Readers walk paths under rcu_read_lock() with no lock, no atomic
 * instruction and no write to shared memory; each step is validated with
 * the entry's sequence count and the whole walk with the rename sequence
 * count, and a walk that cannot be sure falls back to a walk under the
 * namespace mutex, which every change also holds. Removed and evicted
 * entries are unhashed and freed with call_rcu().
 *
 * For the benchmarks the same cached walk also runs under one global
 * spinlock, under a reader-writer lock, or with no synchronization at all
 * (valid only while nothing changes); writers take both global locks
 * around every change of hashed state so that those variants are exact.
 */
#ifndef KERNEL_DCACHE_H
#define KERNEL_DCACHE_H

#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/seqcount.h"
#include "kernel/sched/spinlock.h"
#include "lib/list.h"
#include "lib/types.h"

#define DNAME_INLINE_LEN	32
#define DCACHE_PATH_MAX		1024

struct ramfs_inode;

enum dentry_flags {
	DENTRY_UNHASHED		= 1u << 0,	/* off the hash table: dead */
	DENTRY_REFERENCED	= 1u << 1,	/* used since it joined the LRU */
};

#define DENTRY_LIVE	0x64656e74u	/* "dent" */
#define DENTRY_FREED	0x64656164u	/* "dead" */

struct dentry {
	u32 magic;			/* DENTRY_LIVE until freed */
	struct hlist_node hash_link;	/* bucket chain; RCU readers */
	struct dentry *parent;		/* the root is its own parent */
	u32 name_hash;
	u32 name_len;
	const char *name;		/* inline_name or an external copy */
	struct ramfs_inode *inode;	/* NULL: a negative entry */
	seqcount_t seq;			/* bumped when name, parent, inode
					 * or hashed state change */
	spinlock_t lock;		/* serializes writers of seq */
	u32 flags;
	int refcount;			/* cached children + holders */
	struct list_head lru;		/* unused list, while refcount == 0 */
	struct list_head children;	/* cached entries under this one */
	struct list_head child_link;	/* in parent->children */
	struct rcu_head rcu;
	char inline_name[DNAME_INLINE_LEN];
};

/* How a walk of cached entries is synchronized. */
enum dcache_mode {
	DCACHE_RCU,		/* lock-free, validated, falls back */
	DCACHE_RWLOCK,		/* read side of one reader-writer lock */
	DCACHE_SPINLOCK,	/* one global spinlock */
	DCACHE_UNSYNC,		/* nothing: read-only workloads only */
	DCACHE_NR_MODES,
};

/* What a path walk found: err 0 and the inode's number and type, or a
 * negated errno (-ENOENT, -ENOTDIR, ...). */
struct dcache_result {
	int err;
	u64 ino;
	bool is_dir;
};

struct dcache_stats {
	u64 entries;
	u64 negative_entries;
	u64 max_entries;
	u64 buckets;
	u64 hits;
	u64 negative_hits;
	u64 misses;
	u64 evictions;
	u64 fallbacks;		/* lock-free walks that could not be sure */
	u64 freed_seen;		/* debug: walks that reached a freed entry */
};

void dcache_init(void);

/* A whole path, absolute ("/a/b/../c"); the mode picks the reader-side
 * synchronization. Asks the backing store on a miss, and caches the
 * answer, unless cached_only (then a miss is -ENOENT with *missed set). */
struct dcache_result dcache_walk(const char *path, enum dcache_mode mode);
bool dcache_walk_cached(const char *path, enum dcache_mode mode,
			struct dcache_result *out);

/* One step under rcu_read_lock(): the entry for name in parent, or NULL
 * (not cached). Trust what it holds only after read_seqcount_retry(
 * &d->seq, *seq) says no change raced with the lookup. */
struct dentry *d_lookup_rcu(const struct dentry *parent, const char *name,
			    size_t len, u32 *seq);

/* Changes: each returns 0 or a negated errno. */
int dcache_create(const char *path, bool is_dir);
int dcache_remove(const char *path, bool is_dir);
int dcache_rename(const char *from, const char *to);

/* Evict up to n unused entries; returns how many went. */
unsigned int dcache_shrink(unsigned int n);
/* Change the limit (dcache.max_entries) and evict down to it. */
void dcache_set_max_entries(unsigned int n);
void dcache_get_stats(struct dcache_stats *out);
/* One CPU's share of the lookup counters in struct dcache_stats. */
struct dcache_cpu_stats {
	u64 hits;
	u64 negative_hits;
	u64 misses;
	u64 fallbacks;
};
void dcache_get_cpu_stats(unsigned int cpu, struct dcache_cpu_stats *out);
void dcache_reset_counters(void);
const char *dcache_mode_name(enum dcache_mode mode);

/* List a directory's names through the backing store. */
int dcache_list(const char *path, void (*fn)(const char *name, size_t len,
					     bool is_dir, void *arg),
		void *arg);

#endif
