#include "cli/run_opts.h"
#include "inventory/inventory.h"
#include "results/store.h"
#include "util/error.h"
#include "util/color.h"
#include "util/parse.h"
#include "util/progress.h"

#include <stdio.h>
#include <stdlib.h>

void run_opts_add_tag(const struct opt_iter *it, void *run_opts)
{
	struct run_opts *o = run_opts;
	char err[256], *k, *v;
	if (parse_tag(it->arg, &k, &v, err, sizeof err) < 0)
		opt_bad_value(it, err);
	if (o->ntags == sizeof o->tag_keys / sizeof o->tag_keys[0]) {
		free(k);
		nm_usage_fail("--tag: at most 64 tags");
	}
	o->tag_keys[o->ntags] = k; /* owns the copy; v points into it */
	o->tag_values[o->ntags++] = v;
}

void run_opts_progress(const struct opt_iter *it, void *unused)
{
	(void)unused;
	progress_set_interval((unsigned)opt_count(it, 1, 3600));
}

void run_opts_quiet(const struct opt_iter *it, void *unused)
{
	(void)unused;
	if (it->arg)
		opt_bad_value(it, "takes no value");
	progress_set_quiet();
}

void run_opts_color(const struct opt_iter *it, void *unused)
{
	enum color_when w;
	(void)unused;
	if (color_parse(it->arg, &w) < 0)
		opt_bad_value(it, "expected auto, always or never");
	color_set_when(w);
}

int run_opts_handle(struct run_opts *o, int id, const struct opt_iter *it)
{
	switch (id) {
	case RUN_OPT_TAG:
		run_opts_add_tag(it, o);
		return 1;
	case RUN_OPT_LABEL:
		if (!*it->arg)
			nm_usage_fail("--label: empty value: expected a name for the run");
		o->label = it->arg;
		return 1;
	case RUN_OPT_NO_SAVE:
		o->no_save = 1;
		return 1;
	case RUN_OPT_DB:
		if (!*it->arg)
			nm_usage_fail("--db: empty value: expected a file name");
		o->db = it->arg;
		return 1;
	}
	return 0;
}

void run_opts_free(struct run_opts *o)
{
	for (unsigned i = 0; i < o->ntags; i++)
		free(o->tag_keys[i]);
	o->ntags = 0;
}

void run_opts_apply(const struct run_opts *o, struct record *r, const char *path)
{
	struct inventory_opts io = { .path = path };
	if (o->label)
		record_set_label(r, o->label);
	for (unsigned i = 0; i < o->ntags; i++)
		record_set_tag(r, o->tag_keys[i], o->tag_values[i]);
	record_set_inventory(r, inventory_collect(&io));
}

int run_save(const struct run_opts *o, const struct record *r)
{
	char err[512];
	if (o->no_save)
		return 0;
	struct store *s = store_open(o->db, err, sizeof err);
	if (!s) {
		nm_error("cannot save the run: %s", err);
		return -1;
	}
	if (store_save(s, r, err, sizeof err) < 0) {
		nm_error("cannot save the run: %s", err);
		store_close(s);
		return -1;
	}
	store_close(s);
	fprintf(stderr, "saved run %s%s%s\n", r->id, r->label ? " " : "", r->label ? r->label : "");
	return 0;
}
