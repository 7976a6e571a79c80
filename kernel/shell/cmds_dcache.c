/*
 * The shell's dcache: look at the dentry cache and change the tree under
 * it, with the same calls the self-tests and benchmarks use. Lookups go
 * through the lock-free walk, so `dcache stats` afterwards shows them as
 * hits, misses or negative hits of this CPU.
 */
#include "shell.h"
#include "kernel/errno.h"
#include "kernel/fs/dcache.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/test/dcache_tree.h"
#include "kernel/time.h"
#include "lib/string.h"

/* Files of `dcache populate`: their own seed, so they do not collide
 * with the self-tests' tree (seed 7) or the benchmarks' (seed 11). */
#define SHELL_TREE_SEED		3u
#define POPULATE_MAX		1000000u
#define POPULATE_CHUNK		256u
#define PROGRESS_NS		NSEC_PER_SEC

/* How many files earlier populates made: the next one adds after them. */
static unsigned int shell_tree_files;

/* One line for a failed call: "dcache mkdir: already exists: /a". */
static void report_error(const char *sub, int err, const char *path)
{
	console_printf("dcache %s: %s: %s\n", sub, errno_name(err), path);
}

/* Paths are absolute; say so here rather than let "invalid argument"
 * leave the user guessing. */
static bool check_path(const char *sub, const char *path)
{
	if (path[0] == '/')
		return true;
	console_printf("dcache %s: bad path '%s': expected an absolute path "
		       "such as /d1/d2\n", sub, path);
	return false;
}

static void print_stats(void)
{
	struct dcache_stats s;
	unsigned int cpu;

	dcache_get_stats(&s);
	console_printf("entries %llu of at most %llu (%llu negative), %llu "
		       "buckets, %llu evicted\n", s.entries, s.max_entries,
		       s.negative_entries, s.buckets, s.evictions);
	console_printf("cpu        hits  negative hits      misses   "
		       "fallbacks\n");
	for_each_online_cpu(cpu) {
		struct dcache_cpu_stats c;

		dcache_get_cpu_stats(cpu, &c);
		console_printf("%3u  %10llu  %13llu  %10llu  %10llu\n", cpu,
			       c.hits, c.negative_hits, c.misses, c.fallbacks);
	}
	console_printf("all  %10llu  %13llu  %10llu  %10llu\n", s.hits,
		       s.negative_hits, s.misses, s.fallbacks);
	if (s.freed_seen)
		console_printf("walks that reached a freed entry: %llu\n",
			       s.freed_seen);
}

static void print_name(const char *name, size_t len, bool is_dir, void *arg)
{
	unsigned int *count = arg;

	console_printf("  %.*s%s\n", (int)len, name, is_dir ? "/" : "");
	(*count)++;
}

static void list_dir(const char *path)
{
	unsigned int count = 0;
	int err = dcache_list(path, print_name, &count);

	if (err < 0)
		report_error("ls", err, path);
	else
		console_printf("%u entries\n", count);
}

static void lookup(const char *path)
{
	struct dcache_result r = dcache_walk(path, DCACHE_RCU);

	if (r.err < 0)
		report_error("lookup", r.err, path);
	else
		console_printf("%s: inode %llu, %s\n", path, r.ino,
			       r.is_dir ? "directory" : "file");
}

/* rm takes a file or an empty directory, as rm -d does. */
static void remove_entry(const char *path)
{
	int err = dcache_remove(path, false);

	if (err == -EISDIR)
		err = dcache_remove(path, true);
	if (err < 0)
		report_error("rm", err, path);
}

/* Files are made in chunks, so that Ctrl-C and a progress line every
 * second come between them. */
static void populate(unsigned int n)
{
	u64 start = clock_ns(), shown = start;
	unsigned int done = 0;
	int err = 0;

	while (done < n && !shell_interrupted()) {
		unsigned int chunk = MIN(POPULATE_CHUNK, n - done);

		err = dcache_tree_populate(shell_tree_files, chunk,
					   SHELL_TREE_SEED);
		if (err < 0)
			break;
		shell_tree_files += chunk;
		done += chunk;
		if (clock_ns() - shown >= PROGRESS_NS) {
			shown = clock_ns();
			console_printf("# populate: %u of %u files (Ctrl-C "
				       "stops)\n", done, n);
		}
	}
	if (err < 0)
		console_printf("dcache populate: %s after %u of %u files\n",
			       errno_name(err), done, n);
	else
		console_printf("populate: %u files in %llu ms%s; %u made by "
			       "the shell in all, under /d0 .. /d%u\n", done,
			       (clock_ns() - start) / NSEC_PER_MSEC,
			       done < n ? " (stopped by Ctrl-C)" : "",
			       shell_tree_files, DCACHE_TREE_FANOUT - 1);
}

struct dcache_subcommand {
	const char *name;
	int args;		/* exactly this many after the name; -1: 0 or 1 */
	int paths;		/* how many of them are paths */
	const char *usage;
};

static const struct dcache_subcommand subcommands[] = {
	{ "stats", 0, 0, "dcache stats" },
	{ "ls", -1, 1, "dcache ls [PATH]" },
	{ "lookup", 1, 1, "dcache lookup PATH" },
	{ "mkdir", 1, 1, "dcache mkdir PATH" },
	{ "touch", 1, 1, "dcache touch PATH" },
	{ "rm", 1, 1, "dcache rm PATH" },
	{ "mv", 2, 2, "dcache mv FROM TO" },
	{ "populate", 1, 0, "dcache populate N" },
	{ "shrink", -1, 0, "dcache shrink [N]" },
};

/* The subcommand argv[1] names, its argument count checked; NULL after
 * one line saying what was wrong. */
static const struct dcache_subcommand *find_subcommand(int argc, char **argv)
{
	unsigned int i;
	int given = argc - 2, p;

	if (argc < 2)		/* the first one help lists: stats */
		return &subcommands[0];
	for (i = 0; i < ARRAY_SIZE(subcommands); i++) {
		const struct dcache_subcommand *s = &subcommands[i];

		if (strcmp(s->name, argv[1]))
			continue;
		if (s->args >= 0 ? given != s->args : given > 1) {
			console_printf("dcache %s: wrong number of arguments "
				       "(usage: %s)\n", s->name, s->usage);
			return NULL;
		}
		for (p = 0; p < s->paths && p < given; p++)
			if (!check_path(s->name, argv[2 + p]))
				return NULL;
		return s;
	}
	console_printf("dcache: unknown subcommand '%s' (try 'help dcache')\n",
		       argv[1]);
	return NULL;
}

static void cmd_dcache(int argc, char **argv)
{
	const struct dcache_subcommand *s = find_subcommand(argc, argv);
	u64 n = ~0u;
	int err = 0;

	if (!s)
		return;
	if (!strcmp(s->name, "stats")) {
		print_stats();
	} else if (!strcmp(s->name, "ls")) {
		list_dir(argc > 2 ? argv[2] : "/");
	} else if (!strcmp(s->name, "lookup")) {
		lookup(argv[2]);
	} else if (!strcmp(s->name, "mkdir") || !strcmp(s->name, "touch")) {
		err = dcache_create(argv[2], !strcmp(s->name, "mkdir"));
	} else if (!strcmp(s->name, "rm")) {
		remove_entry(argv[2]);
	} else if (!strcmp(s->name, "mv")) {
		err = dcache_rename(argv[2], argv[3]);
		if (err < 0)
			console_printf("dcache mv: %s: %s -> %s\n",
				       errno_name(err), argv[2], argv[3]);
		return;
	} else if (!strcmp(s->name, "populate")) {
		if (shell_parse_number("dcache populate", argv[2], "N", 1,
				       POPULATE_MAX, &n))
			populate((unsigned int)n);
	} else if (argc == 2 || shell_parse_number("dcache shrink", argv[2],
						   "N", 1, ~0u, &n)) {
		console_printf("shrink: %u entries evicted\n",
			       dcache_shrink((unsigned int)n));
	}
	if (err < 0)
		report_error(s->name, err, argv[2]);
}
SHELL_COMMAND("dcache", "dcache [SUBCOMMAND [ARGS]]",
	      "the dentry cache: statistics, lookups, changes, eviction\n"
	      "  stats           entries, evictions; hits, misses and "
	      "fallbacks per CPU (the default)\n"
	      "  ls [PATH]       a directory's names, / by default (from the "
	      "backing store)\n"
	      "  lookup PATH     walk PATH lock-free; its inode or the error\n"
	      "  mkdir PATH      make a directory\n"
	      "  touch PATH      make a file\n"
	      "  rm PATH         remove a file or an empty directory\n"
	      "  mv FROM TO      rename, within or across directories\n"
	      "  populate N      add N files under /d0 .. /d15 (Ctrl-C stops)\n"
	      "  shrink [N]      evict up to N unused entries (default: all)",
	      cmd_dcache);
