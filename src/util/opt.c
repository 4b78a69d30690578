#include "util/opt.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void opt_init(struct opt_iter *it, int argc, char **argv)
{
	memset(it, 0, sizeof *it);
	it->argc = argc;
	it->argv = argv;
	it->i = 1; /* argv[0] is the command's own name */
}

int opt_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	int d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

int opt_is_option_word(const char *w)
{
	return w[0] == '-' && w[1] == '-' && (w[2] == '\0' || isalpha((unsigned char)w[2]));
}

/* The separate word after an option that takes a value: missing, or another option. */
static const char *separate_value(struct opt_iter *it, const char *typed)
{
	if (it->i >= it->argc)
		nm_usage_fail("option '%s' needs a value", typed);
	const char *v = it->argv[it->i];
	if (opt_is_option_word(v))
		nm_usage_fail("option '%s' needs a value, not the option '%.64s' (a value that starts with "
			      "-- is given as %s%s--...)", typed, v, typed, typed[1] == '-' ? "=" : "");
	it->i++;
	return v;
}

static __attribute__((noreturn)) void unknown_option(const char *typed, const char *name,
						     const struct opt_spec *specs)
{
	const char *best = NULL;
	int bestd = 3;
	for (const struct opt_spec *s = specs; s->name; s++) {
		int d = opt_edit_distance(name, s->name);
		if (d < bestd && strlen(s->name) > 1) {
			bestd = d;
			best = s->name;
		}
	}
	if (best)
		nm_usage_fail("unknown option '%s' (did you mean '--%s'?)", typed, best);
	nm_usage_fail("unknown option '%s' (see --help)", typed);
}

int opt_next(struct opt_iter *it, const struct opt_spec *specs)
{
	it->arg = NULL;
	it->name = NULL;
	if (it->i >= it->argc)
		return OPT_END;
	char *w = it->argv[it->i++];
	if (it->after_dashdash || w[0] != '-' || w[1] == '\0') {
		it->arg = w;
		return OPT_POSITIONAL;
	}
	if (strcmp(w, "--") == 0) {
		it->after_dashdash = 1;
		return OPT_DASHDASH;
	}
	if (strcmp(w, "--help") == 0 || strcmp(w, "-h") == 0)
		return OPT_HELP;

	if (w[1] == '-') {
		const char *name = w + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		snprintf(it->namebuf, sizeof it->namebuf, "--%.*s", (int)(len < 64 ? len : 64), name);
		it->name = it->namebuf;
		for (const struct opt_spec *s = specs; s->name; s++) {
			if (strlen(s->name) != len || strncmp(s->name, name, len) != 0)
				continue;
			if (s->has_arg == OPT_NOARG) {
				if (eq)
					nm_usage_fail("option '--%s' takes no value", s->name);
			} else if (eq) {
				it->arg = eq + 1;
			} else if (s->has_arg == OPT_ARG) {
				it->arg = separate_value(it, it->namebuf);
			}
			return s->id;
		}
		char namebuf[65];
		snprintf(namebuf, sizeof namebuf, "%.*s", (int)(len < 64 ? len : 64), name);
		char typed[80];
		snprintf(typed, sizeof typed, "--%s", namebuf);
		unknown_option(typed, namebuf, specs);
	}
	/* a short option: -x, -xVALUE, -x VALUE */
	snprintf(it->namebuf, sizeof it->namebuf, "-%c", w[1]);
	it->name = it->namebuf;
	for (const struct opt_spec *s = specs; s->name; s++) {
		if (strlen(s->name) != 1 || s->name[0] != w[1])
			continue;
		if (s->has_arg == OPT_NOARG) {
			if (w[2])
				nm_usage_fail("option '-%c' takes no value", w[1]);
		} else if (w[2]) {
			it->arg = w + 2;
		} else if (s->has_arg == OPT_ARG) {
			it->arg = separate_value(it, it->namebuf);
		}
		return s->id;
	}
	char typed[4] = { '-', w[1], 0, 0 };
	unknown_option(typed, typed + 1, specs);
}

void opt_bad_value(const struct opt_iter *it, const char *msg)
{
	nm_usage_fail("%s: %s", it->name ? it->name : "argument", msg);
}

uint64_t opt_size(const struct opt_iter *it)
{
	uint64_t v;
	char err[256];
	if (parse_size(it->arg, &v, err, sizeof err) < 0)
		opt_bad_value(it, err);
	return v;
}

uint64_t opt_duration(const struct opt_iter *it)
{
	uint64_t v;
	char err[256];
	if (parse_duration(it->arg, 1000000000ull, &v, err, sizeof err) < 0)
		opt_bad_value(it, err);
	return v;
}

const char *opt_output_file(const struct opt_iter *it)
{
	char err[512];
	if (afile_check(it->arg, err, sizeof err) < 0)
		opt_bad_value(it, err);
	return it->arg;
}

uint64_t opt_count(const struct opt_iter *it, uint64_t min, uint64_t max)
{
	uint64_t v;
	char err[256];
	if (parse_count(it->arg, min, max, &v, err, sizeof err) < 0)
		opt_bad_value(it, err);
	return v;
}

char **opt_list(const struct opt_iter *it, int max, const char *items, int *n)
{
	char err[256], **v;
	*n = split_list(it->arg, ',', &v, err, sizeof err);
	if (*n < 0)
		opt_bad_value(it, err);
	if (*n > max) {
		free_strv(v);
		snprintf(err, sizeof err, "at most %d %s", max, items);
		opt_bad_value(it, err);
	}
	return v;
}
