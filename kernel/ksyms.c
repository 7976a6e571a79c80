/*
 * Symbol lookup over the table the build links into the image. The build
 * links the kernel once with an empty table, lists its text symbols with
 * nm, and links again with that list (build/ksyms.S): the table sits after
 * the text, so adding it moves no function.
 */
#include "ksyms.h"
#include "lib/format.h"
#include "lib/string.h"

/* Sorted by address; names are NUL-separated in ksym_names. */
extern const u64 ksym_addresses[];
extern const u32 ksym_name_offsets[];
extern const char ksym_names[];
extern const u64 ksym_count;
extern const char __text_start[], __text_end[];

const char *ksym_lookup(uptr addr, uptr *offset, uptr *size)
{
	u64 lo = 0, hi = ksym_count;

	/* Only kernel text: a smashed stack's 0x4141... must not resolve
	 * to the last low (boot) symbol below it. */
	if (ksym_count == 0 || addr < (uptr)__text_start ||
	    addr < ksym_addresses[0] || addr >= (uptr)__text_end)
		return NULL;
	/* Find the last symbol at or below addr. */
	while (hi - lo > 1) {
		u64 mid = lo + (hi - lo) / 2;

		if (ksym_addresses[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - ksym_addresses[lo];
	*size = (lo + 1 < ksym_count ? ksym_addresses[lo + 1]
				     : (uptr)__text_end) - ksym_addresses[lo];
	return &ksym_names[ksym_name_offsets[lo]];
}

uptr ksym_address(const char *name)
{
	u64 i;

	for (i = 0; i < ksym_count; i++)
		if (strcmp(&ksym_names[ksym_name_offsets[i]], name) == 0)
			return ksym_addresses[i];
	return 0;
}

const char *ksym_format(char *buf, size_t len, uptr addr)
{
	uptr off = 0, size = 0;
	const char *sym = ksym_lookup(addr, &off, &size);

	ksnprintf(buf, len, "%s+%#lx", sym ? sym : "?", off);
	return buf;
}
