/* nodemark benchstat: benchstat's command line, tables and formats over Go benchmark text. */
#include "cmd/cmd.h"
#include "cli/store_open.h"
#include "export/benchtab.h"
#include "results/benchfmt.h"
#include "results/benchproc.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_benchstat_usage[] =
	"usage: nodemark benchstat [flags] inputs...\n"
	"\n"
	"benchstat's statistical summaries and A/B comparisons of Go benchmarks, with benchstat's\n"
	"flags and output: a row per benchmark, a column per input file, the median and its 95%\n"
	"confidence interval in each cell, and for every column after the first the change against\n"
	"the first with a Mann-Whitney U test (\"~\" when it is likely noise).  An input is a file\n"
	"of `go test -bench` output, \"-\" for stdin, or LABEL=FILE to name its column.\n"
	"\n"
	"Flags (one dash or two; a flag's value as the next word or after \"=\"):\n"
	"  -table PROJ     split results into tables by PROJ (default .config)\n"
	"  -row PROJ       rows by PROJ (default .fullname)\n"
	"  -col PROJ       columns by PROJ (default .file)\n"
	"  -ignore KEYS    ignore variations in KEYS\n"
	"  -filter QUERY   use only benchmarks matching QUERY (default *)\n"
	"  -alpha A        consider a change significant if p < A (default 0.05)\n"
	"  -confidence L   confidence level for ranges (default 0.95)\n"
	"  -format F       text (default) or csv (warnings go to stderr)\n"
	"\n"
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
	"  nodemark benchstat -format csv base=old.txt tip=new.txt\n";

struct flags {
	const char *table, *row, *col, *ignore, *filter, *format;
	double alpha, confidence;
};

static double prob_flag(const char *name, const char *v)
{
	char *end;
	double x = strtod(v, &end);
	if (!*v || *end)
		nm_usage_fail("-%s: \"%s\": expected a number", name, v);
	if (!(x >= 0 && x <= 1))
		nm_usage_fail("-%s must be in range [0, 1]", name);
	return x;
}

/* Go's flag syntax: -f v, -f=v, --f v; flags end at the first input or at "--". */
static int parse_flags(int argc, char **argv, struct flags *fl)
{
	static const char *names[] = { "table", "row", "col", "ignore", "filter", "format", "alpha", "confidence" };
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1])
			break;
		if (strcmp(a, "--") == 0)
			return i + 1;
		a += a[1] == '-' ? 2 : 1;
		if (strcmp(a, "h") == 0 || strcmp(a, "help") == 0) {
			fputs(cmd_benchstat_usage, stdout);
			exit(0);
		}
		const char *eq = strchr(a, '='), *val;
		size_t len = eq ? (size_t)(eq - a) : strlen(a), k;
		for (k = 0; k < sizeof names / sizeof *names; k++)
			if (strlen(names[k]) == len && strncmp(a, names[k], len) == 0)
				break;
		if (k == sizeof names / sizeof *names)
			nm_usage_fail("flag provided but not defined: -%.*s", (int)len, a);
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			nm_usage_fail("flag needs an argument: -%s", names[k]);
		const char **slots[] = { &fl->table, &fl->row, &fl->col, &fl->ignore, &fl->filter, &fl->format };
		if (k < 6)
			*slots[k] = val;
		else if (k == 6)
			fl->alpha = prob_flag("alpha", val);
		else
			fl->confidence = prob_flag("confidence", val);
	}
	return i;
}

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
		bf_read(set, text, len, path, label, print_error, NULL);
		free(text);
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
	struct flags fl = { ".config", ".fullname", ".file", "", "*", "text", 0.05, 0.95 };
	int first = parse_flags(argc, argv, &fl);
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
