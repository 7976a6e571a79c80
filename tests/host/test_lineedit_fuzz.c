/*
 * The line editor against random bytes, escape storms and overlong
 * lines: nothing may overflow (the host build runs under ASan), and the
 * model terminal of lineedit_term.h must agree with the editor throughout.
 */
#include "check.h"
#include <stdlib.h>
#include "lineedit_term.h"
#include "lib/random.h"

/* Bytes as a terminal would never send them, weighted towards what
 * parsers get wrong: escapes, digits, controls, long printable runs. */
static unsigned char random_byte(struct prng *rng)
{
	static const char interesting[] = "\x1b[O~;0123456789ABCDFH\r\n\t"
					  "\x03\x15\x7f\b\x01\x05\x0b\x0c";

	switch (prng_below(rng, 4)) {
	case 0:
		return (unsigned char)prng_below(rng, 256);
	case 1:
		return (unsigned char)interesting[prng_below(rng,
					sizeof(interesting) - 1)];
	default:
		return (unsigned char)(0x20 + prng_below(rng, 0x5f));
	}
}

static void test_fuzz(void)
{
	struct prng rng;
	unsigned long i, checked = 0, failures = 0, lines = 0, refused = 0;

	prng_seed(&rng, 2024);
	start();
	for (i = 0; i < 2000000; i++) {
		unsigned char b = random_byte(&rng);
		const char *line;
		bool was_overlong;

		/* Now and then an overlong printable run. */
		if (prng_below(&rng, 100000) == 0) {
			unsigned int n = 250 + (unsigned int)prng_below(&rng, 300);

			while (n--)
				lineedit_feed(&ed, 'z');
			refused += ed.overlong;
		}
		was_overlong = ed.overlong;
		line = lineedit_feed(&ed, b);
		refused += ed.overlong && !was_overlong;
		if (line) {
			lines++;
			size_t k, len = strlen(line);

			for (k = 0; k < len; k++)
				failures += line[k] < 0x20 || line[k] > 0x7e;
			failures += len > LINEEDIT_MAX;
			if (prng_below(&rng, 2))
				term_write(NULL, "output\n", 7);
			lineedit_prompt(&ed);
		}
		failures += !line_is_sane(&ed) || term.bad;
		if (!ed.overlong) {
			failures += !row_matches(&ed);
			checked++;
		}
		if (failures) {
			printf("fuzz: broke at byte %lu (0x%02x): line '%s' "
			       "cursor %zu, row '%.*s' col %zu%s\n", i, b,
			       ed.line, ed.cursor, (int)term.width, term.row,
			       term.col, term.bad ? ", unknown output" : "");
			break;
		}
		term_clear_raw();
	}
	CHECK_EQ_U64(failures, 0);
	CHECK(checked > 1000000);
	CHECK(lines > 10000);
	CHECK(refused > 10);
}

int main(void)
{
	test_fuzz();
	return check_summary();
}
