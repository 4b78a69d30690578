/* Parameters substituted into commands, as hyperfine's --parameter-list and
 * --parameter-scan: `--param NAME=a,b,c` and `--scan NAME=lo:hi[:step]` put each value into
 * {NAME}.  Several parameters give every combination, the first one varying fastest (hyperfine's
 * order). */
#ifndef NM_RUN_PARAMS_H
#define NM_RUN_PARAMS_H

#include <stddef.h>

/* At most this many combinations of all parameters (each one a benchmark). */
#define PARAMS_MAX_COMBINATIONS 100000

struct param_axis {
	char *name;
	char **values;  /* NULL-terminated */
	size_t n;
};

struct params {
	struct param_axis *axes;
	size_t naxes;
};

/* Parse "NAME=a,b,c" / "NAME=lo:hi[:step]" and add the axis. Returns 0, or -1 with a message
 * ("\"x=\": expected NAME=a,b,c"). A name may appear once; a scan's values are printed with
 * the decimals its numbers were written with and must differ; all axes together give at most
 * PARAMS_MAX_COMBINATIONS combinations. */
int params_add_list(struct params *p, const char *spec, char *err, size_t errlen);
int params_add_scan(struct params *p, const char *spec, char *err, size_t errlen);
void params_free(struct params *p);

/* Number of combinations (1 with no parameters). */
size_t params_combinations(const struct params *p);
/* The value of axis a in combination c. */
const char *params_value(const struct params *p, size_t c, size_t a);

/* s with every {NAME} of combination c replaced (malloc'd); unknown {X} stays as typed. */
char *params_substitute(const struct params *p, size_t c, const char *s);

#endif
