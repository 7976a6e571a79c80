/*
 * What the dcache's files share: the hash table, the namespace mutex that
 * serializes every change and every miss, the global locks of the lock
 * variants, and the per-CPU counters.
 */
#ifndef KERNEL_DCACHE_INTERNAL_H
#define KERNEL_DCACHE_INTERNAL_H

#include "dcache.h"
#include "kernel/percpu.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/rwlock.h"

struct dcache_bucket {
	spinlock_t lock;		/* writers of the chain */
	struct hlist_head chain;	/* RCU readers */
};

/* A name too long to sit inline; freed after a grace period when a
 * rename replaces it, since a reader may still be comparing it. */
struct external_name {
	struct rcu_head rcu;
	u32 magic;		/* EXT_NAME_LIVE until freed (debug check) */
	u32 capacity;
	char s[];
};

#define EXT_NAME_LIVE	0x6e616d65u	/* "name" */
#define EXT_NAME_FREED	0x64656164u	/* "dead" */


/* Counters bumped on lookups: per CPU, so a hit writes nothing shared. */
struct dcache_cpu_counters {
	u64 hits;
	u64 negative_hits;
	u64 misses;
	u64 fallbacks;
} __aligned(CACHE_LINE);

extern struct mutex namespace_mutex;
extern seqcount_t rename_seq;
extern struct dentry *dcache_root;
extern spinlock_t dcache_big_lock;
extern rwlock_t dcache_rwlock;
DECLARE_PERCPU_ARRAY(struct dcache_cpu_counters, dcache_counters);
extern u64 dcache_freed_seen;

/* The hash chain of (parent, a name's hash). */
struct dcache_bucket *dcache_bucket_for(const struct dentry *parent, u32 hash);

/* Count on this CPU; the caller has preemption off (any read-side
 * section or lock does). */
#define dcache_count(field) (dcache_counters[this_cpu_id()].field++)

/* Writers hold both lock-variant locks while they change hashed state,
 * so readers under either lock never see a change half made. */
void dcache_change_begin(void);
void dcache_change_end(void);

/* Under namespace_mutex. */
struct dentry *d_find_locked(struct dentry *parent, const char *name,
			     size_t len);
struct dentry *d_alloc(struct dentry *parent, const char *name, size_t len,
		       struct ramfs_inode *inode);
void d_set_inode(struct dentry *d, struct ramfs_inode *inode);
void d_kill(struct dentry *d);
int d_move(struct dentry *d, struct dentry *new_parent, const char *name,
	   size_t len);
void d_touch(struct dentry *d);
/* dcache_rename() with the mutex held: it takes no sleeping lock and
 * waits for no grace period, so a test may call it from inside a
 * read-side section (dcache_ops.c says why). */
int dcache_rename_locked(const char *from, const char *to);

/* The LRU and eviction (dcache_lru.c), under namespace_mutex. */
extern u64 dcache_nr_entries, dcache_nr_evictions;
extern unsigned int dcache_max_entries;
void dcache_lru_add(struct dentry *d);
void d_get_child_ref(struct dentry *parent);
void d_put_child_ref(struct dentry *parent);
void dcache_shrink_locked(unsigned int n);
void dcache_make_room(void);

/* Debug build: whether a walker's entry was freed under it, which it
 * reports (a WARNING and the freed_seen count); always false otherwise. */
bool d_freed(const struct dentry *d);

/* Under rcu_read_lock() or one of the global locks. */
struct dentry *d_lookup_cached(const struct dentry *parent, const char *name,
			       size_t len, u32 hash, u32 *seq, bool validate);

/* Walk under namespace_mutex, caching what the backing store says;
 * stop_before_last returns the parent of the last component, named in
 * *last_name (which the caller sets to NULL). */
struct dentry *walk_locked(const char *path, bool stop_before_last,
			   const char **last_name, size_t *last_len, int *err);

/* A path's components, one at a time. */
struct path_cursor {
	const char *p;
	const char *name;
	size_t len;
};

int path_start(struct path_cursor *c, const char *path);
bool path_next(struct path_cursor *c);

#endif
