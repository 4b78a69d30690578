#include "cli/options.h"
#include "util/error.h"

#include <stdlib.h>

/* The table as util/opt.h specs: option i gets id i + 1. */
static struct opt_spec *specs_of(const struct cli_option *opts)
{
	size_t n = 0;
	while (opts[n].kind != CLI_KIND_END)
		n++;
	struct opt_spec *specs = calloc(n + 1, sizeof *specs);
	if (!specs)
		abort();
	for (size_t i = 0; i < n; i++) {
		specs[i].name = opts[i].name;
		specs[i].has_arg = opts[i].kind == CLI_KIND_FLAG ? OPT_NOARG : OPT_ARG;
		specs[i].id = (int)i + 1;
	}
	return specs;
}

static void store_value(const struct cli_option *o, const struct opt_iter *it)
{
	switch (o->kind) {
	case CLI_KIND_FLAG:
		*(int *)o->value = 1;
		break;
	case CLI_KIND_STRING:
		if (!*it->arg)
			opt_bad_value(it, "empty value");
		*(const char **)o->value = it->arg;
		break;
	case CLI_KIND_SIZE:
		*(uint64_t *)o->value = opt_size(it);
		break;
	case CLI_KIND_DURATION:
		*(uint64_t *)o->value = opt_duration(it);
		break;
	case CLI_KIND_COUNT:
		*(uint64_t *)o->value = opt_count(it, o->min, o->max);
		break;
	case CLI_KIND_OUTPUT:
		*(const char **)o->value = opt_output_file(it);
		break;
	case CLI_KIND_CALL:
		o->call(it, o->value);
		break;
	case CLI_KIND_END:
		break;
	}
}

void cli_parse(const char *cmd, int argc, char **argv, const struct cli_option *opts,
	       void (*positional)(const char *word, void *ctx), void *ctx)
{
	struct opt_spec *specs = specs_of(opts);
	struct opt_iter it;
	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;) {
		if (id > 0) {
			store_value(&opts[id - 1], &it);
		} else if (id == OPT_POSITIONAL) {
			if (!positional) {
				free(specs);
				nm_usage_fail("unexpected argument \"%s\" (%s takes only options)", it.arg, cmd);
			}
			positional(it.arg, ctx);
		}
	}
	free(specs);
}

void cli_words_init(struct cli_words *w, int argc)
{
	w->v = calloc((size_t)argc + 1, sizeof *w->v); /* never more words than argv has */
	if (!w->v)
		abort();
	w->n = 0;
}

void cli_collect_word(const char *word, void *words)
{
	struct cli_words *w = words;
	w->v[w->n++] = word;
}

void cli_words_free(struct cli_words *w)
{
	free(w->v);
	w->v = NULL;
	w->n = 0;
}
