/*
 * ramfs: the backing store under the dcache, an in-memory tree of
 * directories and files with inode numbers. Its lookup is a linear scan
 * of a directory's entries: deliberately slow, the cost the dcache hides.
 *
 * Callers serialize every call (the dcache holds its namespace mutex).
 * Inodes are freed after a grace period, because lock-free dcache walkers
 * may still read one (its number and type, which never change) after the
 * entry naming it is gone.
 */
#ifndef KERNEL_RAMFS_H
#define KERNEL_RAMFS_H

#include "kernel/rcu/rcupdate.h"
#include "lib/list.h"
#include "lib/types.h"

#define RAMFS_NAME_MAX	255

struct ramfs_inode {
	u64 ino;
	bool is_dir;
	struct ramfs_inode *parent;	/* directories only: for rename loops */
	struct list_head entries;	/* struct ramfs_dirent, directories */
	unsigned int nr_entries;
	struct rcu_head rcu;
};

void ramfs_init(void);
struct ramfs_inode *ramfs_root(void);
struct ramfs_inode *ramfs_lookup(struct ramfs_inode *dir, const char *name,
				 size_t len);
/* Each returns 0 or a negated errno (kernel/errno.h). */
int ramfs_create(struct ramfs_inode *dir, const char *name, size_t len,
		 bool is_dir, struct ramfs_inode **out);
/* remove and rename hand back in *unlinked the inode they take out of
 * the tree (the one removed, or the one a rename replaced), or NULL: the
 * caller unhashes every entry that leads to it, then ramfs_release()s
 * it. */
int ramfs_remove(struct ramfs_inode *dir, const char *name, size_t len,
		 bool is_dir, struct ramfs_inode **unlinked);
int ramfs_rename(struct ramfs_inode *from_dir, const char *from, size_t from_len,
		 struct ramfs_inode *to_dir, const char *to, size_t to_len,
		 struct ramfs_inode **unlinked);
void ramfs_release(struct ramfs_inode *inode);
/* Call fn for each entry of dir, in creation order. */
int ramfs_list(struct ramfs_inode *dir,
	       void (*fn)(const char *name, size_t len, bool is_dir, void *arg),
	       void *arg);
u64 ramfs_nr_inodes(void);
/* Inode numbers handed out so far: every ino seen is below this. */
u64 ramfs_next_ino(void);

#endif
