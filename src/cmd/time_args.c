#include "cmd/time_args.h"
#include "cli/output.h"
#include "cli/store_open.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/shellwords.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The one command line of the process: the option table points at it. */
static struct time_args parsed;

/* The next word of a multi-value option (hyperfine's -P NAME MIN MAX, -L NAME VALUES). */
static const char *next_value(struct opt_iter *it, const char *what)
{
	if (it->i >= it->argc)
		nm_usage_fail("%s: expected %s", it->name, what);
	return it->argv[it->i++];
}

/* -i, --ignore-failure: every non-zero exit; --ignore-failure=1,2: just those codes. */
static void ignore_failure(const struct opt_iter *it, void *plan)
{
	struct time_plan *p = plan;
	if (!it->arg || strcmp(it->arg, "all-non-zero") == 0) {
		p->ignore_failure = 1;
		return;
	}
	p->ignore_failure = 2;
	for (const char *s = it->arg; *s;) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || (*end && *end != ',') || p->nignore_codes == 64)
			opt_bad_value(it, "expected all-non-zero or exit codes like 1,2");
		p->ignore_codes[p->nignore_codes++] = (int)v;
		s = *end ? end + 1 : end;
	}
}

/* hyperfine's spelling (-L NAME VALUES, -P NAME MIN MAX) when hf and the first word has no '=';
 * nodemark's NAME=a,b / NAME=lo:hi[:step] otherwise. */
static void param_option(struct time_args *a, struct opt_iter *it, int scan, int hf)
{
	char err[256], spec[1024];
	if (hf && !scan && !strchr(it->arg, '=')) { /* hyperfine: -L NAME a,b,c */
		const char *values = next_value(it, "NAME and comma-separated VALUES");
		snprintf(spec, sizeof spec, "%s=%s", it->arg, values);
		if (params_add_list(&a->params, spec, err, sizeof err) < 0)
			opt_bad_value(it, err);
		return;
	}
	if (hf && scan && !strchr(it->arg, '=')) { /* hyperfine: -P NAME MIN MAX (step: -D) */
		if (a->scan_name)
			nm_usage_fail("%s: one NAME MIN MAX scan (more: --scan NAME=lo:hi[:step])", it->name);
		a->scan_name = it->arg;
		a->scan_lo = next_value(it, "NAME MIN MAX");
		a->scan_hi = next_value(it, "NAME MIN MAX");
		return;
	}
	int rc = scan ? params_add_scan(&a->params, it->arg, err, sizeof err)
		      : params_add_list(&a->params, it->arg, err, sizeof err);
	if (rc < 0)
		opt_bad_value(it, err);
}

static void take_parameter_scan(struct opt_iter *it, void *a)
{
	param_option(a, it, 1, 1);
}

static void take_parameter_list(struct opt_iter *it, void *a)
{
	param_option(a, it, 0, 1);
}

static void take_scan(struct opt_iter *it, void *a)
{
	param_option(a, it, 1, 0);
}

static void take_param(struct opt_iter *it, void *a)
{
	param_option(a, it, 0, 0);
}

/* --shell SHELL: its words are resolved after parsing; "none" is -N. */
static void take_shell(const struct opt_iter *it, void *args)
{
	struct time_args *a = args;
	a->shell = it->arg;
	a->no_shell = strcmp(it->arg, "none") == 0;
}

static void min_time(const struct opt_iter *it, void *seconds)
{
	char *end;
	double s = strtod(it->arg, &end);
	if (*end || !(s > 0))
		opt_bad_value(it, "expected seconds above 0, like 3 or 0.5");
	*(double *)seconds = s;
}

/* A quoted command: run with the shell (or split with -N). */
static void add_command(const char *word, void *args)
{
	struct time_args *a = args;
	if (!*word)
		nm_usage_fail("an empty command");
	if (a->nshell == TIME_MAX_CMDS)
		nm_usage_fail("at most %d commands", TIME_MAX_CMDS);
	a->shell_cmds[a->nshell++] = word;
}

static void add_step(struct time_args *a, const char *name, size_t len, const char *cmd)
{
	if (a->nshell == TIME_MAX_CMDS)
		nm_usage_fail("at most %d steps", TIME_MAX_CMDS);
	if (a->nnames != a->nshell)
		nm_usage_fail("--step: give the steps alone (their names are in NAME=CMD)");
	a->names[a->nnames++] = xstrndup(name, len);
	a->shell_cmds[a->nshell++] = cmd;
	a->nsteps++;
}

/* --step NAME=CMD: a named command of a pipeline; the steps run in turn, as one run. */
static void take_step(const struct opt_iter *it, void *args)
{
	const char *eq = strchr(it->arg, '=');
	if (!eq || eq == it->arg || !eq[1])
		opt_bad_value(it, "expected NAME=CMD, like bwa='bwa mem ref.fa reads.fq'");
	add_step(args, it->arg, (size_t)(eq - it->arg), eq + 1);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* A steps file's hook line "  KEY: CMD" (indented, under its step): the hook of that kind
 * for the step above.  Returns 0, or -1 with why in err. */
static const char *const hook_keys[] = { "setup", "prepare", "conclude", "cleanup" };

static int step_hook(struct time_args *a, size_t first, const char *key, size_t n, const char *cmd, char *err,
		     size_t errlen)
{
	int k = -1;
	for (int i = 0; i < 4; i++)
		if (strlen(hook_keys[i]) == n && strncmp(key, hook_keys[i], n) == 0)
			k = i;
	if (k < 0) {
		snprintf(err, errlen, "an indented line is a hook of the step above: setup:, prepare:, conclude: "
				      "or cleanup:");
		return -1;
	}
	if (a->nsteps == first) {
		snprintf(err, errlen, "'%s:' before any step (a hook is indented under its step)", hook_keys[k]);
		return -1;
	}
	const char **h = &a->step_hooks[a->nsteps - 1][k];
	if (*h) {
		snprintf(err, errlen, "a second '%s:' for step '%s'", hook_keys[k], a->names[a->nnames - 1]);
		return -1;
	}
	*h = cmd;
	return 0;
}

/* --steps FILE: the same steps as lines "name: command" ('#' comments and blank lines
 * skipped), so a long pipeline is written once and kept beside its data; an indented
 * "prepare: CMD" (setup, conclude, cleanup) under a step is that step's own hook.  The
 * commands point into the file's text, kept until time_args_free. */
static void take_steps_file(const struct opt_iter *it, void *args)
{
	struct time_args *a = args;
	if (a->steps_text)
		nm_usage_fail("--steps: give one steps file (more steps go with --step NAME=CMD)");
	size_t len;
	char *text = storecmd_read_file(it->arg, &len);
	if (!text)
		exit(NM_EXIT_USAGE);
	if (strlen(text) != len)
		nm_usage_fail("--steps: %s: a NUL byte: not a text file", it->arg);
	a->steps_text = text;
	a->steps_file = it->arg;
	size_t before = a->nsteps;
	unsigned lineno = 0;
	char err[160];
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		int indented = *line == ' ' || *line == '\t';
		char *l = trim(line);
		if (!*l || *l == '#')
			continue;
		char *colon = strchr(l, ':');
		char *name = l, *cmd = colon ? trim(colon + 1) : NULL;
		size_t n = colon ? (size_t)(colon - l) : 0;
		while (n && (name[n - 1] == ' ' || name[n - 1] == '\t'))
			n--;
		if (!colon || !n || !*cmd || strcspn(name, " \t") < n)
			nm_usage_fail("--steps: %s:%u: expected '%s: command' (a name without blanks, a colon, "
				      "then the command)", it->arg, lineno, indented ? "hook" : "name");
		if (!indented)
			add_step(a, name, n, cmd);
		else if (step_hook(a, before, name, n, cmd, err, sizeof err) < 0)
			nm_usage_fail("--steps: %s:%u: %s", it->arg, lineno, err);
	}
	if (a->nsteps == before)
		nm_usage_fail("--steps: %s: no steps (one 'name: command' per line)", it->arg);
}

static const struct cli_choice units[] = {
	{ "second", HF_UNIT_SECOND }, { "millisecond", HF_UNIT_MILLI }, { "microsecond", HF_UNIT_MICRO }, { NULL, 0 },
};
static const struct cli_choice sorts[] = {
	{ "auto", HF_SORT_AUTO }, { "command", HF_SORT_COMMAND }, { "mean-time", HF_SORT_MEAN }, { NULL, 0 },
};
static const struct cli_choice styles[] = { /* hyperfine's styles: colour or not, or no report */
	{ "auto", TIME_STYLE_AUTO }, { "basic", TIME_STYLE_PLAIN }, { "full", TIME_STYLE_COLOR },
	{ "nocolor", TIME_STYLE_PLAIN }, { "color", TIME_STYLE_COLOR }, { "none", TIME_STYLE_NONE }, { NULL, 0 },
};

#define MAX_COUNT 1000000000ull

const struct cli_option time_options[] = {
	CLI_SECTION("Runs:"),
	CLI_COUNT("runs", &parsed.plan.runs, 1, MAX_COUNT, .alias = "r", CLI_HELP("N", "exactly N runs of each command")),
	CLI_COUNT("min-runs", &parsed.plan.min_runs, 1, MAX_COUNT, .alias = "m",
		  CLI_HELP("N", "at least N runs (default 10); the count is automatic: about 3 s of runs")),
	CLI_COUNT("max-runs", &parsed.plan.max_runs, 1, MAX_COUNT, .alias = "M",
		  CLI_HELP("N", "at most N runs (default: no limit)")),
	CLI_CALL("min-benchmarking-time", min_time, &parsed.plan.auto_seconds,
		 CLI_HELP("S", "the automatic count aims at S seconds (default 3)")),
	CLI_COUNT("warmup", &parsed.plan.warmup, 0, MAX_COUNT, .alias = "w",
		  CLI_HELP("N", "N unmeasured runs of each command first (default 0)")),
	CLI_CALL("step", take_step, &parsed,
		 CLI_HELP("NAME=CMD", "a step of a pipeline (repeatable, in order): each run times the\n"
				      "steps in turn, a row per step and a total (default 1 run)")),
	CLI_CALL("steps", take_steps_file, &parsed,
		 CLI_HELP("FILE", "the steps from FILE, one 'name: command' per line ('#' comments);\n"
				  "an indented 'prepare: CMD' (setup, conclude, cleanup) under a\n"
				  "step is that step's own hook")),
	CLI_FLAG("interleave", &parsed.plan.interleave,
		 CLI_HELP(NULL, "run the commands in turn (A B A B ...) so slow drift hits all alike")),
	CLI_DURATION("timeout", &parsed.plan.timeout_ns, .min = 1, .bad = "expected a duration above 0, like 30s or 5m",
		     CLI_HELP("DUR", "kill a run after DUR (e.g. 30s, 5m); a killed run is a failed run")),
	CLI_CALL("ignore-failure", ignore_failure, &parsed.plan, .alias = "i", .optional_value = 1,
		 CLI_HELP("[=CODES]", "keep timing commands that exit non-zero (or only these codes)")),
	CLI_CALL("shell", take_shell, &parsed, .alias = "S",
		 CLI_HELP("SHELL", "run the commands with another shell (--shell zsh); none: no shell")),
	CLI_FLAG("N", &parsed.no_shell, CLI_HELP(NULL, "no shell: the words of each command run directly")),
	CLI_STRING("output", &parsed.output,
		   CLI_HELP("WHERE", "null (default), pipe, inherit, or a FILE for the commands' output")),
	CLI_FLAG("show-output", &parsed.plan.show_output, CLI_HELP(NULL, "the same as --output inherit")),
	CLI_STRING("input", &parsed.input, CLI_HELP("WHERE", "null (default) or a FILE to read as the commands' input")),
	CLI_TEXT("reference", &parsed.reference, CLI_HELP("CMD", "time CMD first and compare the others with it")),
	CLI_TEXT("reference-name", &parsed.reference_name, CLI_HELP("NAME", "the name of the --reference command")),
	CLI_SECTION("Hooks (shell commands, not timed; a failing hook stops everything):"),
	CLI_TEXT("setup", &parsed.setup, .alias = "s", CLI_HELP("CMD", "once before the runs of each command")),
	CLI_LIST("prepare", parsed.prepares, &parsed.nprepares, TIME_MAX_CMDS, .alias = "p",
		 CLI_HELP("CMD", "before every run (warmups included); once, or once per command")),
	CLI_LIST("conclude", parsed.concludes, &parsed.nconcludes, TIME_MAX_CMDS, .alias = "C",
		 CLI_HELP("CMD", "after every run; once, or once per command")),
	CLI_TEXT("cleanup", &parsed.cleanup, .alias = "c", CLI_HELP("CMD", "once after the runs of each command")),
	CLI_SECTION("Parameters (substituted for {NAME} in commands, names and hooks; several\n"
		    "give every combination):"),
	CLI_WORDS("parameter-scan", take_parameter_scan, &parsed, .alias = "P",
		  CLI_HELP("NAME MIN MAX", "each number from MIN to MAX")),
	CLI_TEXT("parameter-step-size", &parsed.scan_step, .alias = "D",
		 CLI_HELP("DELTA", "the step of -P's numbers (default 1)")),
	CLI_WORDS("parameter-list", take_parameter_list, &parsed, .alias = "L",
		  CLI_HELP("NAME a,b,c", "each listed value")),
	CLI_WORDS("scan", take_scan, &parsed, CLI_HELP("NAME=lo:hi[:step]", "the same as -P, repeatable")),
	CLI_WORDS("param", take_param, &parsed, CLI_HELP("NAME=a,b,c", "the same as -L, repeatable")),
	CLI_SECTION("Naming and output:"),
	CLI_LIST("command-name", parsed.names, &parsed.nnames, TIME_MAX_CMDS, .alias = "n",
		 CLI_HELP("NAME", "name the next command (repeatable, in order; may use {NAME})")),
	CLI_LIST("name", parsed.names, &parsed.nnames, TIME_MAX_CMDS, CLI_HELP("NAME", "the same as --command-name")),
	CLI_STRING("suite", &parsed.plan.suite, .bad = "empty value: expected a suite name",
		   CLI_HELP("NAME", "group this run with the other steps of a pipeline (tag suite=NAME)")),
	CLI_ENUM("time-unit", &parsed.unit, units, .alias = "u",
		 CLI_HELP("UNIT", "second, millisecond or microsecond for the report and tables")),
	CLI_ENUM("sort", &parsed.sort, sorts,
		 CLI_HELP("METHOD", "auto (summary by time, tables by command), command, mean-time")),
	CLI_ENUM("style", &parsed.style, styles,
		 CLI_HELP("TYPE", "auto, basic, full, nocolor, color, or none (no report)")),
	CLI_FLAG("json", &parsed.json, CLI_HELP(NULL, "hyperfine's JSON on stdout (the report goes to stderr)")),
	CLI_OUTPUT("export-json", &parsed.export_json,
		   CLI_HELP("FILE", "hyperfine's JSON (plus memory, faults, I/O); - for stdout")),
	CLI_OUTPUT("export-csv", &parsed.export_csv, CLI_HELP("FILE", "hyperfine's CSV")),
	CLI_OUTPUT("export-markdown", &parsed.export_md, CLI_HELP("FILE", "hyperfine's Markdown table")),
	CLI_OUTPUT("export-asciidoc", &parsed.export_adoc, CLI_HELP("FILE", "hyperfine's AsciiDoc table")),
	CLI_OUTPUT("export-orgmode", &parsed.export_org, CLI_HELP("FILE", "hyperfine's Org-mode table")),
	CLI_FLAG("debug-mode", &parsed.debug_mode,
		 CLI_HELP(NULL, "hyperfine's dry run: refused (nodemark always runs the commands)")),
	CLI_RUN_OPTIONS(&parsed.ro),
	CLI_REST(&parsed.direct),
	CLI_END,
};

static void check_args(struct time_args *a)
{
	char err[256], spec[512];
	if (a->debug_mode)
		nm_usage_fail("--debug-mode: not supported (nodemark always runs the commands)");
	if (a->scan_name) {
		snprintf(spec, sizeof spec, "%s=%s:%s%s%s", a->scan_name, a->scan_lo, a->scan_hi, a->scan_step ? ":" : "",
			 a->scan_step ? a->scan_step : "");
		if (params_add_scan(&a->params, spec, err, sizeof err) < 0)
			nm_usage_fail("--parameter-scan: %s", err);
	} else if (a->scan_step) {
		nm_usage_fail("-D/--parameter-step-size: needs -P/--parameter-scan NAME MIN MAX");
	}
	if (a->direct && a->nshell)
		nm_usage_fail("give either quoted commands or one command after --, not both");
	if (a->nsteps) {
		if (a->nsteps != a->nshell || a->nnames != a->nsteps)
			nm_usage_fail("--step: give the steps alone, without other commands or --command-name");
		if (a->reference || a->params.naxes || a->plan.min_runs || a->plan.max_runs || a->plan.warmup)
			nm_usage_fail("--step: a pipeline takes --runs N (not --reference, parameters, --min-runs, "
				      "--max-runs or --warmup)");
		a->plan.interleave = 1; /* each round runs the steps in order */
		if (!a->plan.runs)
			a->plan.runs = 1;
	}
	if (!a->direct && !a->nshell)
		nm_usage_fail("no command to time (e.g. nodemark time -- sleep 1, or nodemark time 'cmd one' 'cmd two')");
	size_t ncmds = (a->direct ? 1 : a->nshell) + (a->reference != NULL);
	if (a->nnames > ncmds)
		nm_usage_fail("--command-name: %u names for %zu command%s", a->nnames, ncmds, ncmds == 1 ? "" : "s");
	const size_t counts[] = { a->nprepares, a->nconcludes };
	for (int k = 0; k < 2; k++)
		if (counts[k] > 1 && counts[k] != ncmds)
			nm_usage_fail("--%s: give it once, or once per command (%zu)", k ? "conclude" : "prepare", ncmds);
	if (a->plan.runs && (a->plan.min_runs || a->plan.max_runs))
		nm_usage_fail("--runs cannot be combined with --min-runs or --max-runs");
	if (a->plan.min_runs && a->plan.max_runs && a->plan.min_runs > a->plan.max_runs)
		nm_usage_fail("--min-runs %llu is above --max-runs %llu", (unsigned long long)a->plan.min_runs,
			      (unsigned long long)a->plan.max_runs);
	if (!a->plan.min_runs)
		a->plan.min_runs = a->plan.max_runs && a->plan.max_runs < 10 ? a->plan.max_runs : 10;
	int to_stdout = a->json;
	const char *exports[] = { a->export_json, a->export_csv, a->export_md, a->export_adoc, a->export_org };
	for (int i = 0; i < 5; i++)
		to_stdout += exports[i] && strcmp(exports[i], "-") == 0;
	if (to_stdout > 1)
		nm_usage_fail("only one export can go to stdout (-, or --json)");
	if (a->plan.show_output && a->output)
		nm_usage_fail("--show-output and --output: give one");
	if (!a->plan.auto_seconds)
		a->plan.auto_seconds = 3.0;
}

/* A word as a shell would need it typed. */
static void quote_word(struct strbuf *sb, const char *w)
{
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == strlen(w)) {
		sb_puts(sb, w);
		return;
	}
	sb_add(sb, "'", 1);
	for (; *w; w++) {
		if (*w == '\'')
			sb_puts(sb, "'\\''");
		else
			sb_add(sb, w, 1);
	}
	sb_add(sb, "'", 1);
}

/* --output pipe: the commands write into a pipe that a thread drains, as hyperfine does so
 * that programs which notice /dev/null (grep) do their real work. */
static void *drain(void *arg)
{
	char buf[65536];
	int fd = (int)(intptr_t)arg;
	while (read(fd, buf, sizeof buf) > 0 || errno == EINTR)
		;
	return NULL;
}

static int open_streams(struct time_args *a)
{
	if (a->output && strcmp(a->output, "null") != 0) {
		if (strcmp(a->output, "inherit") == 0) {
			a->plan.show_output = 1;
		} else if (strcmp(a->output, "pipe") == 0) {
			int p[2];
			pthread_t t;
			if (pipe2(p, O_CLOEXEC) < 0 || pthread_create(&t, NULL, drain, (void *)(intptr_t)p[0]) != 0) {
				nm_error("--output pipe: %s", strerror(errno));
				return -1;
			}
			pthread_detach(t);
			a->plan.has_out_fd = 1;
			a->plan.out_fd = p[1];
		} else {
			int fd = open(a->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
			if (fd < 0) {
				nm_error("--output %s: %s", a->output, strerror(errno));
				return -1;
			}
			a->plan.has_out_fd = 1;
			a->plan.out_fd = fd;
		}
	}
	if (a->input && strcmp(a->input, "null") != 0) {
		int fd = open(a->input, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			nm_error("--input %s: %s", a->input, strerror(errno));
			return -1;
		}
		a->plan.has_in_fd = 1;
		a->plan.in_fd = fd;
	}
	return 0;
}

/* What one template runs for combination c of pp: its argv and text; 1 when through the shell. */
static int command_argv(struct time_args *a, const struct params *pp, const char *tmpl, char **direct, size_t c,
			char ***argv_out, char **text_out, char *err, size_t errlen)
{
	struct strbuf sb;
	if (direct) {
		size_t argc = 0;
		while (direct[argc])
			argc++;
		char **argv = calloc(argc + 1, sizeof *argv);
		if (!argv)
			abort();
		sb_init(&sb);
		for (size_t i = 0; i < argc; i++) {
			argv[i] = params_substitute(pp, c, direct[i]);
			if (i)
				sb_add(&sb, " ", 1);
			quote_word(&sb, argv[i]);
		}
		*argv_out = argv;
		*text_out = sb_detach(&sb);
		return 0;
	}
	char *text = params_substitute(pp, c, tmpl);
	*text_out = text;
	if (a->no_shell) { /* -N: the words of the string, run directly */
		*argv_out = shellwords_split(text, err, errlen);
		return *argv_out ? 0 : -1;
	}
	size_t n = 0;
	while (a->plan.shell && a->plan.shell[n])
		n++;
	char **argv = calloc(n + 4, sizeof *argv);
	if (!argv)
		abort();
	if (n == 0)
		argv[n++] = strdup("/bin/sh");
	else
		for (size_t i = 0; i < n; i++)
			argv[i] = strdup(a->plan.shell[i]);
	argv[n++] = strdup("-c");
	argv[n++] = strdup(text);
	*argv_out = argv;
	return 1;
}

static const char *hook_for(const char *const *list, size_t n, size_t t)
{
	return n == 0 ? NULL : n == 1 ? list[0] : list[t];
}

/* The command as written, its parameters unsubstituted ("sleep 0.0{n}"): the row a comparison
 * over a parameter (compare --col n) puts its values side by side in. */
static char *command_template(const struct time_args *a, const char *name, const char *shell_cmd)
{
	if (name || shell_cmd)
		return strdup(name ? name : shell_cmd);
	struct strbuf sb;
	sb_init(&sb);
	for (size_t i = 0; a->direct[i]; i++) {
		if (i)
			sb_add(&sb, " ", 1);
		sb_add(&sb, a->direct[i], strlen(a->direct[i]));
	}
	return sb_detach(&sb);
}

static int build_plan(struct time_args *a)
{
	char err[512];
	size_t ncombo = params_combinations(&a->params), nuser = a->direct ? 1 : a->nshell;
	size_t nref = a->reference != NULL;
	const struct params none = { 0 };
	for (size_t t = 0; t < nref + nuser; t++)
		/* The reference takes no parameters: it runs once, as benchmark 1 (hyperfine's way). */
		for (size_t c = 0; c < (t < nref ? 1 : ncombo); c++) {
			int is_ref = t < nref;
			const struct params *pp = is_ref ? &none : &a->params;
			size_t u = t - nref; /* index among the user's commands */
			json_t *pj = json_object();
			for (size_t k = 0; k < pp->naxes; k++)
				json_object_set_new(pj, pp->axes[k].name, json_string(params_value(pp, c, k)));
			const char *nt = is_ref ? a->reference_name : u < a->nnames ? a->names[u] : NULL;
			char *name = nt ? params_substitute(pp, c, nt) : NULL;
			char **argv, *text;
			int shell = command_argv(a, pp, is_ref ? a->reference : a->shell_cmds[u], is_ref ? NULL : a->direct,
						 c, &argv, &text, err, sizeof err);
			int rc = shell < 0 ? -1 : time_plan_add(&a->plan, name, text, argv, shell, pj, err, sizeof err);
			if (shell >= 0)
				shellwords_free(argv);
			free(name);
			free(text);
			json_decref(pj);
			if (rc < 0) {
				nm_error("%s", err);
				return NM_EXIT_USAGE;
			}
			struct time_command *tc = &a->plan.cmds[a->plan.ncmds - 1];
			if (a->params.naxes)
				tc->template = command_template(a, nt, is_ref ? a->reference : a->direct ? NULL : a->shell_cmds[u]);
			const char *hook[4] = { a->setup, hook_for(a->prepares, a->nprepares, t),
						hook_for(a->concludes, a->nconcludes, t), a->cleanup };
			for (int k = 0; k < 4; k++) /* a steps file's own hook for this step wins */
				if (!is_ref && u < a->nsteps && a->step_hooks[u][k])
					hook[k] = a->step_hooks[u][k];
			tc->setup = hook[0] ? params_substitute(pp, c, hook[0]) : NULL;
			tc->prepare = hook[1] ? params_substitute(pp, c, hook[1]) : NULL;
			tc->conclude = hook[2] ? params_substitute(pp, c, hook[2]) : NULL;
			tc->cleanup = hook[3] ? params_substitute(pp, c, hook[3]) : NULL;
		}
	return 0;
}

/* --shell: its words, the program found on $PATH once. */
static int resolve_shell(struct time_args *a)
{
	char err[512];
	if (!a->shell || a->no_shell)
		return 0;
	a->plan.shell = shellwords_split(a->shell, err, sizeof err);
	char *path = a->plan.shell ? spawn_resolve(a->plan.shell[0], err, sizeof err) : NULL;
	if (!path) {
		nm_error("--shell: %s", err);
		return -1;
	}
	free(a->plan.shell[0]);
	a->plan.shell[0] = path;
	return 0;
}

int time_args_parse(struct time_args **out, int argc, char **argv)
{
	struct time_args *a = *out = &parsed;
	cli_parse("time", argc, argv, time_options, add_command, a);
	cli_outputs_check(time_options, &a->steps_file, a->steps_file ? 1 : 0, a->ro.db);
	check_args(a);
	a->plan.iteration_env = 1;
	hyperfine_set_style(a->unit, a->sort, a->reference != NULL);
	if (resolve_shell(a) < 0 || open_streams(a) < 0)
		return NM_EXIT_USAGE;
	return build_plan(a);
}

void time_args_free(struct time_args *a)
{
	time_plan_free(&a->plan);
	params_free(&a->params);
	run_opts_free(&a->ro);
	for (size_t i = 0; i < a->nsteps; i++) /* a step's name was cut from its NAME=CMD */
		free((char *)a->names[i]);
	free(a->steps_text);
	a->steps_text = NULL;
	shellwords_free(a->plan.shell);
	a->plan.shell = NULL;
	if (a->plan.has_in_fd)
		close(a->plan.in_fd);
	if (a->plan.has_out_fd)
		close(a->plan.out_fd);
}
