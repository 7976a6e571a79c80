/*
 * lib/codec.h: CRC-32 and base64 against published vectors (RFC 4648's
 * for base64, the "123456789" check value for CRC-32), and CRC fed in
 * pieces equal to CRC fed whole, as the trace dump feeds it.
 */
#include "check.h"
#include "lib/codec.h"

static void test_crc32_vectors(void)
{
	CHECK_EQ_U64(crc32_update(0, "", 0), 0);
	CHECK_EQ_U64(crc32_update(0, "123456789", 9), 0xcbf43926u);
	CHECK_EQ_U64(crc32_update(0, "a", 1), 0xe8b7be43u);
}

static void test_crc32_in_pieces(void)
{
	static const char text[] = "The quick brown fox jumps over the lazy dog";
	u32 whole = crc32_update(0, text, sizeof(text) - 1);
	u32 pieces = crc32_update(0, text, 10);

	pieces = crc32_update(pieces, text + 10, sizeof(text) - 1 - 10);
	CHECK_EQ_U64(whole, 0x414fa339u);
	CHECK_EQ_U64(pieces, whole);
}

static void test_base64_vectors(void)
{
	static const char *const in[] = { "", "f", "fo", "foo", "foob",
					  "fooba", "foobar" };
	static const char *const want[] = { "", "Zg==", "Zm8=", "Zm9v",
					    "Zm9vYg==", "Zm9vYmE=",
					    "Zm9vYmFy" };
	char out[16];
	unsigned int i;

	for (i = 0; i < 7; i++) {
		size_t n = base64_encode(in[i], strlen(in[i]), out);

		CHECK_EQ_U64(n, base64_len(strlen(in[i])));
		CHECK(strcmp(out, want[i]) == 0);
	}
}

/* Every byte value survives: high bits are not sign-extended. */
static void test_base64_high_bytes(void)
{
	static const u8 in[3] = { 0xff, 0x80, 0x01 };
	char out[8];

	base64_encode(in, 3, out);
	CHECK(strcmp(out, "/4AB") == 0);
}

int main(void)
{
	test_crc32_vectors();
	test_crc32_in_pieces();
	test_base64_vectors();
	test_base64_high_bytes();
	return check_summary();
}
