/* The shell's mem: the page allocator and kmalloc's size classes. */
#include "shell.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"

#define PAGES_PER_MIB	(1024 * 1024 / PAGE_SIZE)

static void print_pages(void)
{
	struct page_alloc_stats s;
	unsigned int order;

	page_alloc_get_stats(&s);
	console_printf("pages: %llu total, %llu free, %llu in use "
		       "(%llu of %llu MiB free), RAM up to %#llx\n",
		       s.total_pages, s.free_pages,
		       s.total_pages - s.free_pages,
		       s.free_pages / PAGES_PER_MIB,
		       s.total_pages / PAGES_PER_MIB, s.highest_phys);
	console_printf("free blocks by order:");
	for (order = 0; order <= PAGE_MAX_ORDER; order++)
		console_printf(" %u:%llu", order, s.free_blocks[order]);
	console_printf("\n");
}

static void print_kmalloc(void)
{
	struct kmalloc_class_stats c[KMALLOC_NR_CLASSES];
	unsigned int i;

	kmalloc_get_stats(c);
	console_printf("kmalloc  class  slabs    in use      allocs       "
		       "frees\n");
	for (i = 0; i < KMALLOC_NR_CLASSES; i++)
		console_printf("         %5u  %5llu  %8llu  %10llu  %10llu\n",
			       c[i].size, c[i].slabs, c[i].objects_in_use,
			       c[i].allocs, c[i].frees);
}

static void cmd_mem(int argc, char **argv)
{
	if (!shell_max_args(argc, argv, 0))
		return;
	print_pages();
	print_kmalloc();
}
SHELL_COMMAND("mem", "mem",
	      "pages total and free, kmalloc's size classes", cmd_mem);
