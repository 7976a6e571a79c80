/*
 * Fixed-width integer names used throughout the kernel. Only the
 * compiler's own freestanding headers are included, so this builds the
 * same for the kernel and for the host unit tests.
 */
#ifndef LIB_TYPES_H
#define LIB_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
/* As in Linux: 64-bit types are long long, so %llu prints them on every
 * target without casts. */
typedef unsigned long long u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;
typedef uintptr_t uptr;

#define U64_MAX		(~0ull)

#endif
