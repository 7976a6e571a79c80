/*
 * A populated tree for tests, benchmarks and the shell: n files spread
 * pseudo-randomly over 256 directories two levels down, so that a file's
 * path is computed from its index (no table of paths to keep):
 * file i is /dA/dB/fi with A, B taken from a hash of i and the seed.
 */
#include "dcache_tree.h"
#include "kernel/errno.h"
#include "lib/format.h"
#include "lib/hash.h"

static u32 place(unsigned int i, u32 seed)
{
	u32 key = i ^ seed;

	return hash_mix_ptr(hash_name((const char *)&key, sizeof(key)),
			    (const void *)(uptr)seed);
}

void dcache_tree_file_path(unsigned int i, u32 seed, char *buf, size_t size)
{
	u32 h = place(i, seed);

	ksnprintf(buf, size, "/d%u/d%u/f%u", h % DCACHE_TREE_FANOUT,
		  (h / DCACHE_TREE_FANOUT) % DCACHE_TREE_FANOUT, i);
}

/* Ignore "already exists", so populating twice grows the tree. */
static int create_or_keep(const char *path, bool is_dir)
{
	int err = dcache_create(path, is_dir);

	return err == -EEXIST ? 0 : err;
}

int dcache_tree_populate(unsigned int first, unsigned int n, u32 seed)
{
	char path[64];
	unsigned int a, b, i;
	int err;

	for (a = 0; a < DCACHE_TREE_FANOUT; a++) {
		ksnprintf(path, sizeof(path), "/d%u", a);
		if ((err = create_or_keep(path, true)))
			return err;
		for (b = 0; b < DCACHE_TREE_FANOUT; b++) {
			ksnprintf(path, sizeof(path), "/d%u/d%u", a, b);
			if ((err = create_or_keep(path, true)))
				return err;
		}
	}
	for (i = first; i < first + n; i++) {
		dcache_tree_file_path(i, seed, path, sizeof(path));
		if ((err = create_or_keep(path, false)))
			return err;
	}
	return 0;
}
