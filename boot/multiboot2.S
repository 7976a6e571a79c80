/*
 * The multiboot2 header GRUB looks for in the first 32 KiB of the image.
 * It asks for nothing special: GRUB hands us the memory map, the command
 * line and the ACPI RSDP unasked, and the ELF headers say where to load.
 */
#define MB2_MAGIC	0xe85250d6
#define MB2_ARCH_I386	0

	.section .multiboot2, "a"
	.align 8
mb2_header_start:
	.long MB2_MAGIC
	.long MB2_ARCH_I386
	.long mb2_header_end - mb2_header_start
	.long -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header_start))

	/* End tag: type 0, flags 0, size 8. */
	.align 8
	.short 0
	.short 0
	.long 8
mb2_header_end:
