/* nodemark compare: benchstat's tables over saved runs, JSON records and Go benchmark text. */
#include "cmd/cmd.h"
#include "cli/compare_input.h"
#include "export/calls.h"
#include "export/changes.h"
#include "export/comparetab.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_compare_usage[] =
	"usage: nodemark compare [options] INPUT...\n"
	"\n"
	"Compare benchmarks with benchstat's statistics.  An INPUT is a saved run (id, unique id\n"
	"prefix, label or \"last\"), a file of JSON records (from `nodemark export`), or a file of Go\n"
	"benchmark text (`go test -bench` output: \"BenchmarkName N value unit ...\" lines and\n"
	"\"key: value\" configuration lines).\n"
	"\n"
	"One table per metric.  Each cell is the median of the samples with its 95% confidence\n"
	"interval (\"1.718µ ± 1%\"); every column after the first is compared with the first by a\n"
	"two-sided Mann-Whitney U test: \"-17.20% (p=0.000 n=10)\" when p <= alpha, \"~\" when not.\n"
	"The last row is the geometric mean.  Footnotes warn about too few samples.\n"
	"\n"
	"For nodemark's own runs, the calls follow the tables: a change is called only when neither\n"
	"run was busy, both have 6 or more samples, p <= alpha, and the median moved more than the\n"
	"noise floor (the spread of earlier runs, saved with the run); otherwise \"not compared:\"\n"
	"says why (a busy phase, too few samples).\n"
	"\n"
	"Options:\n"
	"  --col KEY           columns by KEY instead of by input (e.g. host, label, a tag such as fs,\n"
	"                      a Go configuration key such as goos, a benchmark setting such as bs)\n"
	"  --row KEY           rows by KEY instead of by benchmark name\n"
	"  --filter KEY=GLOB   keep only benchmarks whose KEY matches the glob; KEY!=GLOB drops them;\n"
	"                      repeatable (all must hold). Keys: input id host label command version\n"
	"                      name, tags, settings\n"
	"  --where KEY=VALUE   also every saved run whose host, label, command or tag KEY is VALUE\n"
	"                      (oldest first); repeatable (all must hold)\n"
	"  --metric GLOB       only the tables of metrics matching GLOB (e.g. 'lat_*'); repeatable\n"
	"  --total             a last row \"total\": each column's medians summed (the steps of a\n"
	"                      pipeline, one row per step)\n"
	"  --format FMT        text (default), markdown, csv or json\n"
	"  -o, --output FILE   write to FILE (atomically) instead of stdout\n"
	"  --alpha A           significance level (default 0.05)\n"
	"  --db FILE           the results store for run names (default $NODEMARK_DB or\n"
	"                      $XDG_DATA_HOME/nodemark/results.db)\n"
	"\n"
	"Examples:\n"
	"  nodemark compare old.txt new.txt\n"
	"  nodemark compare base last --format markdown\n"
	"  nodemark compare --col host --filter 'name=RND4K*' node1.json node2.json\n"
	"  nodemark compare --where pipeline=gatk --col host --metric wall_s\n";

enum { O_COL = 1, O_ROW, O_FILTER, O_FORMAT, O_OUTPUT, O_ALPHA, O_DB, O_WHERE, O_METRIC, O_TOTAL };

static const struct opt_spec specs[] = {
	{ "col", OPT_ARG, O_COL },       { "row", OPT_ARG, O_ROW },       { "filter", OPT_ARG, O_FILTER },
	{ "format", OPT_ARG, O_FORMAT }, { "o", OPT_ARG, O_OUTPUT },      { "output", OPT_ARG, O_OUTPUT },
	{ "alpha", OPT_ARG, O_ALPHA },   { "db", OPT_ARG, O_DB },         { "where", OPT_ARG, O_WHERE },
	{ "metric", OPT_ARG, O_METRIC }, { "total", OPT_NOARG, O_TOTAL }, { 0 },
};

enum format { F_TEXT, F_MARKDOWN, F_CSV, F_JSON };

/* Two saved runs: what differs between the machines and settings they ran with. */
static void what_changed_text(FILE *f, const struct compare_inputs *ci)
{
	if (ci->n == 2)
		changes_write_text(f, ci->v[0].r, ci->v[0].name, ci->v[1].r, ci->v[1].name);
}

int cmd_compare(int argc, char **argv)
{
	struct ct_opts o = { 0 };
	struct ct_filter filters[COMPARE_MAX_FILTERS];
	const char *metrics[COMPARE_MAX_FILTERS];
	struct store_filter where = { 0 };
	int where_given = 0;
	const char **names = calloc((size_t)argc + 1, sizeof *names);
	const char *output = "-", *db = NULL;
	enum format fmt = F_TEXT;
	size_t nnames = 0;
	struct opt_iter it;
	char err[512];

	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;) {
		switch (id) {
		case O_COL:
			o.col_key = it.arg;
			break;
		case O_ROW:
			o.row_key = it.arg;
			break;
		case O_FILTER:
			compare_filter_add(&o, filters, &it);
			break;
		case O_WHERE:
			compare_where_add(&where, &it);
			where_given = 1;
			break;
		case O_METRIC:
			compare_metric_add(&o, metrics, &it);
			break;
		case O_TOTAL:
			o.total_row = 1;
			break;
		case O_FORMAT:
			if (strcmp(it.arg, "text") == 0)
				fmt = F_TEXT;
			else if (strcmp(it.arg, "markdown") == 0 || strcmp(it.arg, "md") == 0)
				fmt = F_MARKDOWN;
			else if (strcmp(it.arg, "csv") == 0)
				fmt = F_CSV;
			else if (strcmp(it.arg, "json") == 0)
				fmt = F_JSON;
			else
				opt_bad_value(&it, "expected text, markdown, csv or json");
			break;
		case O_OUTPUT:
			output = opt_output_file(&it);
			break;
		case O_ALPHA: {
			char *end;
			o.alpha = strtod(it.arg, &end);
			if (*end || !(o.alpha > 0 && o.alpha < 1))
				opt_bad_value(&it, "expected a probability between 0 and 1, like 0.05");
			break;
		}
		case O_DB:
			db = it.arg;
			break;
		case OPT_POSITIONAL:
			names[nnames++] = it.arg;
			break;
		}
	}
	if (nnames == 0 && !where_given) {
		free(names);
		nm_usage_fail("what to compare? expected runs, JSON record files or Go benchmark files");
	}

	int rc = NM_EXIT_USAGE;
	struct compare_inputs ci;
	struct ct_result res = { 0 };
	if (compare_inputs_load_where(&ci, names, nnames, where_given ? &where : NULL, db) < 0)
		goto out;
	if (ct_build(ci.v, ci.n, &o, &res, err, sizeof err) < 0) {
		nm_error("%s", err);
		goto out_inputs;
	}
	struct atomic_file af;
	FILE *f = afile_open(&af, output, err, sizeof err);
	if (!f) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
		goto out_res;
	}
	/* nodemark's calls about saved runs, after benchstat's tables (none for Go text) */
	struct call_list cl;
	calls_build(ci.v, ci.n, &o, &res, &cl);
	if (fmt == F_TEXT) {
		ct_write_text(f, &res);
		calls_write_text(f, &cl, NULL);
		what_changed_text(f, &ci);
	} else if (fmt == F_MARKDOWN) {
		ct_write_markdown(f, &res);
		calls_write_markdown(f, &cl);
	} else if (fmt == F_CSV) {
		ct_write_csv(f, &res);
	} else {
		json_t *j = ct_to_json(&res);
		if (cl.n)
			json_object_set_new(j, "calls", calls_to_json(&cl));
		json_dumpf(j, f, JSON_INDENT(2));
		fputc('\n', f);
		json_decref(j);
	}
	calls_free(&cl);
	if (afile_commit(&af, err, sizeof err) < 0) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
		goto out_res;
	}
	rc = NM_EXIT_OK;
out_res:
	ct_free(&res);
out_inputs:
	compare_inputs_free(&ci);
out:
	compare_filters_free(&o);
	free(names);
	return rc;
}
