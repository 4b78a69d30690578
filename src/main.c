/* nodemark: know what your machine can do. Measure it, keep the result, compare it later.
 *
 * main() finds the subcommand in the table below and hands it argv from the command name on
 * (git's builtin/ pattern).  Help and version are handled here so every command gets them. */
#include "cli/completion.h"
#include "cli/help.h"
#include "cli/options.h"
#include "cmd/cmd.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/opt.h"
#ifdef NODEMARK_MPI
#include "mpi/mpi.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage;            /* a TEXT help */
	const struct cli_help *help;  /* or one written from the option table */
};

#define USAGE_TEXT(name) cmd_##name##_usage, NULL
#define USAGE_TABLE(name) NULL, &cmd_##name##_help
#define TABLE_ENTRY(name, help, summary) { #name, cmd_##name, summary, USAGE_##help(name) },
static const struct command commands[] = { COMMANDS(TABLE_ENTRY) };
#undef TABLE_ENTRY

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_help(FILE *out)
{
	fprintf(out, "usage: nodemark <command> [options]\n\n"
		     "Know what your machine can do: measure it, keep the result, compare it later.\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'nodemark help <command>' or 'nodemark <command> --help' shows its options.\n"
		     "'nodemark --version' prints the version; 'nodemark completion bash|zsh|fish' a\n"
		     "completion script for that shell (make install installs them).\n"
		     "Exit codes: 0 ok, 1 the benchmark failed, 2 bad usage or input, 130 interrupted.\n");
}

/* nodemark completion SHELL: the completion script, from every command's option table. */
static int print_completion(int argc, char **argv)
{
	if (argc != 3) {
		nm_error("completion: expected one shell: bash, zsh or fish (e.g. 'nodemark completion bash')");
		return NM_EXIT_USAGE;
	}
	struct cli_command_info info[NCOMMANDS];
	for (size_t i = 0; i < NCOMMANDS; i++)
		info[i] = (struct cli_command_info){ commands[i].name, commands[i].summary, commands[i].help };
	if (cli_completion_write(stdout, argv[2], info, NCOMMANDS) < 0) {
		nm_error("completion: unknown shell '%s' (expected bash, zsh or fish)", argv[2]);
		return NM_EXIT_USAGE;
	}
	return fflush(stdout) == 0 ? NM_EXIT_OK : NM_EXIT_FAILED;
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	const char *best = NULL;
	int bestd = 3;
	for (size_t i = 0; i < NCOMMANDS; i++) {
		int d = opt_edit_distance(name, commands[i].name);
		if (d < bestd || (d == bestd && !best && strncmp(name, commands[i].name, 2) == 0)) {
			bestd = d;
			best = commands[i].name;
		}
	}
	if (best)
		nm_error("unknown command '%s' (did you mean '%s'?)", name, best);
	else
		nm_error("unknown command '%s' (see 'nodemark --help')", name);
	return NM_EXIT_USAGE;
}

static int show_usage(const struct command *c)
{
	if (c->help)
		cli_help_print(stdout, c->help);
	else
		fputs(c->usage, stdout);
	return NM_EXIT_OK;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_help(stderr);
		return NM_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		print_help(stdout);
		return NM_EXIT_OK;
	}
	if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
		printf("nodemark %s\n", NODEMARK_VERSION);
		return NM_EXIT_OK;
	}
	if (strcmp(name, "help") == 0) {
		if (argc < 3) {
			print_help(stdout);
			return NM_EXIT_OK;
		}
		const struct command *c = find_command(argv[2]);
		return c ? show_usage(c) : unknown_command(argv[2]);
	}
	if (strcmp(name, "completion") == 0)
		return print_completion(argc, argv);
	if (name[0] == '-') {
		nm_error("unknown option '%s' (see 'nodemark --help')", name);
		return NM_EXIT_USAGE;
	}
	const struct command *c = find_command(name);
	if (!c)
		return unknown_command(name);
	nm_set_command(c->name);
#ifdef NODEMARK_MPI
	char *table_usage = c->help ? cli_help_text(c->help) : NULL;
	int rc = mpi_main(c->name, c->fn, table_usage ? table_usage : c->usage, argc - 1, argv + 1);
	free(table_usage);
	return cleanup_exit_code(rc);
#endif
	if (cli_asks_for_help(argc - 1, argv + 1))
		return show_usage(c);
	cleanup_init();
	return cleanup_exit_code(c->fn(argc - 1, argv + 1));
}
