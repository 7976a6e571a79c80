/*
 * The command-line parser. Bad input never stops the boot: an unknown key,
 * a word without '=' or a value out of range prints one line saying what
 * was wrong and what was expected, and the option keeps its default.
 */
#include "cmdline.h"
#include "init.h"
#include "printk.h"
#include "lib/parse.h"
#include "lib/string.h"

#define CMDLINE_MAX	1024

extern const struct cmdline_option __start_cmdline_options[];
extern const struct cmdline_option __stop_cmdline_options[];

static char raw[CMDLINE_MAX];
static char scratch[CMDLINE_MAX];

static const struct cmdline_option *find_option(const char *key)
{
	const struct cmdline_option *o;

	for (o = __start_cmdline_options; o < __stop_cmdline_options; o++)
		if (strcmp(o->key, key) == 0)
			return o;
	return NULL;
}

static void store_uint(const struct cmdline_option *o, u64 v)
{
	if (o->size == sizeof(u64))
		*(u64 *)o->var = v;
	else
		*(unsigned int *)o->var = (unsigned int)v;
}

static u64 load_uint(const struct cmdline_option *o)
{
	if (o->size == sizeof(u64))
		return *(u64 *)o->var;
	return *(unsigned int *)o->var;
}

/* Apply one key=value; return false (after saying why) if refused. */
static bool apply_option(const struct cmdline_option *o, const char *key,
			 const char *value)
{
	u64 v;
	bool b;

	switch (o->type) {
	case CMDLINE_TYPE_UINT:
		if (parse_u64(value, &v) == 0 && v >= o->min && v <= o->max) {
			store_uint(o, v);
			return true;
		}
		pr_err("cmdline: %s=%s: expected an integer from %llu to %llu "
		       "(%s); keeping %llu\n", key, value,
		       (unsigned long long)o->min, (unsigned long long)o->max,
		       o->help, (unsigned long long)load_uint(o));
		return false;
	case CMDLINE_TYPE_BOOL:
		if (parse_bool(value, &b) == 0) {
			*(bool *)o->var = b;
			return true;
		}
		pr_err("cmdline: %s=%s: expected 0 or 1 (%s); keeping %d\n",
		       key, value, o->help, *(bool *)o->var);
		return false;
	case CMDLINE_TYPE_STRING:
		if (strlen(value) < o->size) {
			strlcpy(o->var, value, o->size);
			return true;
		}
		pr_err("cmdline: %s=%s: value longer than %zu characters (%s);"
		       " keeping '%s'\n", key, value, o->size - 1, o->help,
		       (char *)o->var);
		return false;
	}
	return false;
}

__init void cmdline_parse(const char *cmdline)
{
	char *cursor, *word;

	if (!cmdline)
		cmdline = "";
	if (strlen(cmdline) >= CMDLINE_MAX)
		pr_err("cmdline: longer than %d characters; the rest is "
		       "ignored\n", CMDLINE_MAX - 1);
	strlcpy(raw, cmdline, sizeof(raw));
	strlcpy(scratch, raw, sizeof(scratch));

	cursor = scratch;
	while ((word = next_token(&cursor)) != NULL) {
		char *eq = strchr(word, '=');
		const struct cmdline_option *o;

		if (!eq) {
			pr_err("cmdline: '%s': expected key=value; ignored\n",
			       word);
			continue;
		}
		*eq = '\0';
		o = find_option(word);
		if (!o) {
			pr_err("cmdline: unknown option '%s' (value '%s'); "
			       "ignored\n", word, eq + 1);
			continue;
		}
		apply_option(o, word, eq + 1);
	}
}

const char *cmdline_raw(void)
{
	return raw;
}

void cmdline_print_options(void)
{
	const struct cmdline_option *o;

	for (o = __start_cmdline_options; o < __stop_cmdline_options; o++)
		console_printf("  %-24s %s\n", o->key, o->help);
}
