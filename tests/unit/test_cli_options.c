/* src/cli/options.c: option tables that point at fields, and the help written from them. */
#include "test.h"
#include "cli/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* argv from a string of words (no quoting), argv[0] = "cmd"; static, one at a time. */
static int words(const char *line, char ***argv)
{
	static char buf[512];
	static char *v[32];
	int n = 0;
	snprintf(buf, sizeof buf, "cmd %s", line);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && n < 31; w = strtok_r(NULL, " ", &save))
		v[n++] = w;
	v[n] = NULL;
	*argv = v;
	return n;
}

/* A parser in a child (cli_parse, or cli_parse_go_flags when go): its exit status (0 when it
 * returned) and its stderr in msg. */
static int run_in_child(int go, const struct cli_option *opts, const char *line, char *msg, size_t len)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		char **argv;
		int argc = words(line, &argv);
		dup2(p[1], 2);
		if (go)
			cli_parse_go_flags(argc, argv, opts);
		else
			cli_parse("cmd", argc, argv, opts, NULL, NULL);
		_exit(0);
	}
	close(p[1]);
	ssize_t n = read(p[0], msg, len - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(p[0]);
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int parse_in_child(const struct cli_option *opts, const char *line, char *msg, size_t len)
{
	return run_in_child(0, opts, line, msg, len);
}

static void parse(const struct cli_option *opts, const char *line)
{
	char **argv;
	int argc = words(line, &argv);
	cli_parse("cmd", argc, argv, opts, NULL, NULL);
}

static uint64_t size, ramp;
static unsigned jobs;

TEST(cli_sizes_durations_and_counts_within_their_range)
{
	const struct cli_option opts[] = {
		CLI_SIZE("size", &size, .min = 1, .max = 1ull << 30),
		CLI_DURATION("ramp", &ramp, .min = 1, .bad = "0: expected a duration like 5s"),
		CLI_UINT("jobs", &jobs, 1, 64),
		CLI_END,
	};
	char msg[256];
	parse(opts, "--size 4k --ramp 1.5s --jobs=12");
	CHECK_EQ_U64(size, 4096);
	CHECK_EQ_U64(ramp, 1500000000ull);
	CHECK_EQ_INT(jobs, 12);
	CHECK_EQ_INT(parse_in_child(opts, "--size 0", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "--size: must be above 0");
	CHECK_EQ_INT(parse_in_child(opts, "--size 2GiB", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "--size: at most 1GiB");
	CHECK_EQ_INT(parse_in_child(opts, "--ramp 0", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "--ramp: 0: expected a duration like 5s");
	CHECK_EQ_INT(parse_in_child(opts, "--jobs 65", msg, sizeof msg), 2);
	CHECK(!strchr(msg, '\n') || strchr(msg, '\n')[1] == '\0'); /* one line */
}

enum backend { BACKEND_FILES, BACKEND_LOG, BACKEND_NONE };
static const struct cli_choice backends[] = {
	{ "files", BACKEND_FILES }, { "log", BACKEND_LOG }, { "none", BACKEND_NONE }, { NULL, 0 } };

TEST(cli_enum_takes_a_choice_and_names_them_all_when_wrong)
{
	enum backend b = BACKEND_FILES;
	const struct cli_option opts[] = { CLI_ENUM("backend", &b, backends), CLI_END };
	char msg[256];
	parse(opts, "--backend LOG");
	CHECK_EQ_INT(b, BACKEND_LOG);
	parse(opts, "--backend none");
	CHECK_EQ_INT(b, BACKEND_NONE);
	CHECK_EQ_INT(parse_in_child(opts, "--backend tar", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "--backend: expected files, log or none");
}

TEST(cli_list_gathers_a_repeated_option_up_to_its_room)
{
	const char *paths[2] = { NULL, NULL };
	unsigned n = 0;
	const struct cli_option opts[] = { CLI_LIST("allow", paths, &n, 2), CLI_END };
	const struct cli_option opts_bad[] = { CLI_LIST("allow", paths, &n, 2, .bad = "at most 2 paths"), CLI_END };
	char msg[256];
	parse(opts, "--allow a --allow=b");
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_STR(paths[0], "a");
	CHECK_EQ_STR(paths[1], "b");
	n = 0;
	CHECK_EQ_INT(parse_in_child(opts, "--allow a --allow b --allow c", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "--allow: at most 2 values");
	CHECK_EQ_INT(parse_in_child(opts_bad, "--allow a --allow b --allow c", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "--allow: at most 2 paths");
}

static void sync_mode(const struct opt_iter *it, void *value)
{
	if (it->arg && strcmp(it->arg, "data") != 0)
		opt_bad_value(it, "expected --sync or --sync=data");
	*(int *)value = it->arg ? 2 : 1;
}

TEST(cli_set_seen_and_an_optional_value)
{
	int direct = 0, seen = 0, sync = 0;
	const struct cli_option opts[] = {
		CLI_SET("buffered", &direct, 7, .seen = &seen),
		CLI_CALL("sync", sync_mode, &sync, .optional_value = 1),
		CLI_END,
	};
	char msg[256];
	parse(opts, "--sync");
	CHECK_EQ_INT(sync, 1);
	CHECK_EQ_INT(seen, 0);
	parse(opts, "--sync=data --buffered");
	CHECK_EQ_INT(sync, 2);
	CHECK_EQ_INT(direct, 7);
	CHECK_EQ_INT(seen, 1);
	/* An optional value is only ever --name=VALUE: the next word stays a word of its own. */
	CHECK_EQ_INT(parse_in_child(opts, "--sync data", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "unexpected argument \"data\"");
}

TEST(cli_rest_is_the_command_after_dashdash)
{
	char **cmd = NULL;
	int flag = 0;
	const struct cli_option opts[] = { CLI_FLAG("tee", &flag), CLI_REST(&cmd), CLI_END };
	char msg[256];
	parse(opts, "--tee -- sh -c --tee");
	CHECK(cmd != NULL);
	CHECK_EQ_STR(cmd[0], "sh");
	CHECK_EQ_STR(cmd[1], "-c");
	CHECK_EQ_STR(cmd[2], "--tee");
	CHECK(cmd[3] == NULL);
	CHECK_EQ_INT(flag, 1);
	CHECK_EQ_INT(parse_in_child(opts, "--tee --", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "--: expected a command after it");
}

TEST(cli_help_is_written_from_the_table)
{
	int f = 0;
	uint64_t v = 0;
	enum backend b;
	const char *out = NULL;
	const struct cli_option opts[] = {
		CLI_SIZE("size", &v, CLI_HELP("SIZE", "bytes per piece\n(default 1MiB)")),
		CLI_ENUM("backend", &b, backends, CLI_HELP("files|log", "the store layout")),
		CLI_CALL("sync", sync_mode, &f, .optional_value = 1, CLI_HELP("[=data]", "fsync each piece")),
		CLI_FLAG("hidden", &f),
		CLI_OUTPUT("output", &out, .alias = "o", CLI_HELP("FILE", "write to FILE")),
		CLI_NOTE("-h, --help", "this text"),
		CLI_END,
	};
	const struct cli_help h = { "usage: cmd\n\nOptions:\n", opts, "\nExample:\n  cmd --size 1m\n", 0 };
	char *text = cli_help_text(&h);
	CHECK_EQ_STR(text, "usage: cmd\n\nOptions:\n"
			   "  --size SIZE         bytes per piece (default 1MiB)\n"
			   "  --backend files|log  the store layout\n"
			   "  --sync[=data]       fsync each piece\n"
			   "  -o, --output FILE   write to FILE\n"
			   "  -h, --help          this text\n"
			   "\nExample:\n  cmd --size 1m\n");
	free(text);
}

/* Help fits 80 columns: an option's help is refilled as a paragraph from column 22, a
 * paragraph of prose past 80 columns is refilled at its indent, and an example or a table line
 * stays as written. */
TEST(cli_help_fits_80_columns)
{
	int f = 0;
	const struct cli_option opts[] = {
		CLI_FLAG("flag", &f, CLI_HELP(NULL, "one two three four five six seven eight nine ten eleven twelve\n"
						     "thirteen fourteen")),
		CLI_END,
	};
	const struct cli_help h = {
		"usage: cmd\n\nAlpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi\n"
		"rho sigma.\n  short prose stays\n\nOptions:\n",
		opts,
		"\n  nodemark cmd --an-example-that-is-long-on-purpose --with-many-words --that-run-past-the-edge\n", 0
	};
	char *text = cli_help_text(&h);
	CHECK_EQ_STR(text, "usage: cmd\n\n"
			   "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron\n"
			   "pi rho sigma.\n"
			   "  short prose stays\n\nOptions:\n"
			   "  --flag              one two three four five six seven eight nine ten eleven\n"
			   "                      twelve thirteen fourteen\n"
			   "\n  nodemark cmd --an-example-that-is-long-on-purpose --with-many-words --that-run-past-the-edge\n");
	free(text);
}

TEST(cli_alias_is_the_same_option)
{
	const char *out = NULL;
	const struct cli_option opts[] = { CLI_STRING("output", &out, .alias = "o"), CLI_END };
	parse(opts, "-o a.txt");
	CHECK_EQ_STR(out, "a.txt");
	parse(opts, "--output=b.txt");
	CHECK_EQ_STR(out, "b.txt");
}

/* A value that takes the next words too, as hyperfine's -P NAME MIN MAX does. */
static void name_and_range(struct opt_iter *it, void *value)
{
	const char **v = value;
	v[0] = it->arg;
	for (int k = 1; k < 3; k++) {
		if (it->i >= it->argc)
			opt_bad_value(it, "expected NAME MIN MAX");
		v[k] = it->argv[it->i++];
	}
}

TEST(cli_words_and_text_take_what_a_string_does_not)
{
	const char *scan[3] = { NULL, NULL, NULL }, *setup = "x", *name = NULL;
	int flag = 0;
	const struct cli_option opts[] = {
		CLI_WORDS("scan", name_and_range, scan, .alias = "P"),
		CLI_TEXT("setup", &setup),
		CLI_STRING("name", &name),
		CLI_FLAG("tee", &flag),
		CLI_END,
	};
	char msg[256];
	parse(opts, "-P n 1 8 --tee --setup=");
	CHECK_EQ_STR(scan[0], "n");
	CHECK_EQ_STR(scan[1], "1");
	CHECK_EQ_STR(scan[2], "8");
	CHECK_EQ_INT(flag, 1); /* parsing goes on after the words taken */
	CHECK_EQ_STR(setup, ""); /* an empty command is a command */
	CHECK_EQ_INT(parse_in_child(opts, "--scan n 1", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "--scan: expected NAME MIN MAX");
	CHECK_EQ_INT(parse_in_child(opts, "--name=", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "--name: empty value");
}

TEST(cli_sections_head_groups_of_options_in_the_help)
{
	int f = 0;
	const struct cli_option opts[] = {
		CLI_SECTION("Runs:"),
		CLI_FLAG("tee", &f, CLI_HELP(NULL, "copy the output")),
		CLI_SECTION("Hooks:"),
		CLI_FLAG("N", &f, CLI_HELP(NULL, "no shell")),
		CLI_END,
	};
	const struct cli_help h = { "usage: cmd\n", opts, NULL, 0 };
	char *text = cli_help_text(&h);
	CHECK_EQ_STR(text, "usage: cmd\nRuns:\n  --tee               copy the output\nHooks:\n"
			   "  -N                  no shell\n");
	free(text);
	parse(opts, "-N"); /* a section is no option: the table still parses */
	CHECK_EQ_INT(f, 1);
}

static const char *go_table, *go_filter;
static double go_alpha;

static void go_prob(const struct opt_iter *it, void *value)
{
	char *end;
	*(double *)value = strtod(it->arg, &end);
	if (*end)
		opt_bad_value(it, "expected a number");
}

static const struct cli_option go_opts[] = {
	CLI_TEXT("table", &go_table, CLI_HELP("PROJ", "tables by PROJ")),
	CLI_TEXT("filter", &go_filter, CLI_HELP("QUERY", "only these")),
	CLI_CALL("alpha", go_prob, &go_alpha, CLI_HELP("A", "significance level")),
	CLI_END,
};

/* cli_parse_go_flags in a child: its exit status, and stderr in msg. */
static int go_in_child(const char *line, char *msg, size_t len)
{
	return run_in_child(1, go_opts, line, msg, len);
}

TEST(cli_go_flags_read_benchstat_command_lines)
{
	char **argv, msg[256];
	int argc = words("-table .name --alpha=0.01 -filter '' old.txt -alpha 0.5", &argv);
	int first = cli_parse_go_flags(argc, argv, go_opts);
	CHECK_EQ_STR(go_table, ".name");
	CHECK(go_alpha == 0.01);       /* flags end at the first input: the last -alpha is a file */
	CHECK_EQ_STR(go_filter, "''");
	CHECK_EQ_INT(first, 6);
	CHECK_EQ_STR(argv[first], "old.txt");
	argc = words("-alpha 0.2 -- -x.txt", &argv);
	first = cli_parse_go_flags(argc, argv, go_opts);
	CHECK_EQ_INT(first, 4);
	CHECK_EQ_STR(argv[first], "-x.txt");
	argc = words("-table x -help", &argv);
	CHECK_EQ_INT(cli_parse_go_flags(argc, argv, go_opts), -1);
	CHECK_EQ_INT(go_in_child("-tabel x a.txt", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "flag provided but not defined: -tabel");
	CHECK_EQ_INT(go_in_child("a.txt -alpha", msg, sizeof msg), 0); /* after an input: a file */
	CHECK_EQ_INT(go_in_child("-alpha", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "flag needs an argument: -alpha");
	CHECK_EQ_INT(go_in_child("--alpha=x", msg, sizeof msg), 2);
	CHECK_CONTAINS(msg, "-alpha: expected a number");
	const struct cli_help h = { "usage: cmd [flags] inputs...\n", go_opts, NULL, .go_flags = 1 };
	char *text = cli_help_text(&h);
	CHECK_EQ_STR(text, "usage: cmd [flags] inputs...\n"
			   "  -table PROJ         tables by PROJ\n"
			   "  -filter QUERY       only these\n"
			   "  -alpha A            significance level\n");
	free(text);
}
