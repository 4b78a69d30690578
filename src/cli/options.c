#include "cli/options.h"
#include "util/error.h"
#include "util/units.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

int cli_is_option(const struct cli_option *o)
{
	return o->kind != CLI_KIND_REST && o->kind != CLI_KIND_NOTE && o->kind != CLI_KIND_SECTION &&
	       o->kind != CLI_KIND_END;
}

/* The table as util/opt.h specs: option i (and its alias) gets id i + 1; notes and the rest
 * are no options. */
static struct opt_spec *specs_of(const struct cli_option *opts)
{
	size_t n = 0;
	while (opts[n].kind != CLI_KIND_END)
		n++;
	struct opt_spec *specs = calloc(2 * n + 1, sizeof *specs);
	if (!specs)
		abort();
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!cli_is_option(&opts[i]))
			continue;
		enum opt_has_arg has_arg = opts[i].kind == CLI_KIND_FLAG ? OPT_NOARG
					   : opts[i].optional_value      ? OPT_OPTARG
									 : OPT_ARG;
		specs[k++] = (struct opt_spec){ opts[i].name, has_arg, (int)i + 1 };
		if (opts[i].alias)
			specs[k++] = (struct opt_spec){ opts[i].alias, has_arg, (int)i + 1 };
	}
	return specs;
}

/* A size or duration against the option's range. */
static uint64_t in_range(const struct cli_option *o, const struct opt_iter *it, uint64_t v)
{
	char msg[64], num[32];
	if (v < o->min) {
		if (o->bad)
			opt_bad_value(it, o->bad);
		snprintf(msg, sizeof msg, "must be above %llu", (unsigned long long)(o->min - 1));
		opt_bad_value(it, msg);
	}
	if (o->max && v > o->max) {
		snprintf(msg, sizeof msg, "at most %s", units_bytes_exact(o->max, "", num, sizeof num));
		opt_bad_value(it, msg);
	}
	return v;
}

static void store_choice(const struct cli_option *o, const struct opt_iter *it)
{
	char msg[256] = "expected ";
	const struct cli_choice *c;
	for (c = o->choices; c->name; c++)
		if (strcasecmp(c->name, it->arg) == 0) {
			*(int *)o->value = c->value;
			return;
		}
	for (c = o->choices; c->name; c++) { /* "expected a, b or c" */
		size_t n = strlen(msg);
		snprintf(msg + n, sizeof msg - n, "%s%s", c == o->choices ? "" : c[1].name ? ", " : " or ", c->name);
	}
	opt_bad_value(it, msg);
}

static void store_list(const struct cli_option *o, const struct opt_iter *it)
{
	char msg[64];
	if (*o->count == o->max) {
		snprintf(msg, sizeof msg, "at most %llu values", (unsigned long long)o->max);
		nm_usage_fail("%s: %s", it->name, o->bad ? o->bad : msg);
	}
	((const char **)o->value)[(*o->count)++] = it->arg;
}

static void store_value(const struct cli_option *o, struct opt_iter *it)
{
	switch (o->kind) {
	case CLI_KIND_FLAG:
		*(int *)o->value = o->set;
		break;
	case CLI_KIND_STRING:
		if (!*it->arg)
			opt_bad_value(it, o->bad ? o->bad : "empty value");
		*(const char **)o->value = it->arg;
		break;
	case CLI_KIND_TEXT:
		*(const char **)o->value = it->arg;
		break;
	case CLI_KIND_SIZE:
		*(uint64_t *)o->value = in_range(o, it, opt_size(it));
		break;
	case CLI_KIND_DURATION:
		*(uint64_t *)o->value = in_range(o, it, opt_duration(it));
		break;
	case CLI_KIND_COUNT:
		*(uint64_t *)o->value = opt_count(it, o->min, o->max);
		break;
	case CLI_KIND_UINT:
		*(unsigned *)o->value = (unsigned)opt_count(it, o->min, o->max);
		break;
	case CLI_KIND_ENUM:
		store_choice(o, it);
		break;
	case CLI_KIND_LIST:
		store_list(o, it);
		break;
	case CLI_KIND_OUTPUT:
		if (!*it->arg && o->bad)
			opt_bad_value(it, o->bad);
		*(const char **)o->value = opt_output_file(it);
		break;
	case CLI_KIND_CALL:
		o->call(it, o->value);
		break;
	case CLI_KIND_WORDS:
		o->words(it, o->value);
		break;
	case CLI_KIND_REST:
	case CLI_KIND_NOTE:
	case CLI_KIND_SECTION:
	case CLI_KIND_END:
		break;
	}
	if (o->seen)
		*o->seen = 1;
}

static const struct cli_option *rest_of(const struct cli_option *opts)
{
	for (; opts->kind != CLI_KIND_END; opts++)
		if (opts->kind == CLI_KIND_REST)
			return opts;
	return NULL;
}

/* The specs of the table being parsed, where a leak checker sees them: a bad value exits from
 * inside the parse. */
static struct opt_spec *parsing;

void cli_parse(const char *cmd, int argc, char **argv, const struct cli_option *opts,
	       void (*positional)(const char *word, void *ctx), void *ctx)
{
	free(parsing);
	parsing = specs_of(opts);
	const struct cli_option *rest = rest_of(opts);
	struct opt_iter it;
	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, parsing)) != OPT_END;) {
		if (id > 0) {
			store_value(&opts[id - 1], &it);
		} else if (id == OPT_DASHDASH && rest) {
			if (it.i >= argc)
				nm_usage_fail("--: expected a command after it");
			*(char ***)rest->value = it.argv + it.i;
			break;
		} else if (id == OPT_POSITIONAL) {
			if (!positional)
				nm_usage_fail("unexpected argument \"%s\" (%s takes only options)", it.arg, cmd);
			positional(it.arg, ctx);
		}
	}
	free(parsing);
	parsing = NULL;
}

/* The entry of a Go flag typed as name[len], or NULL. */
static const struct cli_option *go_flag(const struct cli_option *opts, const char *name, size_t len)
{
	for (const struct cli_option *o = opts; o->kind != CLI_KIND_END; o++)
		if (cli_is_option(o) && strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return o;
	return NULL;
}

int cli_parse_go_flags(int argc, char **argv, const struct cli_option *opts)
{
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1])
			break;
		if (strcmp(a, "--") == 0)
			return i + 1;
		a += a[1] == '-' ? 2 : 1;
		const char *eq = strchr(a, '=');
		size_t len = eq ? (size_t)(eq - a) : strlen(a);
		if ((len == 1 && a[0] == 'h') || (len == 4 && strncmp(a, "help", 4) == 0))
			return -1;
		const struct cli_option *o = go_flag(opts, a, len);
		if (!o)
			nm_usage_fail("flag provided but not defined: -%.*s", (int)(len < 64 ? len : 64), a);
		struct opt_iter it;
		opt_init(&it, argc, argv);
		snprintf(it.namebuf, sizeof it.namebuf, "-%s", o->name);
		it.name = it.namebuf;
		if (o->kind == CLI_KIND_FLAG && eq)
			nm_usage_fail("flag takes no value: -%s", o->name);
		if (o->kind != CLI_KIND_FLAG) {
			if (!eq && i + 1 >= argc)
				nm_usage_fail("flag needs an argument: -%s", o->name);
			it.arg = eq ? eq + 1 : argv[++i];
		}
		it.i = i + 1;
		store_value(o, &it);
		i = it.i - 1; /* a WORDS flag may have taken more */
	}
	return i;
}

/* --- help ------------------------------------------------------------------------------- */

enum { HELP_COLUMN = 22 }; /* where the help text starts, after "  " and the option */

enum { HELP_WIDTH = 80 }; /* help fits a classic terminal */

/* Columns a UTF-8 text takes (µ and ± are one each). */
static int columns(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

/* An option's help as one paragraph (its newlines are spaces) filled to HELP_WIDTH, the first
 * line from column `col`, the later ones from HELP_COLUMN; a word longer than a line stands
 * alone on it. */
static void put_filled_words(FILE *out, const char *help, int col, int indent);

static void put_wrapped(FILE *out, const char *help, int col)
{
	put_filled_words(out, help, col, HELP_COLUMN);
}

/* The words of text (newlines are spaces) filled to HELP_WIDTH from column col, later lines
 * from column indent; a newline after the last. */
static void put_filled_words(FILE *out, const char *text, int col, int indent)
{
	const char *w = text;
	int first = 1;
	while (*w) {
		while (*w == ' ' || *w == '\n')
			w++;
		if (!*w)
			break;
		size_t n = strcspn(w, " \n");
		int wc = columns(w, n);
		if (!first && col + 1 + wc > HELP_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			first = 1;
		}
		if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(w, 1, n, out);
		col += wc;
		first = 0;
		w += n;
	}
	fputc('\n', out);
}

const char *cli_option_help(const struct cli_option *o)
{
	return o->help ? o->help : o->help_of ? o->help_of(o->name) : NULL;
}

/* go: every name with one dash, as Go's flags are written. */
static void options_print(FILE *out, const struct cli_option *opts, int go)
{
	for (const struct cli_option *o = opts; o->kind != CLI_KIND_END; o++) {
		if (o->kind == CLI_KIND_REST || !cli_option_help(o))
			continue;
		if (o->kind == CLI_KIND_SECTION) {
			fprintf(out, "%s\n", o->help);
			continue;
		}
		char left[128];
		if (o->kind == CLI_KIND_NOTE)
			snprintf(left, sizeof left, "%s", o->name);
		else
			snprintf(left, sizeof left, "%s%s%s%s%s%s", o->alias ? "-" : "", o->alias ? o->alias : "",
				 o->alias ? ", " : "", go || strlen(o->name) == 1 ? "-" : "--", o->name,
				 !o->arg || o->arg[0] == '[' ? "" : " ");
		if (o->kind != CLI_KIND_NOTE && o->arg)
			snprintf(left + strlen(left), sizeof left - strlen(left), "%s", o->arg);
		int pad = HELP_COLUMN - 2 - (int)strlen(left);
		fprintf(out, "  %s%*s", left, pad < 2 ? 2 : pad, "");
		put_wrapped(out, cli_option_help(o), 2 + (int)strlen(left) + (pad < 2 ? 2 : pad));
	}
}

void cli_options_print(FILE *out, const struct cli_option *opts)
{
	options_print(out, opts, 0);
}

/* A line of prose a paragraph can be refilled from: after its indent, no example
 * ("nodemark ..."), no list item ("* "), no columns (two spaces, other than after a
 * sentence's full stop: an option's row has them, prose that names an option does not). */
static int is_prose(const char *line, size_t n, size_t indent)
{
	const char *t = line + indent;
	size_t m = n - indent;
	if (m == 0 || *t == '*' || (m >= 9 && strncmp(t, "nodemark ", 9) == 0) ||
	    (m >= 6 && strncmp(t, "usage:", 6) == 0))
		return 0;
	for (size_t i = 1; i + 1 < m; i++)
		if (t[i] == ' ' && t[i + 1] == ' ' && t[i - 1] != '.')
			return 0;
	return 1;
}

static size_t indent_of(const char *line, size_t n)
{
	size_t i = 0;
	while (i < n && line[i] == ' ')
		i++;
	return i;
}

/* A help text with its paragraphs of prose that run past HELP_WIDTH refilled to it (at
 * their indent); other lines (examples, tables, short paragraphs) as they are written. */
static void put_filled(FILE *out, const char *text)
{
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, "\n"), ind = indent_of(p, n);
		if (!is_prose(p, n, ind)) {
			fprintf(out, "%.*s%s", (int)n, p, p[n] ? "\n" : "");
			p += n + (p[n] == '\n');
			continue;
		}
		/* the paragraph: the following prose lines at the same indent */
		const char *end = p;
		int too_wide = 0;
		for (;;) {
			size_t m = strcspn(end, "\n");
			if (end != p && (indent_of(end, m) != ind || !is_prose(end, m, ind)))
				break;
			too_wide |= columns(end, m) > HELP_WIDTH;
			end += m;
			if (*end != '\n')
				break;
			end++;
		}
		if (!too_wide) {
			fwrite(p, 1, (size_t)(end - p), out);
		} else {
			char *para = strndup(p, (size_t)(end - p));
			if (!para)
				abort();
			fprintf(out, "%*s", (int)ind, "");
			put_filled_words(out, para, (int)ind, (int)ind);
			free(para);
		}
		p = end;
	}
}

void cli_help_print(FILE *out, const struct cli_help *h)
{
	put_filled(out, h->usage);
	options_print(out, h->options, h->go_flags);
	if (h->rest)
		put_filled(out, h->rest);
}

char *cli_help_text(const struct cli_help *h)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	cli_help_print(f, h);
	if (fclose(f) != 0)
		abort();
	return text;
}

/* --- positional words ------------------------------------------------------------------- */

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
