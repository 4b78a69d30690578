/* The plan behind `nodemark time`: commands (each with its parameter values and hooks), how
 * many runs, and the loop that runs them (warmups, hooks, interleaving, the automatic run count,
 * the shell's own start-up cost).  Results go into a record: one bench per command, one sample
 * per run in each metric (wall_s, user_s, sys_s, max_rss, faults, context switches, I/O bytes,
 * exit_code, energy_j when RAPL is readable). */
#ifndef NM_RUN_TIMING_H
#define NM_RUN_TIMING_H

#include "results/record.h"
#include "proc/spawn.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct time_command {
	char *name;             /* shown and saved: --name, else the command text */
	char *text;             /* the command as typed, parameters substituted */
	char **argv;            /* what is executed: {"/bin/sh", "-c", text} or the direct argv */
	int shell;
	json_t *parameters;     /* {"NAME": "value"}; never NULL */
	char *template;         /* with parameters: the command (or --name) as written, "{NAME}" kept */
	char *setup, *prepare, *conclude, *cleanup; /* shell hooks, parameters substituted; may be NULL */
	uint64_t warmups_done;

	struct spawn_sample *samples;
	size_t nsamples, cap;
	uint64_t target;        /* runs wanted; 0 until known */
	int set_up;
	struct bench *bench;    /* set when its runs are done */
};

struct time_plan {
	struct time_command *cmds;
	size_t ncmds;
	uint64_t runs;          /* exact count; 0: automatic between min_runs and max_runs */
	uint64_t min_runs, max_runs;
	double auto_seconds;    /* the automatic count aims at this much run time */
	uint64_t warmup;
	uint64_t timeout_ns;
	int interleave, ignore_failure, show_output;
	const char *suite;
	char **shell;           /* the shell's words for quoted commands and hooks; NULL: /bin/sh */
	int has_out_fd, out_fd; /* the commands' output goes to out_fd (--output FILE or pipe) */
	int has_in_fd, in_fd;   /* the commands read in_fd from its start (--input FILE) */
	int ignore_codes[64];   /* with ignore_failure == 2: only these exit codes are not failures */
	size_t nignore_codes;
	int iteration_env;      /* HYPERFINE_ITERATION in each run's environment, as hyperfine sets */

	/* Filled while running. */
	double shell_wall_s, shell_user_s, shell_sys_s; /* the mean cost of `sh -c ""` */
	int shell_measured;
	int energy_readable;
	char energy_why[128];
	uint64_t start_ns;      /* for the progress line's elapsed time */
};

/* Called when a command's runs are done (its bench is in the record). */
typedef void (*time_done_fn)(const struct time_plan *p, size_t index, void *arg);
/* Called before a command's setup and warmups when the commands run one after another (not
 * under --interleave), so what is printed there comes before the command's own output. */
typedef void (*time_start_fn)(const struct time_plan *p, size_t index, void *arg);

/* Run the plan (start may be NULL). Returns 0; 1 when a command or hook failed (message in
 * err); 130 when interrupted. */
int time_plan_run(struct time_plan *p, struct record *r, time_start_fn start, time_done_fn done, void *arg,
		  char *err, size_t errlen);

/* A pipeline's steps (the plan's commands, run in turn: --interleave with a fixed count):
 * each step's bench gets its name as the "step" setting, and a bench "total" holds each round's
 * sums (wall, user, system time) and its peak memory, step "total".  Call after time_plan_run. */
void time_plan_add_total(const struct time_plan *p, struct record *r);

/* Add a command; argv is copied (argv[0] is resolved on $PATH unless shell). Returns 0 or -1. */
int time_plan_add(struct time_plan *p, const char *name, const char *text, char **argv, int shell,
		  json_t *parameters, char *err, size_t errlen);
void time_plan_free(struct time_plan *p);

/* The automatic run count (auto_seconds / first_s, rounded down, within min_runs..max_runs)
 * after a first run whose whole cycle took first_s seconds: the run, its shell and its hooks. */
uint64_t time_auto_runs(const struct time_plan *p, double first_s);

#endif
