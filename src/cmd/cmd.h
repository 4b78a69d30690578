/* The subcommands. Each lives in src/cmd/<name>.c and exports its entry point and its help
 * text; main.c's command table maps names to them (git's builtin/ pattern).
 *
 * An entry point gets argv[0] = the command name and returns the process exit code
 * (enum nm_exit in util/error.h). */
#ifndef NM_CMD_CMD_H
#define NM_CMD_CMD_H

#define COMMANDS(X)                                                                          \
	X(run, "benchmark the whole machine in one command (the baseline)")                  \
	X(info, "describe the machine, down to the disk stack under a directory")           \
	X(disk, "measure a disk, directory or file (CrystalDiskMark profiles, custom jobs)") \
	X(fio, "run fio command lines and job files, with fio's output formats")           \
	X(hash, "measure hashing throughput (BLAKE3, SHA-256)")                              \
	X(pieces, "measure a storage-node piece store (write, hash, fsync, rename)")        \
	X(time, "time commands repeatedly, like hyperfine, with the kernel's accounting")   \
	X(track, "follow a long job's progress from its output or log")                     \
	X(compare, "compare runs with benchstat's statistics")                               \
	X(benchstat, "benchstat's command line and tables for Go benchmark text")           \
	X(report, "write an HTML or Markdown report of runs")                                \
	X(runs, "list the saved runs")                                                       \
	X(show, "show one saved run")                                                        \
	X(export, "export saved runs as JSON records")                                       \
	X(import, "import JSON records (from other machines)")                               \
	X(rm, "delete saved runs")

#define DECLARE_COMMAND(name, summary)               \
	int cmd_##name(int argc, char **argv);       \
	extern const char cmd_##name##_usage[];
COMMANDS(DECLARE_COMMAND)
#undef DECLARE_COMMAND

#endif
