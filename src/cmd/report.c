/* nodemark report: one self-contained HTML (or Markdown) report of runs. */
#include "cmd/cmd.h"
#include "cli/compare_input.h"
#include "export/report.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char cmd_report_usage[] =
	"usage: nodemark report [options] INPUT... -o FILE\n"
	"\n"
	"Write a report of runs that a person can put next to a benchmark post: each machine's\n"
	"one-line summary and inventory, the runs, the tables of `nodemark compare` (median ± 95%\n"
	"CI, Mann-Whitney U against the first column, geomean), and SVG charts: bars per benchmark\n"
	"and run for every metric, latency percentile curves from the histograms, timelines from\n"
	"the series (track, per-second IOPS).  FILE ending in .md gives Markdown (tables only);\n"
	"anything else one self-contained HTML file: inline CSS and SVG, no script, nothing fetched\n"
	"from the network.  An INPUT is a saved run (id, id prefix, label, \"last\"), a file of JSON\n"
	"records or a file of Go benchmark text, as for compare.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE   the report (written atomically); \"-\" for stdout (HTML)\n"
	"  --format FMT        html or markdown (default: from the file name)\n"
	"  --title TEXT        the report's title (default \"nodemark report\")\n"
	"  --col KEY           columns by KEY instead of by input (host, label, a tag, ...)\n"
	"  --row KEY           rows by KEY instead of by benchmark name\n"
	"  --filter KEY=GLOB   keep only matching benchmarks (KEY!=GLOB drops); repeatable\n"
	"  --where KEY=VALUE   also every saved run whose host, label, command or tag KEY is VALUE\n"
	"  --metric GLOB       only the metrics matching GLOB; repeatable\n"
	"  --total             a last row \"total\": each column's medians summed\n"
	"  --db FILE           the results store for run names (default $NODEMARK_DB or\n"
	"                      $XDG_DATA_HOME/nodemark/results.db)\n"
	"\n"
	"Example:\n"
	"  nodemark report base last --title \"NVMe vs SATA\" -o report.html\n";

enum { O_OUTPUT = 1, O_FORMAT, O_TITLE, O_COL, O_ROW, O_FILTER, O_DB, O_WHERE, O_METRIC, O_TOTAL };

static const struct opt_spec specs[] = {
	{ "o", OPT_ARG, O_OUTPUT },    { "output", OPT_ARG, O_OUTPUT }, { "format", OPT_ARG, O_FORMAT },
	{ "title", OPT_ARG, O_TITLE }, { "col", OPT_ARG, O_COL },       { "row", OPT_ARG, O_ROW },
	{ "filter", OPT_ARG, O_FILTER }, { "db", OPT_ARG, O_DB },       { "where", OPT_ARG, O_WHERE },
	{ "metric", OPT_ARG, O_METRIC }, { "total", OPT_NOARG, O_TOTAL }, { 0 },
};

int cmd_report(int argc, char **argv)
{
	struct ct_opts o = { 0 };
	struct ct_filter filters[COMPARE_MAX_FILTERS];
	const char *metrics[COMPARE_MAX_FILTERS];
	struct store_filter where = { 0 };
	int where_given = 0;
	const char **names = calloc((size_t)argc + 1, sizeof *names);
	const char *output = NULL, *db = NULL, *title = "nodemark report";
	int markdown = -1;
	size_t nnames = 0;
	struct opt_iter it;
	char err[512];

	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;) {
		switch (id) {
		case O_OUTPUT:
			output = opt_output_file(&it);
			break;
		case O_FORMAT:
			if (strcmp(it.arg, "html") == 0)
				markdown = 0;
			else if (strcmp(it.arg, "markdown") == 0 || strcmp(it.arg, "md") == 0)
				markdown = 1;
			else
				opt_bad_value(&it, "expected html or markdown");
			break;
		case O_TITLE:
			title = it.arg;
			break;
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
		case O_DB:
			db = it.arg;
			break;
		case OPT_POSITIONAL:
			names[nnames++] = it.arg;
			break;
		}
	}
	if (!output || (!nnames && !where_given)) {
		compare_filters_free(&o);
		free(names);
		nm_usage_fail(!output ? "-o FILE: where to write the report (report.html or report.md)"
				      : "which runs? expected runs, JSON record files or Go benchmark files");
	}
	if (markdown < 0) {
		size_t n = strlen(output);
		markdown = n > 3 && strcmp(output + n - 3, ".md") == 0;
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
	char generated[96];
	report_generated(generated, sizeof generated);
	struct call_list cl;
	calls_build(ci.v, ci.n, &o, &res, &cl);
	struct report_opts ro = { title, generated, &cl };
	struct atomic_file af;
	FILE *f = afile_open(&af, output, err, sizeof err);
	if (!f) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
		goto out_res;
	}
	if (markdown)
		report_write_markdown(f, ci.v, ci.n, &res, &ro);
	else
		report_write_html(f, ci.v, ci.n, &res, &ro);
	if (afile_commit(&af, err, sizeof err) < 0) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
		goto out_res;
	}
	if (strcmp(output, "-") != 0)
		fprintf(stderr, "wrote %s (%zu tables%s)\n", output, res.ntables, markdown ? "" : ", SVG charts");
	rc = NM_EXIT_OK;
out_res:
	calls_free(&cl);
	ct_free(&res);
out_inputs:
	compare_inputs_free(&ci);
out:
	compare_filters_free(&o);
	free(names);
	return rc;
}
