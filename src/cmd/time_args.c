#include "cmd/time_args.h"
#include "util/error.h"
#include "util/opt.h"
#include "util/parse.h"
#include "util/shellwords.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	OPT_RUNS = 1, OPT_MIN_RUNS, OPT_MAX_RUNS, OPT_WARMUP, OPT_INTERLEAVE, OPT_TIMEOUT, OPT_IGNORE_FAILURE,
	OPT_SHOW_OUTPUT, OPT_SETUP, OPT_PREPARE, OPT_CONCLUDE, OPT_CLEANUP, OPT_PARAM, OPT_SCAN, OPT_PARAM_HF,
	OPT_SCAN_HF, OPT_STEP,
	OPT_NAME, OPT_SUITE, OPT_SHELL, OPT_NO_SHELL, OPT_OUTPUT, OPT_INPUT, OPT_TIME_UNIT, OPT_SORT, OPT_STYLE,
	OPT_REFERENCE, OPT_REFERENCE_NAME, OPT_MIN_TIME, OPT_JSON, OPT_DEBUG,
	OPT_EXPORT_JSON, OPT_EXPORT_CSV, OPT_EXPORT_MD, OPT_EXPORT_ADOC, OPT_EXPORT_ORG,
};

static const struct opt_spec specs[] = {
	{ "runs", OPT_ARG, OPT_RUNS }, { "r", OPT_ARG, OPT_RUNS },
	{ "min-runs", OPT_ARG, OPT_MIN_RUNS }, { "m", OPT_ARG, OPT_MIN_RUNS },
	{ "max-runs", OPT_ARG, OPT_MAX_RUNS }, { "M", OPT_ARG, OPT_MAX_RUNS },
	{ "warmup", OPT_ARG, OPT_WARMUP }, { "w", OPT_ARG, OPT_WARMUP },
	{ "interleave", OPT_NOARG, OPT_INTERLEAVE },
	{ "timeout", OPT_ARG, OPT_TIMEOUT },
	{ "ignore-failure", OPT_OPTARG, OPT_IGNORE_FAILURE }, { "i", OPT_NOARG, OPT_IGNORE_FAILURE },
	{ "show-output", OPT_NOARG, OPT_SHOW_OUTPUT },
	{ "setup", OPT_ARG, OPT_SETUP }, { "s", OPT_ARG, OPT_SETUP },
	{ "prepare", OPT_ARG, OPT_PREPARE }, { "p", OPT_ARG, OPT_PREPARE },
	{ "conclude", OPT_ARG, OPT_CONCLUDE }, { "C", OPT_ARG, OPT_CONCLUDE },
	{ "cleanup", OPT_ARG, OPT_CLEANUP }, { "c", OPT_ARG, OPT_CLEANUP },
	{ "param", OPT_ARG, OPT_PARAM }, { "parameter-list", OPT_ARG, OPT_PARAM_HF }, { "L", OPT_ARG, OPT_PARAM_HF },
	{ "scan", OPT_ARG, OPT_SCAN }, { "parameter-scan", OPT_ARG, OPT_SCAN_HF }, { "P", OPT_ARG, OPT_SCAN_HF },
	{ "parameter-step-size", OPT_ARG, OPT_STEP }, { "D", OPT_ARG, OPT_STEP },
	{ "name", OPT_ARG, OPT_NAME }, { "command-name", OPT_ARG, OPT_NAME }, { "n", OPT_ARG, OPT_NAME },
	{ "suite", OPT_ARG, OPT_SUITE },
	{ "shell", OPT_ARG, OPT_SHELL }, { "S", OPT_ARG, OPT_SHELL }, { "N", OPT_NOARG, OPT_NO_SHELL },
	{ "output", OPT_ARG, OPT_OUTPUT }, { "input", OPT_ARG, OPT_INPUT },
	{ "time-unit", OPT_ARG, OPT_TIME_UNIT }, { "u", OPT_ARG, OPT_TIME_UNIT },
	{ "sort", OPT_ARG, OPT_SORT }, { "style", OPT_ARG, OPT_STYLE },
	{ "reference", OPT_ARG, OPT_REFERENCE }, { "reference-name", OPT_ARG, OPT_REFERENCE_NAME },
	{ "min-benchmarking-time", OPT_ARG, OPT_MIN_TIME },
	{ "json", OPT_NOARG, OPT_JSON }, { "debug-mode", OPT_NOARG, OPT_DEBUG },
	{ "export-json", OPT_ARG, OPT_EXPORT_JSON }, { "export-csv", OPT_ARG, OPT_EXPORT_CSV },
	{ "export-markdown", OPT_ARG, OPT_EXPORT_MD }, { "export-asciidoc", OPT_ARG, OPT_EXPORT_ADOC },
	{ "export-orgmode", OPT_ARG, OPT_EXPORT_ORG },
	RUN_OPT_SPECS,
	{ 0 },
};

/* The next word of a multi-value option (hyperfine's -P NAME MIN MAX, -L NAME VALUES). */
static const char *next_value(struct opt_iter *it, const char *what)
{
	if (it->i >= it->argc)
		nm_usage_fail("%s: expected %s", it->name, what);
	return it->argv[it->i++];
}

static int choice(const struct opt_iter *it, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(it->arg, names[i]) == 0)
			return (int)i;
	char msg[256] = "expected one of:";
	for (size_t i = 0; i < n; i++)
		snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " %s", names[i]);
	opt_bad_value(it, msg);
}

/* -i, --ignore-failure: every non-zero exit; --ignore-failure=1,2: just those codes. */
static void ignore_failure(struct time_args *a, const struct opt_iter *it)
{
	if (!it->arg || strcmp(it->arg, "all-non-zero") == 0) {
		a->plan.ignore_failure = 1;
		return;
	}
	a->plan.ignore_failure = 2;
	for (const char *p = it->arg; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || (*end && *end != ',') || a->plan.nignore_codes == 64)
			opt_bad_value(it, "expected all-non-zero or exit codes like 1,2");
		a->plan.ignore_codes[a->plan.nignore_codes++] = (int)v;
		p = *end ? end + 1 : end;
	}
}

static void add_hook(const char **list, size_t *n, const struct opt_iter *it)
{
	if (*n == TIME_MAX_CMDS)
		nm_usage_fail("%s: at most %d", it->name, TIME_MAX_CMDS);
	list[(*n)++] = it->arg;
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

static void hyperfine_option(struct time_args *a, int id, struct opt_iter *it)
{
	static const char *units[] = { "second", "millisecond", "microsecond" };
	static const char *sorts[] = { "auto", "command", "mean-time" };
	static const char *styles[] = { "auto", "basic", "full", "nocolor", "color", "none" };
	switch (id) {
	case OPT_STEP: a->scan_step = it->arg; break;
	case OPT_SHELL: a->shell = it->arg; a->no_shell = strcmp(it->arg, "none") == 0; break;
	case OPT_NO_SHELL: a->no_shell = 1; break;
	case OPT_OUTPUT: a->output = it->arg; break;
	case OPT_INPUT: a->input = it->arg; break;
	case OPT_TIME_UNIT: a->unit = (enum hf_unit)(choice(it, units, 3) + 1); break;
	case OPT_SORT: a->sort = (enum hf_sort)choice(it, sorts, 3); break;
	case OPT_STYLE: a->style_none = choice(it, styles, 6) == 5; break;
	case OPT_REFERENCE: a->reference = it->arg; break;
	case OPT_REFERENCE_NAME: a->reference_name = it->arg; break;
	case OPT_MIN_TIME: {
		char *end;
		a->plan.auto_seconds = strtod(it->arg, &end);
		if (*end || !(a->plan.auto_seconds > 0))
			opt_bad_value(it, "expected seconds above 0, like 3 or 0.5");
		break;
	}
	case OPT_JSON: a->json = 1; break;
	case OPT_DEBUG: nm_usage_fail("--debug-mode: not supported (nodemark always runs the commands)");
	case OPT_EXPORT_JSON: a->export_json = opt_output_file(it); break;
	case OPT_EXPORT_CSV: a->export_csv = opt_output_file(it); break;
	case OPT_EXPORT_MD: a->export_md = opt_output_file(it); break;
	case OPT_EXPORT_ADOC: a->export_adoc = opt_output_file(it); break;
	case OPT_EXPORT_ORG: a->export_org = opt_output_file(it); break;
	}
}

static void one_option(struct time_args *a, int id, struct opt_iter *it)
{
	char err[256];
	switch (id) {
	case OPT_RUNS: a->plan.runs = opt_count(it, 1, 1000000000ull); break;
	case OPT_MIN_RUNS: a->plan.min_runs = opt_count(it, 1, 1000000000ull); break;
	case OPT_MAX_RUNS: a->plan.max_runs = opt_count(it, 1, 1000000000ull); break;
	case OPT_WARMUP: a->plan.warmup = opt_count(it, 0, 1000000000ull); break;
	case OPT_INTERLEAVE: a->plan.interleave = 1; break;
	case OPT_IGNORE_FAILURE: ignore_failure(a, it); break;
	case OPT_SHOW_OUTPUT: a->plan.show_output = 1; break;
	case OPT_TIMEOUT:
		if (parse_duration(it->arg, 1000000000ull, &a->plan.timeout_ns, err, sizeof err) < 0)
			opt_bad_value(it, err);
		if (a->plan.timeout_ns == 0)
			opt_bad_value(it, "expected a duration above 0, like 30s or 5m");
		break;
	case OPT_SETUP: a->setup = it->arg; break;
	case OPT_PREPARE: add_hook(a->prepares, &a->nprepares, it); break;
	case OPT_CONCLUDE: add_hook(a->concludes, &a->nconcludes, it); break;
	case OPT_CLEANUP: a->cleanup = it->arg; break;
	case OPT_PARAM: param_option(a, it, 0, 0); break;
	case OPT_SCAN: param_option(a, it, 1, 0); break;
	case OPT_PARAM_HF: param_option(a, it, 0, 1); break;
	case OPT_SCAN_HF: param_option(a, it, 1, 1); break;
	case OPT_NAME: add_hook(a->names, &a->nnames, it); break;
	case OPT_SUITE:
		if (!*it->arg)
			opt_bad_value(it, "empty value: expected a suite name");
		a->plan.suite = it->arg;
		break;
	case OPT_POSITIONAL:
		if (!*it->arg)
			nm_usage_fail("an empty command");
		if (a->nshell == TIME_MAX_CMDS)
			nm_usage_fail("at most %d commands", TIME_MAX_CMDS);
		a->shell_cmds[a->nshell++] = it->arg;
		break;
	case OPT_DASHDASH:
		if (it->i >= it->argc)
			nm_usage_fail("--: expected a command after it");
		a->direct = it->argv + it->i;
		it->i = it->argc;
		break;
	default: hyperfine_option(a, id, it); break;
	}
}

static void check_args(struct time_args *a)
{
	char err[256], spec[512];
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
	if (!a->direct && !a->nshell)
		nm_usage_fail("no command to time (e.g. nodemark time -- sleep 1, or nodemark time 'cmd one' 'cmd two')");
	size_t ncmds = (a->direct ? 1 : a->nshell) + (a->reference != NULL);
	if (a->nnames > ncmds)
		nm_usage_fail("--command-name: %zu names for %zu command%s", a->nnames, ncmds, ncmds == 1 ? "" : "s");
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

/* What one template runs for combination c: its argv and text; 1 when through the shell. */
static int command_argv(struct time_args *a, const char *tmpl, char **direct, size_t c, char ***argv_out,
			char **text_out, char *err, size_t errlen)
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
			argv[i] = params_substitute(&a->params, c, direct[i]);
			if (i)
				sb_add(&sb, " ", 1);
			quote_word(&sb, argv[i]);
		}
		*argv_out = argv;
		*text_out = sb_detach(&sb);
		return 0;
	}
	char *text = params_substitute(&a->params, c, tmpl);
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

static int build_plan(struct time_args *a)
{
	char err[512];
	size_t ncombo = params_combinations(&a->params), nuser = a->direct ? 1 : a->nshell;
	size_t nref = a->reference != NULL;
	for (size_t t = 0; t < nref + nuser; t++)
		for (size_t c = 0; c < ncombo; c++) {
			int is_ref = t < nref;
			size_t u = t - nref; /* index among the user's commands */
			json_t *pj = json_object();
			for (size_t k = 0; k < a->params.naxes; k++)
				json_object_set_new(pj, a->params.axes[k].name, json_string(params_value(&a->params, c, k)));
			const char *nt = is_ref ? a->reference_name : u < a->nnames ? a->names[u] : NULL;
			char *name = nt ? params_substitute(&a->params, c, nt) : NULL;
			char **argv, *text;
			int shell = command_argv(a, is_ref ? a->reference : a->shell_cmds[u], is_ref ? NULL : a->direct, c,
						 &argv, &text, err, sizeof err);
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
			const char *prep = hook_for(a->prepares, a->nprepares, t);
			const char *conc = hook_for(a->concludes, a->nconcludes, t);
			tc->setup = a->setup ? params_substitute(&a->params, c, a->setup) : NULL;
			tc->prepare = prep ? params_substitute(&a->params, c, prep) : NULL;
			tc->conclude = conc ? params_substitute(&a->params, c, conc) : NULL;
			tc->cleanup = a->cleanup ? params_substitute(&a->params, c, a->cleanup) : NULL;
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
	char *path = a->plan.shell ? run_resolve(a->plan.shell[0], err, sizeof err) : NULL;
	if (!path) {
		nm_error("--shell: %s", err);
		return -1;
	}
	free(a->plan.shell[0]);
	a->plan.shell[0] = path;
	return 0;
}

int time_args_parse(struct time_args *a, int argc, char **argv)
{
	struct opt_iter it;
	memset(a, 0, sizeof *a);
	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;)
		if (!run_opts_handle(&a->ro, id, &it))
			one_option(a, id, &it);
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
	shellwords_free(a->plan.shell);
	a->plan.shell = NULL;
	if (a->plan.has_in_fd)
		close(a->plan.in_fd);
	if (a->plan.has_out_fd)
		close(a->plan.out_fd);
}
