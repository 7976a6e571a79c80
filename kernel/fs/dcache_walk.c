/*
 * Path walks. The fast one (the RCU-walk idea) goes from the root to the
 * last component through cached entries only, under rcu_read_lock(),
 * taking no lock and writing nothing shared: at each step it samples the
 * child's seq before trusting it and rechecks the parent's afterwards, so
 * that each hop was true at one instant; rename_seq, sampled at the start
 * and rechecked at the end, catches a rename anywhere on the path (which
 * the per-entry checks cannot, for an ancestor already left behind).
 * A miss, or a walk that could not be sure, is done again under the
 * namespace mutex, which excludes every change: there, a miss asks the
 * backing store and caches its answer, positive or negative.
 */
#include "dcache_internal.h"
#include "ramfs.h"
#include "kernel/errno.h"
#include "kernel/race.h"
#include "kernel/trace/trace.h"
#include "lib/hash.h"
#include "lib/string.h"

#define DCACHE_LOCK_FREE_TRIES	4

enum walk_outcome {
	WALK_DONE,	/* *out holds the answer, from the cache */
	WALK_MISS,	/* a component is not cached */
	WALK_UNSURE,	/* a change raced with the walk */
};

int path_start(struct path_cursor *c, const char *path)
{
	size_t len = strnlen(path, DCACHE_PATH_MAX + 1);

	if (path[0] != '/')
		return -EINVAL;
	if (len > DCACHE_PATH_MAX)
		return -ENAMETOOLONG;
	c->p = path;
	return 0;
}

/* Advance to the next component; false at the end of the path. */
bool path_next(struct path_cursor *c)
{
	const char *p = c->p;

	while (*p == '/')
		p++;
	if (!*p)
		return false;
	c->name = p;
	while (*p && *p != '/')
		p++;
	c->len = p - c->name;
	c->p = p;
	return true;
}

static bool is_dot(const struct path_cursor *c)
{
	return c->len == 1 && c->name[0] == '.';
}

static bool is_dotdot(const struct path_cursor *c)
{
	return c->len == 2 && c->name[0] == '.' && c->name[1] == '.';
}

static void set_error(struct dcache_result *out, int err)
{
	out->err = err;
	out->ino = 0;
	out->is_dir = false;
}

static void set_result(struct dcache_result *out, struct ramfs_inode *inode)
{
	out->err = inode ? 0 : -ENOENT;
	out->ino = inode ? inode->ino : 0;
	out->is_dir = inode ? inode->is_dir : false;
}

/* The walk through cached entries, shared by every mode; validate is
 * set for the lock-free mode only, where writers may run meanwhile. */
static enum walk_outcome walk_cached(const char *path, bool validate,
				     struct dcache_result *out)
{
	struct dentry *d = dcache_root, *next;
	struct ramfs_inode *inode;
	struct path_cursor c;
	u32 seq = 0, next_seq = 0;
	int err = path_start(&c, path);

	if (err) {
		set_error(out, err);
		return WALK_DONE;
	}
	if (validate)
		seq = raw_read_seqcount(&d->seq);
	while (path_next(&c)) {
		/* Every component, "." and ".." too, needs a directory. */
		inode = READ_ONCE(d->inode);
		if (!inode || !inode->is_dir) {
			set_error(out, inode ? -ENOTDIR : -ENOENT);
			goto check_last;
		}
		if (is_dot(&c))
			continue;
		if (is_dotdot(&c)) {
			next = READ_ONCE(d->parent);
			if (validate)
				next_seq = raw_read_seqcount(&next->seq);
		} else {
			if (c.len > RAMFS_NAME_MAX) {
				set_error(out, -ENAMETOOLONG);
				goto check_last;
			}
			next = d_lookup_cached(d, c.name, c.len,
					       hash_name(c.name, c.len),
					       &next_seq, validate);
			if (!next)
				return WALK_MISS;
		}
		/* d must not have changed while we looked in it. */
		if (validate && read_seqcount_retry(&d->seq, seq))
			return WALK_UNSURE;
		d = next;
		seq = next_seq;
		race_window(RACE_DCACHE_WALK);
		/* The next step reads d: it must not have been freed while
		 * the walk stood on it. */
		if (validate && d_freed(d))
			return WALK_UNSURE;
	}
	set_result(out, READ_ONCE(d->inode));
check_last:
	if (validate && read_seqcount_retry(&d->seq, seq))
		return WALK_UNSURE;
	return WALK_DONE;
}

static void count_done(const struct dcache_result *r)
{
	if (r->err == -ENOENT)
		dcache_count(negative_hits);
	else
		dcache_count(hits);
}

/* The read side of each mode; sparse cannot follow a lock taken under
 * a switch, so these two are left unannotated. */
static void reader_enter(enum dcache_mode mode)
{
	switch (mode) {
	case DCACHE_RCU:
		rcu_read_lock();
		break;
	case DCACHE_RWLOCK:
		read_lock(&dcache_rwlock);
		break;
	case DCACHE_SPINLOCK:
		spin_lock(&dcache_big_lock);
		break;
	default:
		preempt_disable();	/* the counters are per CPU */
	}
}

static void reader_exit(enum dcache_mode mode)
{
	switch (mode) {
	case DCACHE_RCU:
		rcu_read_unlock();
		break;
	case DCACHE_RWLOCK:
		read_unlock(&dcache_rwlock);
		break;
	case DCACHE_SPINLOCK:
		spin_unlock(&dcache_big_lock);
		break;
	default:
		preempt_enable();
	}
}

static enum walk_outcome walk_once(const char *path, enum dcache_mode mode,
				   struct dcache_result *out)
{
	bool lock_free = mode == DCACHE_RCU;
	enum walk_outcome o;
	u32 rseq = 0;

	reader_enter(mode);
	if (lock_free)
		rseq = raw_read_seqcount(&rename_seq);
	o = walk_cached(path, lock_free, out);
	/* A rename anywhere may have moved a component already passed. */
	if (lock_free && o == WALK_DONE &&
	    read_seqcount_retry(&rename_seq, rseq))
		o = WALK_UNSURE;
	if (o == WALK_DONE)
		count_done(out);
	else if (o == WALK_UNSURE)
		dcache_count(fallbacks);
	if (lock_free)
		trace_event(TRACE_DCACHE, this_cpu_id(), TRACE_DCACHE_WALK,
			    o == WALK_DONE ? TRACE_WALK_DONE :
			    o == WALK_UNSURE ? TRACE_WALK_UNSURE : TRACE_WALK_MISS,
			    0, 0);
	reader_exit(mode);
	return o;
}

/**
 * dcache_walk_cached - one walk through cached entries only
 * @path: absolute path ("/a/b/../c")
 * @mode: the reader-side synchronization of the walk
 * @out: the answer, when there is one
 *
 * Context: thread context, preemption enabled; never sleeps and never asks
 * the backing store. In DCACHE_RCU mode it takes no lock and writes no
 * shared memory.
 * Return: true with @out set if every component was cached and (in RCU
 * mode) no change raced with the walk; false for a miss or an unsure walk.
 */
bool dcache_walk_cached(const char *path, enum dcache_mode mode,
			struct dcache_result *out)
{
	return walk_once(path, mode, out) == WALK_DONE;
}

/* The entry for one component under d, from the cache or else from the
 * backing store (cached before it is returned). Namespace mutex held. */
static struct dentry *step_locked(struct dentry *d, const char *name,
				  size_t len, int *err)
{
	struct dentry *next = d_find_locked(d, name, len);

	if (next) {
		d_touch(next);
		return next;
	}
	preempt_disable();
	dcache_count(misses);
	preempt_enable();
	next = d_alloc(d, name, len, ramfs_lookup(d->inode, name, len));
	if (!next)
		*err = -ENOMEM;
	return next;
}

/* Walk under the namespace mutex; stop_before_last leaves *last_name at
 * the final component and returns its parent (for changes). */
struct dentry *walk_locked(const char *path, bool stop_before_last,
			   const char **last_name, size_t *last_len, int *err)
{
	struct dentry *d = dcache_root;
	struct path_cursor c, ahead;

	*err = path_start(&c, path);
	if (*err)
		return NULL;
	while (path_next(&c)) {
		if (stop_before_last) {
			ahead = c;
			if (!path_next(&ahead)) {
				*last_name = c.name;
				*last_len = c.len;
				break;
			}
		}
		if (!d->inode || !d->inode->is_dir) {
			*err = d->inode ? -ENOTDIR : -ENOENT;
			return NULL;
		}
		if (is_dot(&c))
			continue;
		if (is_dotdot(&c)) {
			d = d->parent;
			continue;
		}
		if (c.len > RAMFS_NAME_MAX) {
			*err = -ENAMETOOLONG;
			return NULL;
		}
		d = step_locked(d, c.name, c.len, err);
		if (!d)
			return NULL;
	}
	if (stop_before_last && !*last_name) {
		*err = -EINVAL;		/* "/" has no last component */
		return NULL;
	}
	return d;
}

/**
 * dcache_walk - look a whole path up
 * @path: absolute path ("/a/b/../c")
 * @mode: the reader-side synchronization of the cached walk
 *
 * Context: thread context; may sleep (on a miss or a fallback it takes the
 * namespace mutex and asks the backing store, caching the answer).
 * Return: err 0 with the inode's number and type, or a negated errno in
 * err (-ENOENT, -ENOTDIR, -ENAMETOOLONG, -EINVAL, -ENOMEM). The answer was
 * true at some instant during the call.
 */
struct dcache_result dcache_walk(const char *path, enum dcache_mode mode)
{
	struct dcache_result r;
	unsigned int tries;
	struct dentry *d;
	int err;

	/* A change that made a walk unsure is over in well under a walk's
	 * time, so try again lock-free before queueing on the mutex behind
	 * every writer; a miss needs the mutex at once. */
	for (tries = 0; tries < DCACHE_LOCK_FREE_TRIES; tries++) {
		enum walk_outcome o = walk_once(path, mode, &r);

		if (o == WALK_DONE)
			return r;
		if (o == WALK_MISS)
			break;
	}
	mutex_lock(&namespace_mutex);
	d = walk_locked(path, false, NULL, NULL, &err);
	if (d)
		set_result(&r, d->inode);
	else
		set_error(&r, err);
	mutex_unlock(&namespace_mutex);
	return r;
}
