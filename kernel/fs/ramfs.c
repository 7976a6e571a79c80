/*
 * The in-memory tree behind the dcache. A directory is a list of
 * (name, inode) entries searched front to back.
 */
#include "ramfs.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "lib/string.h"

struct ramfs_dirent {
	struct list_head link;
	struct ramfs_inode *inode;
	u16 len;
	char name[];
};

static struct ramfs_inode *root;
static u64 next_ino = 1;
static u64 nr_inodes;

static struct ramfs_inode *inode_alloc(bool is_dir, struct ramfs_inode *parent)
{
	struct ramfs_inode *inode = kzalloc(sizeof(*inode));

	if (!inode)
		return NULL;
	inode->ino = next_ino;
	WRITE_ONCE(next_ino, next_ino + 1);
	inode->is_dir = is_dir;
	inode->parent = is_dir ? parent : NULL;
	INIT_LIST_HEAD(&inode->entries);
	nr_inodes++;
	return inode;
}

/**
 * ramfs_release - free an inode that remove or rename unlinked
 * @inode: the inode, out of the tree and no longer reachable from the
 *         dcache either
 *
 * Freed after a grace period: a lock-free walk that reached it through
 * an entry before the entry was unhashed may still read it. The grace
 * period must begin only once that entry is gone, or a walk that found
 * the entry in between would not be waited for (KASAN caught one).
 */
void ramfs_release(struct ramfs_inode *inode)
{
	nr_inodes--;
	kfree_rcu(inode, rcu);
}

__init void ramfs_init(void)
{
	root = inode_alloc(true, NULL);
	if (!root)
		panic("ramfs: no memory for the root directory");
	root->parent = root;
}

struct ramfs_inode *ramfs_root(void)
{
	return root;
}

static struct ramfs_dirent *find_entry(struct ramfs_inode *dir,
				       const char *name, size_t len)
{
	struct ramfs_dirent *e;

	list_for_each_entry(e, &dir->entries, link)
		if (e->len == len && !memcmp(e->name, name, len))
			return e;
	return NULL;
}

struct ramfs_inode *ramfs_lookup(struct ramfs_inode *dir, const char *name,
				 size_t len)
{
	struct ramfs_dirent *e = dir->is_dir ? find_entry(dir, name, len) : NULL;

	return e ? e->inode : NULL;
}

static struct ramfs_dirent *dirent_alloc(const char *name, size_t len,
					 struct ramfs_inode *inode)
{
	struct ramfs_dirent *e;

	e = kmalloc(offsetof(struct ramfs_dirent, name) + len);
	if (!e)
		return NULL;
	e->inode = inode;
	e->len = len;
	memcpy(e->name, name, len);
	return e;
}

static void dirent_link(struct ramfs_inode *dir, struct ramfs_dirent *e)
{
	list_add_tail(&e->link, &dir->entries);
	dir->nr_entries++;
}

static void dirent_unlink(struct ramfs_inode *dir, struct ramfs_dirent *e)
{
	list_del(&e->link);
	dir->nr_entries--;
}

static int check_name(struct ramfs_inode *dir, size_t len)
{
	if (!dir->is_dir)
		return -ENOTDIR;
	if (len == 0)
		return -EINVAL;
	if (len > RAMFS_NAME_MAX)
		return -ENAMETOOLONG;
	return 0;
}

int ramfs_create(struct ramfs_inode *dir, const char *name, size_t len,
		 bool is_dir, struct ramfs_inode **out)
{
	struct ramfs_inode *inode;
	struct ramfs_dirent *e;
	int err = check_name(dir, len);

	if (err)
		return err;
	if (find_entry(dir, name, len))
		return -EEXIST;
	inode = inode_alloc(is_dir, dir);
	if (!inode)
		return -ENOMEM;
	e = dirent_alloc(name, len, inode);
	if (!e) {
		nr_inodes--;
		kfree(inode);
		return -ENOMEM;
	}
	dirent_link(dir, e);
	*out = inode;
	return 0;
}

int ramfs_remove(struct ramfs_inode *dir, const char *name, size_t len,
		 bool is_dir, struct ramfs_inode **unlinked)
{
	struct ramfs_dirent *e;
	int err = check_name(dir, len);

	*unlinked = NULL;
	if (err)
		return err;
	e = find_entry(dir, name, len);
	if (!e)
		return -ENOENT;
	if (e->inode->is_dir != is_dir)
		return is_dir ? -ENOTDIR : -EISDIR;
	if (is_dir && e->inode->nr_entries)
		return -ENOTEMPTY;
	dirent_unlink(dir, e);
	*unlinked = e->inode;
	kfree(e);
	return 0;
}

/* Would moving dir under new_parent put it inside itself? */
static bool is_ancestor(struct ramfs_inode *dir, struct ramfs_inode *of)
{
	for (;;) {
		if (of == dir)
			return true;
		if (of == root)
			return false;
		of = of->parent;
	}
}

/* POSIX rename: a file may replace a file, a directory an empty
 * directory; renaming onto itself does nothing. */
int ramfs_rename(struct ramfs_inode *from_dir, const char *from, size_t from_len,
		 struct ramfs_inode *to_dir, const char *to, size_t to_len,
		 struct ramfs_inode **unlinked)
{
	struct ramfs_dirent *src, *dst, *moved;
	int err = check_name(from_dir, from_len);

	*unlinked = NULL;
	if (!err)
		err = check_name(to_dir, to_len);
	if (err)
		return err;
	src = find_entry(from_dir, from, from_len);
	if (!src)
		return -ENOENT;
	dst = find_entry(to_dir, to, to_len);
	if (dst == src)
		return 0;
	if (src->inode->is_dir && is_ancestor(src->inode, to_dir))
		return -EINVAL;
	if (dst) {
		if (dst->inode->is_dir != src->inode->is_dir)
			return dst->inode->is_dir ? -EISDIR : -ENOTDIR;
		if (dst->inode->is_dir && dst->inode->nr_entries)
			return -ENOTEMPTY;
	}
	moved = dirent_alloc(to, to_len, src->inode);
	if (!moved)
		return -ENOMEM;
	if (dst) {
		dirent_unlink(to_dir, dst);
		*unlinked = dst->inode;
		kfree(dst);
	}
	dirent_unlink(from_dir, src);
	kfree(src);
	if (moved->inode->is_dir)
		moved->inode->parent = to_dir;
	dirent_link(to_dir, moved);
	return 0;
}

int ramfs_list(struct ramfs_inode *dir,
	       void (*fn)(const char *name, size_t len, bool is_dir, void *arg),
	       void *arg)
{
	struct ramfs_dirent *e;

	if (!dir->is_dir)
		return -ENOTDIR;
	list_for_each_entry(e, &dir->entries, link)
		fn(e->name, e->len, e->inode->is_dir, arg);
	return 0;
}

u64 ramfs_next_ino(void)
{
	/* Lock-free read by checkers. next_ino moves past an inode before
	 * the dcache publishes it (a release store: hlist_add_head_rcu or
	 * d_set_inode's seq section), and a checker loads the inode before
	 * calling this; so one that saw an inode sees next_ino beyond it. */
	return READ_ONCE(next_ino);
}

u64 ramfs_nr_inodes(void)
{
	return nr_inodes;
}
