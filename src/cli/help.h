/* Asking a command for its help, the same way in nodemark and nodemark-mpi. */
#ifndef NM_CLI_HELP_H
#define NM_CLI_HELP_H

/* 1 when --help or -h stands among argv[1..] before any "--" (after it, the words belong to
 * a child command); argv[0] is the command's name. */
int cli_asks_for_help(int argc, char **argv);

#endif
