/* `nodemark time`'s command line: hyperfine's options and syntax (-P NAME MIN MAX, -D,
 * -L NAME a,b,c, -N, --shell, --command-name, --output, --input, --time-unit, --sort, --style,
 * the exports) beside nodemark's own (--param NAME=a,b, --scan NAME=lo:hi, --interleave,
 * --timeout, --suite, -- CMD ARGS), read into a timing plan. */
#ifndef NM_CMD_TIME_ARGS_H
#define NM_CMD_TIME_ARGS_H

#include "cli/options.h"
#include "cli/run_opts.h"
#include "export/hyperfine.h"
#include "proc/params.h"
#include "proc/timing.h"

#define TIME_MAX_CMDS 256

/* hyperfine's --style: colour (color, full), none (basic, nocolor), or no report */
enum time_style { TIME_STYLE_AUTO, TIME_STYLE_PLAIN, TIME_STYLE_COLOR, TIME_STYLE_NONE };

struct time_args {
	struct time_plan plan;
	struct params params;
	struct run_opts ro;
	const char *shell_cmds[TIME_MAX_CMDS];
	size_t nshell;
	char **direct;          /* argv after --, or NULL */
	const char *names[TIME_MAX_CMDS];
	unsigned nnames;
	const char *setup, *cleanup;
	const char *prepares[TIME_MAX_CMDS], *concludes[TIME_MAX_CMDS];
	unsigned nprepares, nconcludes;
	const char *scan_name, *scan_lo, *scan_hi, *scan_step; /* hyperfine's -P and -D */
	const char *shell;      /* --shell; "none" or -N: no shell */
	int no_shell;
	const char *output, *input;
	const char *reference, *reference_name;
	enum hf_unit unit;
	enum hf_sort sort;
	int style;              /* --style: enum time_style */
	int json;               /* --json: hyperfine's JSON on stdout */
	int debug_mode;         /* --debug-mode: hyperfine's dry run, refused */
	size_t nsteps;          /* --step NAME=CMD: a pipeline, its steps in turn, one run each round */
	const char *steps_file; /* --steps FILE: the same steps as "name: command" lines */
	char *steps_text;       /* its text, which the steps' commands point into */
	/* a steps file's own hooks for step i (indented "prepare: CMD" lines), or NULL: used
	 * instead of the command line's hook of that kind for that step */
	const char *step_hooks[TIME_MAX_CMDS][4]; /* setup, prepare, conclude, cleanup */
	const char *export_json, *export_csv, *export_md, *export_adoc, *export_org;
};

/* The options, a table (cli/options.h) that points at the process's one struct time_args;
 * `nodemark time --help` is written from it. */
extern const struct cli_option time_options[];

/* Parses argv into that struct, *a (exits 2 on bad usage), and builds the plan: every command
 * with every parameter combination.  Returns 0, or NM_EXIT_USAGE after printing why (a
 * command not found). */
int time_args_parse(struct time_args **a, int argc, char **argv);
void time_args_free(struct time_args *a);

#endif
