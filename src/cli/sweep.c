#include "cli/sweep.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next word of -L NAME VALUES or -P NAME MIN MAX. */
static const char *next_word(struct opt_iter *it, const char *what)
{
	if (it->i >= it->argc)
		nm_usage_fail("%s: expected %s", it->name, what);
	return it->argv[it->i++];
}

/* The command's hook: a name outside its list is refused, naming the list. */
static void check_name(const struct cli_sweep *sw, const struct opt_iter *it, const char *name)
{
	struct strbuf sb;
	for (unsigned i = 0; sw->names[i]; i++)
		if (strcmp(name, sw->names[i]) == 0)
			return;
	sb_init(&sb);
	for (unsigned i = 0; sw->names[i]; i++) {
		if (i)
			sb_add(&sb, ", ", 2);
		sb_add(&sb, sw->names[i], strlen(sw->names[i]));
	}
	nm_usage_fail("%s: %s is no option a sweep can vary (%s)", it->name, name, sb.len ? sb.buf : "");
}

/* -L NAME a,b,c (hyperfine's spelling) or -L NAME=a,b,c. */
void cli_sweep_take_list(struct opt_iter *it, void *sweep)
{
	struct cli_sweep *sw = sweep;
	char spec[1024], err[256];
	if (strchr(it->arg, '='))
		snprintf(spec, sizeof spec, "%s", it->arg);
	else
		snprintf(spec, sizeof spec, "%s=%s", it->arg, next_word(it, "NAME and comma-separated VALUES"));
	if (sw->reparsing)
		return;
	spec[strcspn(spec, "=")] = 0;
	check_name(sw, it, spec);
	spec[strlen(spec)] = '=';
	if (params_add_list(&sw->params, spec, err, sizeof err) < 0)
		opt_bad_value(it, err);
}

/* -P NAME MIN MAX (the step: -D); one, as hyperfine. */
void cli_sweep_take_scan(struct opt_iter *it, void *sweep)
{
	struct cli_sweep *sw = sweep;
	const char *name = it->arg, *lo = next_word(it, "NAME MIN MAX"), *hi = next_word(it, "NAME MIN MAX");
	if (sw->reparsing)
		return;
	if (sw->scan_name)
		nm_usage_fail("%s: one NAME MIN MAX scan (more values: -L NAME a,b,c)", it->name);
	check_name(sw, it, name);
	sw->scan_name = name;
	sw->scan_lo = lo;
	sw->scan_hi = hi;
}

void cli_sweep_finish(struct cli_sweep *sw)
{
	if (sw->scan_step && !sw->scan_name)
		nm_usage_fail("-D/--parameter-step-size: it is the step of -P NAME MIN MAX");
	if (sw->scan_name) {
		char spec[512], err[256];
		snprintf(spec, sizeof spec, "%s=%s:%s%s%s", sw->scan_name, sw->scan_lo, sw->scan_hi,
			 sw->scan_step ? ":" : "", sw->scan_step ? sw->scan_step : "");
		if (params_add_scan(&sw->params, spec, err, sizeof err) < 0)
			nm_usage_fail("-P: %s", err);
	}
}

static char *default_word(const char *name, const char *value)
{
	char *w;
	if (asprintf(&w, "--%s=%s", name, value) < 0)
		nm_usage_fail("out of memory");
	return w;
}

size_t cli_sweep_settings(struct cli_sweep *sw, int argc, char **argv,
			  void (*each)(void *ctx, size_t c, int argc, char **argv, json_t *settings), void *ctx)
{
	const struct params *pp = &sw->params;
	size_t ncomb = params_combinations(pp);
	char *(*word)(const char *, const char *) = sw->word ? sw->word : default_word;
	char **words = calloc((size_t)argc + pp->naxes + 1, sizeof *words);
	char **added = realloc(sw->added, (sw->nadded + ncomb * pp->naxes + 1) * sizeof *added);
	if (!words || !added)
		nm_usage_fail("out of memory");
	sw->added = added;
	sw->reparsing = 1;
	for (size_t c = 0; c < ncomb; c++) {
		int n = 0;
		for (int i = 0; i < argc; i++)
			words[n++] = argv[i];
		json_t *set = json_object();
		for (size_t x = 0; x < pp->naxes; x++) {
			const char *value = params_value(pp, c, x);
			char *w = word(pp->axes[x].name, value);
			sw->added[sw->nadded++] = w;
			words[n++] = w;
			json_object_set_new(set, pp->axes[x].name, json_string(value));
		}
		words[n] = NULL;
		each(ctx, c, n, words, set);
		json_decref(set);
	}
	sw->reparsing = 0;
	free(words);
	return ncomb;
}

unsigned cli_sweep_reference(const char *spec, json_t *const *settings, unsigned n, const char *or_else)
{
	for (unsigned a = 0; a < n; a++) {
		char *copy = strdup(spec), *save = NULL;
		int all = copy != NULL;
		for (char *kv = copy ? strtok_r(copy, ",", &save) : NULL; kv && all; kv = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(kv, '=');
			if (!eq)
				nm_usage_fail("--reference: \"%s\": expected NAME=VALUE[,NAME=VALUE]%s", spec,
					      or_else ? or_else : "");
			*eq = 0;
			json_t *v = json_object_get(settings[a], kv);
			all = v && strcmp(json_string_value(v), eq + 1) == 0;
		}
		free(copy);
		if (all)
			return a;
	}
	nm_usage_fail("--reference: %s is none of the sweep's settings", spec);
}

void cli_sweep_free(struct cli_sweep *sw)
{
	for (size_t i = 0; i < sw->nadded; i++)
		free(sw->added[i]);
	free(sw->added);
	sw->added = NULL;
	sw->nadded = 0;
	params_free(&sw->params);
}
