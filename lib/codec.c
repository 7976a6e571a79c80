/* CRC-32 and base64 (codec.h). Bitwise CRC: a dump is a few hundred KiB
 * once per run, so a table would buy nothing worth its 1 KiB. */
#include "codec.h"

u32 crc32_update(u32 crc, const void *data, size_t len)
{
	const u8 *p = data;
	unsigned int bit;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

static const char base64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t base64_encode(const void *data, size_t len, char *out)
{
	const u8 *p = data;
	size_t i, n = 0;

	for (i = 0; i < len; i += 3) {
		u32 group = (u32)p[i] << 16;

		if (i + 1 < len)
			group |= (u32)p[i + 1] << 8;
		if (i + 2 < len)
			group |= p[i + 2];
		out[n++] = base64_alphabet[(group >> 18) & 63];
		out[n++] = base64_alphabet[(group >> 12) & 63];
		out[n++] = i + 1 < len ? base64_alphabet[(group >> 6) & 63] : '=';
		out[n++] = i + 2 < len ? base64_alphabet[group & 63] : '=';
	}
	out[n] = '\0';
	return n;
}
