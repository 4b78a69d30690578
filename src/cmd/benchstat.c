/* nodemark benchstat: benchstat's command line, tables and formats over Go benchmark text. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/store_open.h"
#include "export/benchtab.h"
#include "results/benchfmt.h"
#include "results/benchproc.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct flags {
	const char *table, *row, *col, *ignore, *filter, *format;
	double alpha, confidence;
};

/* -alpha, -confidence: a probability, with benchstat's messages. */
static void prob_flag(const struct opt_iter *it, void *value)
{
	char *end;
	double x = strtod(it->arg, &end);
	if (!*it->arg || *end)
		nm_usage_fail("%s: \"%s\": expected a number", it->name, it->arg);
	if (!(x >= 0 && x <= 1))
		nm_usage_fail("%s must be in range [0, 1]", it->name);
	*(double *)value = x;
}

static struct flags fl;

/* benchstat's flags, as it spells them (one dash: Go's flag package). */
static const struct cli_option flags[] = {
	CLI_TEXT("table", &fl.table, CLI_HELP("PROJ", "split results into tables by PROJ (default .config)")),
	CLI_TEXT("row", &fl.row, CLI_HELP("PROJ", "rows by PROJ (default .fullname)")),
	CLI_TEXT("col", &fl.col, CLI_HELP("PROJ", "columns by PROJ (default .file)")),
	CLI_TEXT("ignore", &fl.ignore, CLI_HELP("KEYS", "ignore variations in KEYS")),
	CLI_TEXT("filter", &fl.filter, CLI_HELP("QUERY", "use only benchmarks matching QUERY (default *)")),
	CLI_CALL("alpha", prob_flag, &fl.alpha, CLI_HELP("A", "consider a change significant if p < A (default 0.05)")),
	CLI_CALL("confidence", prob_flag, &fl.confidence, CLI_HELP("L", "confidence level for ranges (default 0.95)")),
	CLI_TEXT("format", &fl.format, CLI_HELP("F", "text (default) or csv (warnings go to stderr)")),
	CLI_NOTE("-h, -help", "this help"),
	CLI_END,
};

const struct cli_help cmd_benchstat_help = {
	.usage = "usage: nodemark benchstat [flags] inputs...\n"
		 "\n"
		 "benchstat's statistical summaries and A/B comparisons of Go benchmarks, with benchstat's\n"
		 "flags and output: a row per benchmark, a column per input file, the median and its 95%\n"
		 "confidence interval in each cell, and for every column after the first the change against\n"
		 "the first with a Mann-Whitney U test (\"~\" when it is likely noise).  An input is a file\n"
		 "of `go test -bench` output, \"-\" for stdin, or LABEL=FILE to name its column.\n"
		 "\n"
		 "Flags (one dash or two; a flag's value as the next word or after \"=\"):\n",
	.options = flags,
	.rest = "\n"
		"Keys: .name (base name), .fullname, /KEY (a KEY=value part of the name, /gomaxprocs the -N\n"
		"suffix), .file (the input's label), .unit (filters only), .config (every configuration key\n"
		"not used elsewhere), or any configuration key (goos, note, ...).  A projection is KEY[@ORDER]\n"
		"separated by commas, ORDER first (default), alpha, num or (v1 v2 ...).  A query combines\n"
		"KEY:VALUE, KEY:/regexp/, KEY:(a OR b), -x, x AND y (or x y), x OR y, (...) and *.\n"
		"A key that no result has is an error.\n"
		"\n"
		"Examples:\n"
		"  nodemark benchstat old.txt new.txt\n"
		"  nodemark benchstat -col note results.txt\n"
		"  nodemark benchstat -filter '/align:0' -row /size -col /poly crc.txt\n"
		"  nodemark benchstat -format csv base=old.txt tip=new.txt\n",
	.go_flags = 1,
};

static void print_error(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "%s\n", msg);
}

/* Every input into the set: LABEL=PATH names a column; a path given twice gets "#0", "#1". */
static int read_inputs(struct bf_set *set, char **paths, int n)
{
	for (int i = 0; i < n; i++) {
		char *eq = strchr(paths[i], '=');
		const char *path = eq ? eq + 1 : paths[i];
		char label[4096];
		int same = 0, before = 0;
		for (int k = 0; k < n; k++)
			if (!strchr(paths[k], '=') && strcmp(paths[k], paths[i]) == 0)
				same++, before += k < i;
		if (eq)
			snprintf(label, sizeof label, "%.*s", (int)(eq - paths[i]), paths[i]);
		else if (same > 1)
			snprintf(label, sizeof label, "%s#%d", path, before);
		else
			snprintf(label, sizeof label, "%s", path);
		size_t len;
		char *text = storecmd_read_file(path, &len);
		if (!text)
			return -1;
		char err[1024];
		int refused = bf_read(set, text, len, path, label, print_error, NULL, err, sizeof err);
		free(text);
		if (refused < 0) {
			nm_error("%s", err);
			return -1;
		}
	}
	return 0;
}

static struct bp_projection *projection(struct bp_parser *p, const char *flag, const char *q, int unit)
{
	char err[512];
	struct bp_projection *pr = bp_parse(p, q, unit, err, sizeof err);
	if (!pr)
		nm_error("parsing -%s: %s", flag, err);
	return pr;
}

int cmd_benchstat(int argc, char **argv)
{
	fl = (struct flags){ ".config", ".fullname", ".file", "", "*", "text", 0.05, 0.95 };
	int first = cli_parse_go_flags(argc, argv, flags);
	if (first < 0) { /* -help, which main does not answer (-h and --help it does) */
		cli_help_print(stdout, &cmd_benchstat_help);
		return NM_EXIT_OK;
	}
	if (first >= argc)
		nm_usage_fail("what to compare? expected Go benchmark files (see nodemark benchstat -h)");
	if (strcmp(fl.format, "text") != 0 && strcmp(fl.format, "csv") != 0)
		nm_usage_fail("-format must be text or csv");

	struct bp_parser parser = { 0 };
	struct bp_filter filter = { 0 };
	struct bt_builder b = { 0 };
	struct bf_set set;
	char err[512];
	int rc = NM_EXIT_USAGE;
	bf_init(&set);
	if (bp_filter_parse(&filter, &parser, fl.filter, err, sizeof err) < 0) {
		nm_error("parsing -filter: %s", err);
		goto out;
	}
	if (!(b.table_by = projection(&parser, "table", fl.table, 1)) ||
	    !(b.row_by = projection(&parser, "row", fl.row, 0)) || !(b.col_by = projection(&parser, "col", fl.col, 0)) ||
	    !projection(&parser, "ignore", fl.ignore, 0))
		goto out;
	b.residue = bp_residue(&parser);
	if (read_inputs(&set, argv + first, argc - first) < 0)
		goto out;
	if (bp_check_keys(&parser, &filter, &set, err, sizeof err) < 0) {
		nm_error("%s", err);
		goto out;
	}
	for (size_t i = 0; i < set.n; i++)
		if (bp_filter_apply(&filter, &set.results[i]))
			bt_add(&b, &set.results[i]);
	bt_finish(&b, &set, fl.alpha, fl.confidence);
	if (strcmp(fl.format, "csv") == 0)
		bt_write_csv(stdout, stderr, &b);
	else
		bt_write_text(stdout, &b);
	rc = fflush(stdout) == 0 ? NM_EXIT_OK : NM_EXIT_FAILED;
	if (rc)
		nm_error("writing the output failed");
out:
	bt_free(&b);
	bp_filter_free(&filter);
	bp_parser_free(&parser);
	bf_free(&set);
	return rc;
}
