/* libFuzzer harness: time's -L/--parameter-list and -P/--parameter-scan (src/proc/params.h) and
 * the {NAME} substitution into commands. Input lines: "L spec" (a list), "S spec" (a scan); the
 * last other line is a command to substitute.
 *
 * Oracles, besides memory safety: errors are one printable line; a parsed axis printed again as
 * a list ("NAME=v1,v2,...") parses to the same values in the same order; a scan's values are
 * numbers that rise strictly, none past hi as printed (no two print alike); the number of
 * combinations is the product of the axes' sizes, never wrapped and never above the limit;
 * every combination has a value for every axis and substitutes. */
#include "fuzz_util.h"
#include "proc/params.h"

#include <math.h>

/* axis a printed as nodemark's list spelling, then parsed alone: the same values. */
static void check_reprint(const struct param_axis *ax)
{
	size_t len = strlen(ax->name) + 2;
	for (size_t i = 0; i < ax->n; i++)
		len += strlen(ax->values[i]) + 1;
	char *spec = malloc(len), *p = spec;
	if (!spec)
		abort();
	p += sprintf(p, "%s=", ax->name);
	for (size_t i = 0; i < ax->n; i++)
		p += sprintf(p, "%s%s", i ? "," : "", ax->values[i]);
	struct params q = { 0 };
	char err[512];
	FUZZ_ASSERT(params_add_list(&q, spec, err, sizeof err) == 0);
	FUZZ_ASSERT(q.naxes == 1 && q.axes[0].n == ax->n && strcmp(q.axes[0].name, ax->name) == 0);
	for (size_t i = 0; i < ax->n; i++)
		FUZZ_ASSERT(strcmp(q.axes[0].values[i], ax->values[i]) == 0);
	params_free(&q);
	free(spec);
}

/* A scan's values: numbers, strictly rising, none past hi (read back from the spec; the first
 * is lo as printed, which may round up past a hi just above lo). */
static void check_scan(const struct param_axis *ax, const char *spec)
{
	const char *eq = strchr(spec, '=');
	const char *c1 = strchr(eq, ':');
	double hi = strtod(c1 + 1, NULL);
	double prev = -INFINITY;
	for (size_t i = 0; i < ax->n; i++) {
		char *end;
		double v = strtod(ax->values[i], &end);
		FUZZ_ASSERT(*end == '\0' && isfinite(v));
		FUZZ_ASSERT(v > prev);
		prev = v;
		FUZZ_ASSERT(i == 0 || v <= hi); /* never past hi as printed */
	}
}

/* A scan of more than a few thousand values (up to 100000 are allowed) costs a tenth of a
 * second under ASan and would starve the search: left out here, the limits are unit tests'. */
static int scan_is_long(const char *spec)
{
	const char *eq = strchr(spec, '='), *c1 = eq ? strchr(eq, ':') : NULL;
	if (!c1)
		return 0;
	const char *c2 = strchr(c1 + 1, ':');
	double lo = strtod(eq + 1, NULL), hi = strtod(c1 + 1, NULL), step = c2 ? strtod(c2 + 1, NULL) : 1;
	return step > 0 && (hi - lo) / step > 5000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size), *save = NULL, *cmd = "";
	struct params p = { 0 };
	char err[512];
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if ((line[0] == 'L' || line[0] == 'S') && line[1] == ' ') {
			if (line[0] == 'S' && scan_is_long(line + 2))
				continue;
			err[0] = 0;
			size_t before = p.naxes, combos = params_combinations(&p);
			int rc = line[0] == 'L' ? params_add_list(&p, line + 2, err, sizeof err)
						: params_add_scan(&p, line + 2, err, sizeof err);
			if (rc < 0) {
				fuzz_check_message(err);
				FUZZ_ASSERT(p.naxes == before);
				continue;
			}
			FUZZ_ASSERT(p.naxes == before + 1);
			const struct param_axis *ax = &p.axes[before];
			FUZZ_ASSERT(ax->n >= 1);
			/* the product, exactly: no wrap past SIZE_MAX */
			FUZZ_ASSERT(params_combinations(&p) / ax->n == combos);
			FUZZ_ASSERT(params_combinations(&p) <= PARAMS_MAX_COMBINATIONS);
			check_reprint(ax);
			if (line[0] == 'S')
				check_scan(ax, line + 2);
		} else {
			cmd = line;
		}
	}
	size_t n = params_combinations(&p);
	FUZZ_ASSERT(n >= 1);
	for (size_t c = 0; c < n && c < 16; c++) {
		for (size_t a = 0; a < p.naxes; a++)
			FUZZ_ASSERT(params_value(&p, c, a) != NULL);
		char *out = params_substitute(&p, c, cmd);
		FUZZ_ASSERT(out);
		free(out);
	}
	params_free(&p);
	free(text);
	return 0;
}
