/* Copying the multiboot2 boot information into struct boot_info. */
#ifndef ARCH_MULTIBOOT2_H
#define ARCH_MULTIBOOT2_H

#include "lib/types.h"

void multiboot2_parse(u32 magic, const void *info);

#endif
