/* The subcommands. Each lives in src/cmd/<name>.c and exports its entry point and its help;
 * main.c's command table maps names to them (git's builtin/ pattern).  The help is either
 * TEXT, a string cmd_<name>_usage, or TABLE, a struct cli_help cmd_<name>_help written from
 * the command's option table (cli/options.h).
 *
 * An entry point gets argv[0] = the command name and returns the process exit code
 * (enum nm_exit in util/error.h). */
#ifndef NM_CMD_CMD_H
#define NM_CMD_CMD_H

#define COMMANDS(X)                                                                             \
	X(run, TABLE, "benchmark the whole machine in one command (the baseline)")                      \
	X(info, TABLE, "describe the machine, down to the disk stack under a directory")               \
	X(disk, TABLE, "measure disks, directories or files (CrystalDiskMark profiles, jobs)")    \
	X(fio, TEXT, "run fio command lines and job files, with fio's output formats")                 \
	X(hash, TABLE, "measure hashing throughput (BLAKE3, SHA-256)")                                 \
	X(pieces, TABLE, "measure a storage-node piece store (write, hash, fsync, rename)")            \
	X(time, TABLE, "time commands like hyperfine, with the kernel's accounting")        \
	X(track, TABLE, "follow a long job's progress from its output or log")                         \
	X(compare, TABLE, "compare runs with benchstat's statistics")                                  \
	X(benchstat, TABLE, "benchstat's command line and tables for Go benchmark text")                \
	X(report, TABLE, "write an HTML or Markdown report of runs")                                   \
	X(runs, TABLE, "list the saved runs")                                                           \
	X(show, TABLE, "show one saved run")                                                            \
	X(export, TABLE, "export saved runs as JSON records")                                           \
	X(import, TABLE, "import JSON records (from other machines)")                                   \
	X(rm, TABLE, "delete saved runs")                                                               \

struct cli_help;
#define DECLARE_HELP_TEXT(name) extern const char cmd_##name##_usage[];
#define DECLARE_HELP_TABLE(name) extern const struct cli_help cmd_##name##_help;
#define DECLARE_COMMAND(name, help, summary)   \
	int cmd_##name(int argc, char **argv); \
	DECLARE_HELP_##help(name)
COMMANDS(DECLARE_COMMAND)
#undef DECLARE_COMMAND

#endif
