/*
 * Changes to the namespace: create, remove and rename, each done first in
 * the backing store, then mirrored in the cache, all under the namespace
 * mutex. Lock-free walkers racing with a change see an entry's seq (or
 * rename_seq) move and fall back to the locked walk, which waits for the
 * mutex: so a walker sees the namespace before the change or after it.
 */
#include "dcache_internal.h"
#include "ramfs.h"
#include "arch.h"
#include "kernel/errno.h"
#include "kernel/printk.h"

/* The parent entry of path's last component, a positive directory. */
static struct dentry *parent_of(const char *path, const char **name,
				size_t *len, int *err)
{
	struct dentry *parent;

	*name = NULL;
	parent = walk_locked(path, true, name, len, err);
	if (!parent)
		return NULL;
	if ((*len == 1 && (*name)[0] == '.') ||
	    (*len == 2 && (*name)[0] == '.' && (*name)[1] == '.')) {
		*err = -EINVAL;
		return NULL;
	}
	if (!parent->inode || !parent->inode->is_dir) {
		*err = parent->inode ? -ENOTDIR : -ENOENT;
		return NULL;
	}
	return parent;
}

/**
 * dcache_create - create a file or directory, and cache it
 * @path: absolute path of the new name
 * @is_dir: a directory rather than a file
 *
 * Context: thread context; sleeps on the namespace mutex. A negative
 * entry for the name gives way to the new inode; a concurrent lock-free
 * walk sees either the old answer or the new one.
 * Return: 0, or -EEXIST, -ENOENT, -ENOTDIR, -ENAMETOOLONG, -ENOMEM.
 */
int dcache_create(const char *path, bool is_dir)
{
	struct ramfs_inode *inode;
	struct dentry *parent, *d;
	const char *name;
	size_t len;
	int err;

	mutex_lock(&namespace_mutex);
	parent = parent_of(path, &name, &len, &err);
	if (!parent)
		goto out;
	err = ramfs_create(parent->inode, name, len, is_dir, &inode);
	if (err)
		goto out;
	/* A negative entry gives way to the new inode; an uncached name is
	 * cached now, since it is about to be looked up. */
	d = d_find_locked(parent, name, len);
	if (d)
		d_set_inode(d, inode);
	else
		d_alloc(parent, name, len, inode);
out:
	mutex_unlock(&namespace_mutex);
	return err;
}

/*
 * Free an inode the backing store unlinked. Its grace period must begin
 * only once no entry leads to it: a walk that found the entry before it
 * was unhashed is still inside its read-side section, and is waited for;
 * one that finds the entry after the grace period began is not. The
 * debug build checks that the name (parent, name) no longer finds an
 * entry for this inode: the order KASAN once caught broken, checked
 * every time instead of when a walk happens to meet it.
 */
static void release_unreachable_inode(struct dentry *parent, const char *name,
				      size_t len, struct ramfs_inode *inode)
{
	struct dentry *still = KERNEL_DEBUG ?
			       d_find_locked(parent, name, len) : NULL;

	if (still && still->inode == inode) {
		pr_err("BUG: dcache: the inode of '%.*s' freed while a hashed "
		       "entry still leads to it\n", (int)len, name);
		pr_err("Call Trace:\n");
		arch_dump_stack();
	}
	ramfs_release(inode);
}

/**
 * dcache_remove - remove a file, or an empty directory
 * @path: absolute path
 * @is_dir: expect a directory (rmdir) rather than a file (unlink)
 *
 * Context: thread context; sleeps on the namespace mutex. The entry is
 * unhashed before it is handed to call_rcu(), so no new walk finds it
 * and walks already holding it finish before it is freed.
 * Return: 0, or -ENOENT, -ENOTDIR, -EISDIR, -ENOTEMPTY.
 */
int dcache_remove(const char *path, bool is_dir)
{
	struct dentry *parent, *d;
	struct ramfs_inode *unlinked;
	const char *name;
	size_t len;
	int err;

	mutex_lock(&namespace_mutex);
	parent = parent_of(path, &name, &len, &err);
	if (!parent)
		goto out;
	d = d_find_locked(parent, name, len);
	err = ramfs_remove(parent->inode, name, len, is_dir, &unlinked);
	if (!err && d)
		d_kill(d);
	if (unlinked)
		release_unreachable_inode(parent, name, len, unlinked);
out:
	mutex_unlock(&namespace_mutex);
	return err;
}

/**
 * dcache_rename - move a name, replacing what the target held
 * @from: absolute path of the existing name
 * @to: absolute path it moves to
 *
 * Context: thread context; sleeps on the namespace mutex. Bumps the
 * rename sequence count, so that a lock-free walk that raced with the
 * move (and may have followed a path that existed at no instant) retries.
 * Return: 0, or -ENOENT, -ENOTDIR, -EISDIR, -ENOTEMPTY, -EINVAL (a
 * directory into itself), -ENOMEM.
 */
int dcache_rename(const char *from, const char *to)
{
	int err;

	mutex_lock(&namespace_mutex);
	err = dcache_rename_locked(from, to);
	mutex_unlock(&namespace_mutex);
	return err;
}

/* dcache_rename() for a caller that holds the namespace mutex already:
 * a test's action run inside a lock-free walk (kernel/race.h), which
 * takes the mutex with mutex_trylock() since it must not sleep there. */
int dcache_rename_locked(const char *from, const char *to)
{
	struct dentry *from_parent, *to_parent = NULL, *src, *dst;
	struct ramfs_inode *unlinked = NULL;
	const char *from_name, *to_name;
	size_t from_len, to_len;
	int err;

	from_parent = parent_of(from, &from_name, &from_len, &err);
	if (!from_parent)
		goto out;
	to_parent = parent_of(to, &to_name, &to_len, &err);
	if (!to_parent)
		goto out;
	src = d_find_locked(from_parent, from_name, from_len);
	dst = d_find_locked(to_parent, to_name, to_len);
	err = ramfs_rename(from_parent->inode, from_name, from_len,
			   to_parent->inode, to_name, to_len, &unlinked);
	if (err || src == dst)
		goto out;
	/* The replaced target (or its negative entry) goes; then the
	 * source moves, or, if it was not cached, nothing more is known. */
	if (dst)
		d_kill(dst);
	if (src)
		err = d_move(src, to_parent, to_name, to_len);
out:
	if (unlinked)
		release_unreachable_inode(to_parent, to_name, to_len, unlinked);
	return err;
}

/**
 * dcache_list - call fn for each name in a directory
 * @path: absolute path of the directory
 * @fn: called with each name (not NUL-terminated), its length, whether it
 *      is a directory, and @arg; under the namespace mutex, so it must not
 *      change the namespace
 * @arg: passed to @fn
 *
 * Context: thread context; sleeps on the namespace mutex. Lists the
 * backing store, not the cache.
 * Return: 0, or -ENOENT, -ENOTDIR.
 */
int dcache_list(const char *path, void (*fn)(const char *name, size_t len,
					     bool is_dir, void *arg),
		void *arg)
{
	struct dentry *d;
	int err;

	mutex_lock(&namespace_mutex);
	d = walk_locked(path, false, NULL, NULL, &err);
	if (d && !d->inode)
		err = -ENOENT;
	else if (d && !d->inode->is_dir)
		err = -ENOTDIR;
	else if (d)
		err = ramfs_list(d->inode, fn, arg);
	mutex_unlock(&namespace_mutex);
	return err;
}
