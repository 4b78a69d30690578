/* Shell completion scripts for bash, zsh and fish, written from the commands' option tables
 * (cli/options.h), so a new option is completed the day it is added and the scripts cannot
 * drift from the parser.  `nodemark completion SHELL` prints one; `make install` installs all
 * three. */
#ifndef NM_CLI_COMPLETION_H
#define NM_CLI_COMPLETION_H

#include <stddef.h>
#include <stdio.h>

struct cli_help;

/* A command as the completion sees it: its name, its one-line summary, and its option table
 * (help NULL: a command whose options are not in a table, e.g. fio's; its words complete as
 * files). */
struct cli_command_info {
	const char *name;
	const char *summary;
	const struct cli_help *help;
};

/* The shells a script can be written for, ended by NULL. */
extern const char *const cli_completion_shells[];

/* Writes the script for shell ("bash", "zsh", "fish") completing the n commands.  Returns 0,
 * or -1 for a shell it does not know. */
int cli_completion_write(FILE *out, const char *shell, const struct cli_command_info *cmds, size_t n);

#endif
