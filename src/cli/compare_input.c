#include "cli/compare_input.h"
#include "cli/store_open.h"
#include "compare/keys.h"
#include "results/gobench.h"
#include "results/record_json.h"
#include "results/store.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void add(struct compare_inputs *ci, struct record *r, char *name)
{
	ci->v = realloc(ci->v, (ci->n + 1) * sizeof *ci->v);
	ci->owned = realloc(ci->owned, (ci->nowned + 1) * sizeof *ci->owned);
	ci->owned_names = realloc(ci->owned_names, (ci->nowned + 1) * sizeof *ci->owned_names);
	if (!ci->v || !ci->owned || !ci->owned_names)
		abort();
	ci->owned[ci->nowned] = r;
	ci->owned_names[ci->nowned++] = name;
	ci->v[ci->n++] = (struct ct_input){ r, name };
}

static char *dup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		abort();
	return d;
}

/* A run is shown by its label, or by its id when it has none or the label is not unique. */
static char *run_name(const struct record *r, const char *const *words, size_t nwords)
{
	(void)words;
	(void)nwords;
	return dup(r->label ? r->label : r->id);
}

static int load_file(struct compare_inputs *ci, const char *path)
{
	size_t len;
	char err[512];
	char *text = storecmd_read_file(path, &len);
	if (!text)
		return -1;
	size_t i = 0;
	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	if (i < len && (text[i] == '{' || text[i] == '[')) {
		struct record **v;
		long n = records_parse(text, len, &v, err, sizeof err);
		free(text);
		if (n < 0) {
			nm_error("%s: %s", path, err);
			return -1;
		}
		if (n == 0) {
			nm_error("%s: no records in the file", path);
			free(v);
			return -1;
		}
		for (long k = 0; k < n; k++)
			add(ci, v[k], n == 1 ? dup(path) : run_name(v[k], NULL, 0));
		free(v);
		return 0;
	}
	struct record *r = gobench_parse(text, len, err, sizeof err);
	free(text);
	if (!r) {
		nm_error("%s: %s", path, err);
		return -1;
	}
	add(ci, r, dup(path));
	return 0;
}

/* The runs that match where, oldest first (the first is the base of a comparison). */
static int load_where(struct compare_inputs *ci, struct store **s, const struct store_filter *where,
		      const char *db)
{
	struct run_summary *v;
	size_t n;
	char err[512];
	if (!*s && !(*s = storecmd_open(db)))
		return -1;
	if (store_list(*s, where, &v, &n, err, sizeof err) < 0) {
		nm_error("--where: %s", err);
		return -1;
	}
	int rc = n ? 0 : -1;
	if (n == 0)
		nm_error("--where: no saved run matches");
	for (size_t i = n; rc == 0 && i-- > 0;) {
		struct record *r = storecmd_load(*s, v[i].id);
		if (r)
			add(ci, r, run_name(r, NULL, 0));
		else
			rc = -1;
	}
	run_summaries_free(v, n);
	return rc;
}

/* A bare word that names a file here and a saved run too is refused: neither may silently win.
 * "./NAME" (any word with a '/') is a file; an id is a run.  No store yet: no ambiguity. */
static int ambiguous(struct store **s, const char *word, const char *db)
{
	char path[4096], id[24], err[512];
	struct stat sb;
	if (strchr(word, '/') || strcmp(word, "-") == 0)
		return 0;
	if (!db)
		db = store_default_path(path, sizeof path);
	if (stat(db, &sb) != 0)
		return 0;
	if (!*s && !(*s = storecmd_open(db)))
		return -1;
	if (store_resolve(*s, word, id, err, sizeof err) < 0)
		return 0;
	nm_error("\"%s\" is both a file here and saved run %s: say ./%s for the file, or %s for the run", word, id,
		 word, id);
	return -1;
}

int compare_inputs_load_where(struct compare_inputs *ci, const char *const *words, size_t nwords,
			      const struct store_filter *where, const char *db)
{
	return compare_inputs_load_kinds(ci, words, nwords, where, db, 0);
}

int compare_inputs_load_kinds(struct compare_inputs *ci, const char *const *words, size_t nwords,
			      const struct store_filter *where, const char *db, int mixed_kinds)
{
	struct store *s = NULL;
	struct record **runs = calloc(nwords ? nwords : 1, sizeof *runs);
	const char *kind = NULL, *kind_word = NULL;
	if (!runs)
		abort();
	memset(ci, 0, sizeof *ci);
	/* Named runs first: a bare "last" then means the newest run of their kind, so
	 * `report tr1 last` never pairs a track run with whatever ran last. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < nwords; i++) {
			struct stat sb;
			char k[32];
			long back;
			if (strcmp(words[i], "-") == 0 || stat(words[i], &sb) == 0)
				continue;
			int bare = store_last_parse(words[i], k, &back) == 1 && !*k;
			if (bare != pass)
				continue;
			if (!s && !(s = storecmd_open(db)))
				goto fail;
			char err[512];
			if (!(runs[i] = store_load_kind(s, words[i], pass ? kind : NULL, err, sizeof err))) {
				nm_error("%s", err);
				goto fail;
			}
			const char *c = runs[i]->command ? runs[i]->command : "";
			if (!kind) {
				kind = c;
				kind_word = words[i];
			} else if (strcmp(kind, c) != 0 && !mixed_kinds) {
				nm_error("\"%s\" is a %s run and \"%s\" a %s run: compare runs of one kind (e.g. last:%s)",
					 kind_word, kind, words[i], c, kind);
				goto fail;
			}
		}
	for (size_t i = 0; i < nwords; i++) {
		if (!runs[i]) {
			if (ambiguous(&s, words[i], db) < 0 || load_file(ci, words[i]) < 0)
				goto fail;
			continue;
		}
		add(ci, runs[i], run_name(runs[i], words, nwords));
		runs[i] = NULL;
	}
	if (where && load_where(ci, &s, where, db) < 0)
		goto fail;
	/* Two inputs with one name would pool into one column: tell them apart by id. */
	for (size_t i = 0; i < ci->n; i++)
		for (size_t k = i + 1; k < ci->n; k++)
			if (strcmp(ci->v[i].name, ci->v[k].name) == 0 && strcmp(ci->v[k].r->id, ci->v[k].name) != 0 &&
			    *ci->v[k].r->id) {
				free(ci->owned_names[k]);
				ci->owned_names[k] = dup(ci->v[k].r->id);
				ci->v[k].name = ci->owned_names[k];
			}
	store_close(s);
	free(runs);
	return 0;
fail:
	for (size_t i = 0; i < nwords; i++)
		record_free(runs[i]);
	free(runs);
	store_close(s);
	compare_inputs_free(ci);
	return -1;
}

void compare_inputs_free(struct compare_inputs *ci)
{
	for (size_t i = 0; i < ci->nowned; i++) {
		record_free(ci->owned[i]);
		free(ci->owned_names[i]);
	}
	free(ci->owned);
	free(ci->owned_names);
	free(ci->v);
	memset(ci, 0, sizeof *ci);
}

void compare_filter_add(struct ct_opts *o, struct ct_filter *filters, const struct opt_iter *it)
{
	if (o->nfilters == COMPARE_MAX_FILTERS)
		nm_usage_fail("--filter: at most %d filters", COMPARE_MAX_FILTERS);
	if (key_filter_parse(it->arg, &filters[o->nfilters]) < 0)
		opt_bad_value(it, "expected KEY=GLOB or KEY!=GLOB");
	o->nfilters++;
	o->filters = filters;
}

void compare_filters_free(struct ct_opts *o)
{
	for (size_t i = 0; i < o->nfilters; i++)
		free((char *)o->filters[i].key);
	o->nfilters = 0;
}

void compare_where_add(struct store_filter *where, const struct opt_iter *it)
{
	const char *eq = strchr(it->arg, '=');
	if (!eq || eq == it->arg)
		opt_bad_value(it, "expected KEY=VALUE (host, label, command or a tag)");
	size_t klen = (size_t)(eq - it->arg);
	const char *value = eq + 1;
	if (klen == 4 && strncmp(it->arg, "host", 4) == 0) {
		where->host = value;
	} else if (klen == 5 && strncmp(it->arg, "label", 5) == 0) {
		where->label = value;
	} else if (klen == 7 && strncmp(it->arg, "command", 7) == 0) {
		where->command = value;
	} else {
		size_t max = sizeof where->tag_keys / sizeof where->tag_keys[0];
		if (where->ntags == max)
			nm_usage_fail("--where: at most %zu tags", max);
		/* The key stays in argv: point at a copy cut at the '='. */
		static char keys[16][64];
		if (klen >= sizeof keys[0])
			opt_bad_value(it, "the tag's name is too long");
		memcpy(keys[where->ntags], it->arg, klen);
		keys[where->ntags][klen] = 0;
		where->tag_keys[where->ntags] = keys[where->ntags];
		where->tag_values[where->ntags++] = value;
	}
}

void compare_metric_add(struct ct_opts *o, const char **metrics, const struct opt_iter *it)
{
	if (o->nmetrics == COMPARE_MAX_FILTERS)
		nm_usage_fail("--metric: at most %d patterns", COMPARE_MAX_FILTERS);
	if (!*it->arg)
		opt_bad_value(it, "expected a metric name or glob, like 'lat_*'");
	metrics[o->nmetrics++] = it->arg;
	o->metrics = metrics;
}

void compare_select_filter(const struct opt_iter *it, void *select)
{
	struct compare_select *s = select;
	compare_filter_add(&s->o, s->filters, it);
}

void compare_select_where(const struct opt_iter *it, void *select)
{
	compare_where_add(&((struct compare_select *)select)->where, it);
}

void compare_select_metric(const struct opt_iter *it, void *select)
{
	struct compare_select *s = select;
	compare_metric_add(&s->o, s->metrics, it);
}
