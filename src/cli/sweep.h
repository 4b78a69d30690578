/* A sweep over a command's own options, in hyperfine's spelling: -L NAME a,b,c (or
 * -L NAME=a,b,c), -P NAME MIN MAX with -D STEP (one scan, as hyperfine).  disk and pieces share
 * it: the command names the options a sweep may vary (a name outside them is one line, exit 2)
 * and, for each combination, the command line is parsed again with the setting's words added,
 * so a value is checked by the option itself, with its own message.
 *
 *   static struct cli_sweep sweep = { .names = sweepable };
 *   CLI_SWEEP_OPTIONS(&sweep),                     in the option table
 *   cli_sweep_finish(&sweep);                      after cli_parse, unless sweep.reparsing
 *   cli_sweep_settings(&sweep, argc, argv, each, ctx);   each combination parsed again */
#ifndef NM_CLI_SWEEP_H
#define NM_CLI_SWEEP_H

#include "cli/options.h"
#include "proc/params.h"

#include <jansson.h>
#include <stddef.h>

struct cli_sweep {
	/* the command's */
	const char *const *names; /* the options a sweep may vary, NULL-terminated */
	/* a setting's option word(s), malloc'd (NULL: --NAME=VALUE); exits 2 on a bad value */
	char *(*word)(const char *name, const char *value);

	struct params params;
	const char *scan_name, *scan_lo, *scan_hi, *scan_step;
	int reparsing;            /* a setting's parse: -L/-P words are skipped, not added again */
	char **added;             /* the settings' words: a plan may point into them */
	size_t nadded;
};

/* The CLI_WORDS callbacks of -L and -P (the sweep is the option's value). */
void cli_sweep_take_list(struct opt_iter *it, void *sweep);
void cli_sweep_take_scan(struct opt_iter *it, void *sweep);

#define CLI_SWEEP_OPTIONS(sw)                                                                           \
	CLI_WORDS("parameter-list", cli_sweep_take_list, (sw), .alias = "L",                            \
		  CLI_HELP("NAME a,b,c", "each value")),                                               \
	CLI_WORDS("parameter-scan", cli_sweep_take_scan, (sw), .alias = "P",                            \
		  CLI_HELP("NAME MIN MAX", "each number")),                                            \
	CLI_STRING("parameter-step-size", &(sw)->scan_step, .alias = "D",                               \
		   CLI_HELP("STEP", "the step of -P's numbers (default 1)"))

/* After the command line is parsed: -D without -P is refused, -P's scan joins the lists. */
void cli_sweep_finish(struct cli_sweep *sw);

/* Every combination in hyperfine's order: argv with the setting's words added is handed to
 * each(), which parses it again (reparsing is set meanwhile) and keeps what it needs;
 * settings is the combination as {NAME: VALUE} (each takes its own reference).  Returns the
 * number of combinations. */
size_t cli_sweep_settings(struct cli_sweep *sw, int argc, char **argv,
			  void (*each)(void *ctx, size_t c, int argc, char **argv, json_t *settings), void *ctx);

/* The first of n settings that holds every NAME=VALUE of spec ("bs=4k,iodepth=1"); a malformed
 * spec ("expected NAME=VALUE[,NAME=VALUE]" and what else may stand there, e.g. " or a target")
 * or none matching is one line, exit 2. */
unsigned cli_sweep_reference(const char *spec, json_t *const *settings, unsigned n, const char *or_else);

/* The lists and the settings' words. */
void cli_sweep_free(struct cli_sweep *sw);

#endif
