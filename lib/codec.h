/*
 * Binary data as console text: CRC-32 to detect damage and base64 to
 * carry bytes through a serial line. The kernel's event trace (kernel/
 * trace/) frames its dump with them, and tests/trace/decode undoes them.
 */
#ifndef LIB_CODEC_H
#define LIB_CODEC_H

#include "types.h"

/* CRC-32 as zlib, Ethernet and Python's zlib.crc32() compute it
 * (reflected, polynomial 0xEDB88320, initial and final xor ~0). Feed
 * data in pieces by passing the last result as crc; start from 0. */
u32 crc32_update(u32 crc, const void *data, size_t len);

/* The base64 length of len bytes, padding included (no terminator). */
static inline size_t base64_len(size_t len)
{
	return (len + 2) / 3 * 4;
}

/* Encode len bytes into out (base64_len(len) + 1 bytes: it is
 * '\0'-terminated) with RFC 4648's alphabet and '=' padding. Returns
 * the length written before the terminator. */
size_t base64_encode(const void *data, size_t len, char *out);

#endif
