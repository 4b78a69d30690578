/* nodemark report: one self-contained HTML (or Markdown) report of runs. */
#include "cmd/cmd.h"
#include "cli/compare_input.h"
#include "cli/options.h"
#include "cli/output.h"
#include "export/report_html.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct compare_select sel;
static struct cli_words names;
static const char *output, *title;
static int markdown;

static void parse_format(const struct opt_iter *it, void *markdown_)
{
	int *md = markdown_;
	if (strcmp(it->arg, "html") == 0)
		*md = 0;
	else if (strcmp(it->arg, "markdown") == 0 || strcmp(it->arg, "md") == 0)
		*md = 1;
	else
		opt_bad_value(it, "expected html or markdown");
}

static const struct cli_option options[] = {
	CLI_OUTPUT("output", &output, .alias = "o",
		   CLI_HELP("FILE", "the report (written atomically); \"-\" for stdout (HTML)")),
	CLI_CALL("format", parse_format, &markdown, CLI_HELP("FMT", "html or markdown (default: from the file name)")),
	CLI_STRING("title", &title, CLI_HELP("TEXT", "the report's title (default \"nodemark report\")")),
	CLI_COMPARE_SELECT(&sel),
	CLI_COMPARE_DB(&sel),
	CLI_END,
};

const struct cli_help cmd_report_help = {
	.usage = "usage: nodemark report [options] INPUT... -o FILE\n"
		 "\n"
		 "Write a report of runs that a person can put next to a benchmark post: each machine's\n"
		 "one-line summary and inventory, the runs, the tables of `nodemark compare` (median ± 95%\n"
		 "CI, Mann-Whitney U against the first column, geomean), and SVG charts: bars per benchmark\n"
		 "and run for every metric, latency percentile curves from the histograms, timelines from\n"
		 "the series (track, per-second IOPS).  FILE ending in .md gives Markdown (tables only);\n"
		 "anything else one self-contained HTML file: inline CSS and SVG, no script, nothing fetched\n"
		 "from the network.  An INPUT is a saved run (id, id prefix, label, \"last\", \"last:KIND\",\n"
		 "\"last~N\"), a file of JSON records or a file of Go benchmark text, as for compare.\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Example:\n"
		"  nodemark report base last --title \"NVMe vs SATA\" -o report.html\n",
};

/* The report of what was loaded, written atomically to -o; an exit code. */
static int report_loaded(const struct compare_inputs *ci)
{
	char err[512], generated[96];
	struct cmp_model m;
	if (cmp_build(ci->v, ci->n, &sel.o, &m, err, sizeof err) < 0) {
		nm_error("%s", err);
		return NM_EXIT_USAGE;
	}
	report_generated(generated, sizeof generated);
	struct report_opts ro = { title, generated };
	int rc = NM_EXIT_OK;
	struct atomic_file af;
	FILE *f = afile_open(&af, output, err, sizeof err);
	if (f) {
		if (markdown)
			report_write_markdown(f, &m, &ro);
		else
			report_write_html(f, &m, &ro);
		if (afile_commit(&af, err, sizeof err) < 0)
			f = NULL;
	}
	if (!f) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
	} else if (strcmp(output, "-") != 0) {
		fprintf(stderr, "wrote %s (%zu tables%s)\n", output, m.tab.ntables, markdown ? "" : ", SVG charts");
	}
	cmp_free(&m);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	memset(&sel, 0, sizeof sel);
	output = NULL;
	title = "nodemark report";
	markdown = -1;
	cli_words_init(&names, argc);
	cli_parse("report", argc, argv, options, cli_collect_word, &names);
	if (!output || (!names.n && !sel.where_given)) {
		compare_filters_free(&sel.o);
		cli_words_free(&names);
		nm_usage_fail(!output ? "-o FILE: where to write the report (report.html or report.md)"
				      : "which runs? expected runs, JSON record files or Go benchmark files");
	}
	if (markdown < 0) {
		size_t n = strlen(output);
		markdown = n > 3 && strcmp(output + n - 3, ".md") == 0;
	}
	cli_outputs_check(options, names.v, names.n, sel.db);
	int rc = NM_EXIT_USAGE;
	struct compare_inputs ci;
	if (compare_inputs_load_kinds(&ci, names.v, names.n, sel.where_given ? &sel.where : NULL, sel.db, 1) == 0) {
		rc = report_loaded(&ci);
		compare_inputs_free(&ci);
	}
	compare_filters_free(&sel.o);
	cli_words_free(&names);
	return rc;
}
