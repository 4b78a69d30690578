/* nodemark compare: benchstat's tables over saved runs, JSON records and Go benchmark text. */
#include "cmd/cmd.h"
#include "cli/compare_input.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/run_opts.h"
#include "export/compare_out.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct compare_select sel;
static struct cli_words names;
static const char *output;
static enum cmp_format fmt;

static void parse_format(const struct opt_iter *it, void *format)
{
	enum cmp_format *f = format;
	if (strcmp(it->arg, "text") == 0)
		*f = CMP_TEXT;
	else if (strcmp(it->arg, "benchstat") == 0)
		*f = CMP_BENCHSTAT;
	else if (strcmp(it->arg, "markdown") == 0 || strcmp(it->arg, "md") == 0)
		*f = CMP_MARKDOWN;
	else if (strcmp(it->arg, "csv") == 0)
		*f = CMP_CSV;
	else if (strcmp(it->arg, "json") == 0)
		*f = CMP_JSON;
	else
		opt_bad_value(it, "expected text, benchstat, markdown, csv or json");
}

static void parse_alpha(const struct opt_iter *it, void *alpha)
{
	char *end;
	double a = strtod(it->arg, &end);
	if (*end || !(a > 0 && a < 1))
		opt_bad_value(it, "expected a probability between 0 and 1, like 0.05");
	*(double *)alpha = a;
}

static const struct cli_option options[] = {
	CLI_COMPARE_SELECT(&sel),
	CLI_CALL("format", parse_format, &fmt, CLI_HELP("FMT", "text (default; compact tables for disk and fio runs), benchstat\n"
							   "(its per-unit tables), markdown, csv or json")),
	CLI_OUTPUT("output", &output, .alias = "o", CLI_HELP("FILE", "write to FILE (atomically) instead of stdout")),
	CLI_CALL("alpha", parse_alpha, &sel.o.alpha, CLI_HELP("A", "significance level (default 0.05)")),
	CLI_COMPARE_DB(&sel),
	CLI_COLOR_OPTION,
	CLI_END,
};

const struct cli_help cmd_compare_help = {
	.usage = "usage: nodemark compare [options] INPUT...\n"
		 "\n"
		 "Compare benchmarks with benchstat's statistics.  An INPUT is a saved run (id, unique id\n"
		 "prefix, label or \"last\"), a file of JSON records (from `nodemark export`), or a file of Go\n"
		 "benchmark text (`go test -bench` output: \"BenchmarkName N value unit ...\" lines and\n"
		 "\"key: value\" configuration lines).\n"
		 "\n"
		 "Beside other runs, \"last\" is the newest run of their kind (command); \"last:KIND\" names\n"
		 "the newest run of a command (last:disk), \"last~N\" the Nth run before it (last~1,\n"
		 "last:disk~1).  Runs of different kinds (a track run and a disk run) are refused.\n"
		 "\n"
		 "One table per metric.  Each cell is the median of the samples with its 95% confidence\n"
		 "interval (\"1.718µ ± 1%\"); every column after the first is compared with the first by a\n"
		 "two-sided Mann-Whitney U test: \"-17.20% (p=0.000 n=10)\" when p <= alpha, \"~\" when not.\n"
		 "The last row is the geometric mean.  Footnotes warn about too few samples.\n"
		 "\n"
		 "For nodemark's own runs, the calls follow the tables: a change is called only when neither\n"
		 "run was busy, both have 6 or more samples, p <= alpha, and the median moved more than the\n"
		 "noise floor (the spread of earlier runs, saved with the run); otherwise \"not compared:\"\n"
		 "says why (a busy phase, too few samples).  A hash figure of a busy phase is judged on\n"
		 "its bytes per CPU-second instead, and says so (\"judged on CPU time: busy 87%\").\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Examples:\n"
		"  nodemark compare old.txt new.txt\n"
		"  nodemark compare base last --format markdown\n"
		"  nodemark compare --col host --filter 'name=RND4K*' node1.json node2.json\n"
		"  nodemark compare --where pipeline=gatk --col host --metric wall_s\n",
};

/* The comparison of what was loaded, built once and written atomically to --output; an exit code. */
static int compare_loaded(const struct compare_inputs *ci)
{
	char err[512];
	struct cmp_model m;
	if (cmp_build(ci->v, ci->n, &sel.o, &m, err, sizeof err) < 0) {
		nm_error("%s", err);
		return NM_EXIT_USAGE;
	}
	int rc = NM_EXIT_OK;
	struct atomic_file af;
	FILE *f = afile_open(&af, output, err, sizeof err);
	if (f) {
		cmp_write(f, &m, fmt);
		if (afile_commit(&af, err, sizeof err) < 0)
			f = NULL;
	}
	if (!f) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
	}
	cmp_free(&m);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	memset(&sel, 0, sizeof sel);
	output = "-";
	fmt = CMP_TEXT;
	cli_words_init(&names, argc);
	cli_parse("compare", argc, argv, options, cli_collect_word, &names);
	if (names.n == 0 && !sel.where_given) {
		cli_words_free(&names);
		nm_usage_fail("what to compare? expected runs, JSON record files or Go benchmark files");
	}
	cli_outputs_check(options, names.v, names.n, sel.db);
	int rc = NM_EXIT_USAGE;
	struct compare_inputs ci;
	if (compare_inputs_load_where(&ci, names.v, names.n, sel.where_given ? &sel.where : NULL, sel.db) == 0) {
		rc = compare_loaded(&ci);
		compare_inputs_free(&ci);
	}
	compare_filters_free(&sel.o);
	cli_words_free(&names);
	return rc;
}
