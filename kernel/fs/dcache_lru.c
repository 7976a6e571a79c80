/*
 * Eviction: the LRU of unused entries (those with no cached children),
 * and the shrinker that evicts from it when the cache passes
 * dcache.max_entries or memory runs short. Lock-free hits write nothing,
 * so they cannot reorder the LRU: an entry's place is when it last
 * became unused, and a hit under the namespace mutex marks it
 * referenced, which spares it one pass. All under namespace_mutex.
 */
#include "dcache_internal.h"
#include "kernel/cmdline.h"

static LIST_HEAD(lru);			/* unused entries, oldest first */
u64 dcache_nr_evictions;

unsigned int dcache_max_entries = 1u << 20;
CMDLINE_UINT("dcache.max_entries", dcache_max_entries, 16, 1u << 26,
	     "evict unused dcache entries past this many");

void dcache_lru_add(struct dentry *d)
{
	WRITE_ONCE(d->flags, d->flags & ~DENTRY_REFERENCED);
	list_add_tail(&d->lru, &lru);
}

void d_get_child_ref(struct dentry *parent)
{
	if (parent->refcount++ == 0 && parent != dcache_root)
		list_del_init(&parent->lru);
}

void d_put_child_ref(struct dentry *parent)
{
	if (--parent->refcount == 0 && parent != dcache_root)
		dcache_lru_add(parent);
}

/* A lookup under the mutex used this entry: spare it one eviction pass. */
void d_touch(struct dentry *d)
{
	if (!(d->flags & DENTRY_REFERENCED))
		WRITE_ONCE(d->flags, d->flags | DENTRY_REFERENCED);
}

/* Evict up to n unused entries, oldest first; an entry used by a locked
 * lookup since it joined the LRU goes to the back once instead. */
void dcache_shrink_locked(unsigned int n)
{
	/* u64: for n near UINT_MAX ("evict all") 2n must not wrap. */
	u64 scanned = 0, limit = 2 * (u64)n + 16;

	while (n && !list_empty(&lru) && scanned++ < limit) {
		struct dentry *d = list_first_entry(&lru, struct dentry, lru);

		if (d->flags & DENTRY_REFERENCED) {
			WRITE_ONCE(d->flags, d->flags & ~DENTRY_REFERENCED);
			list_move_tail(&d->lru, &lru);
			continue;
		}
		d_kill(d);
		dcache_nr_evictions++;
		n--;
	}
}

/**
 * dcache_shrink - evict unused entries, least recently used first
 * @n: at most this many
 *
 * Context: thread context; sleeps on the namespace mutex. Evicted entries
 * are unhashed at once and freed after a grace period (call_rcu()), so a
 * lock-free walk that holds one may finish with it.
 * Return: how many entries went.
 */
unsigned int dcache_shrink(unsigned int n)
{
	u64 before;

	mutex_lock(&namespace_mutex);
	before = dcache_nr_evictions;
	dcache_shrink_locked(n);
	before = dcache_nr_evictions - before;
	mutex_unlock(&namespace_mutex);
	return before;
}

/**
 * dcache_set_max_entries - change the cache's limit and evict down to it
 * @n: the new limit (dcache.max_entries)
 *
 * Context: thread context; sleeps on the namespace mutex.
 */
void dcache_set_max_entries(unsigned int n)
{
	mutex_lock(&namespace_mutex);
	dcache_max_entries = n;
	if (dcache_nr_entries > n)
		dcache_shrink_locked(dcache_nr_entries - n);
	mutex_unlock(&namespace_mutex);
}

/* Before a new entry joins: evict until there is room for it. */
void dcache_make_room(void)
{
	if (dcache_nr_entries >= dcache_max_entries)
		dcache_shrink_locked(dcache_nr_entries - dcache_max_entries + 1);
}
