#include "proc/params.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCAN_VALUES 100000

/* Splits "NAME=rest"; *name is malloc'd. */
static int split_name(const struct params *p, const char *spec, char **name, const char **rest,
		      const char *form, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec || !eq[1])
		return nm_errf(err, errlen, "\"%s\": expected %s", spec, form);
	for (const char *c = spec; c < eq; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return nm_errf(err, errlen, "\"%s\": a parameter name is letters, digits and '_'", spec);
	*name = strndup(spec, (size_t)(eq - spec));
	if (!*name)
		abort();
	for (size_t i = 0; i < p->naxes; i++)
		if (strcmp(p->axes[i].name, *name) == 0) {
			nm_errf(err, errlen, "\"%s\": parameter '%s' is given twice", spec, *name);
			free(*name);
			return -1;
		}
	*rest = eq + 1;
	return 0;
}

/* Refuses an axis of n values that would take the combinations past PARAMS_MAX_COMBINATIONS
 * (each is a benchmark to plan and run; the product could also wrap a size_t). */
static int too_many(const struct params *p, const char *spec, size_t n, char *err, size_t errlen)
{
	size_t have = params_combinations(p);
	if (n <= PARAMS_MAX_COMBINATIONS / have)
		return 0;
	return nm_errf(err, errlen, "\"%s\": %zu values make more than %d combinations", spec, n,
		       PARAMS_MAX_COMBINATIONS);
}

static void push_axis(struct params *p, char *name, char **values, size_t n)
{
	p->axes = realloc(p->axes, (p->naxes + 1) * sizeof *p->axes);
	if (!p->axes)
		abort();
	p->axes[p->naxes++] = (struct param_axis){ name, values, n };
}

int params_add_list(struct params *p, const char *spec, char *err, size_t errlen)
{
	char *name, **values, msg[256];
	const char *rest;
	if (split_name(p, spec, &name, &rest, "NAME=a,b,c", err, errlen) < 0)
		return -1;
	int n = split_list(rest, ',', &values, msg, sizeof msg);
	if (n < 0) {
		free(name);
		return nm_errf(err, errlen, "\"%s\": %s", spec, msg);
	}
	if (too_many(p, spec, (size_t)n, err, errlen) < 0) {
		free(name);
		free_strv(values);
		return -1;
	}
	push_axis(p, name, values, (size_t)n);
	return 0;
}

/* The fewest decimals that print v so that it reads back the same (1e-4: 4), at most 17. */
static int decimals_of(double v)
{
	char buf[400];
	for (int d = 0; d < 17; d++) {
		snprintf(buf, sizeof buf, "%.*f", d, v);
		if (strtod(buf, NULL) == v)
			return d;
	}
	return 17;
}

static int parse_number(const char *s, size_t len, double *v, int *decimals)
{
	char buf[64], *end;
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	*v = strtod(buf, &end);
	if (*end || !isfinite(*v) || isspace((unsigned char)buf[0]))
		return -1;
	/* as many decimals as written (0.10: 2); an exponent or a hex float has its own count */
	const char *dot = strchr(buf, '.');
	if (strpbrk(buf, "eEpPxX"))
		*decimals = decimals_of(*v);
	else
		*decimals = dot ? (int)strlen(dot + 1) : 0;
	if (*decimals > 17)
		*decimals = 17;
	return 0;
}

int params_add_scan(struct params *p, const char *spec, char *err, size_t errlen)
{
	char *name;
	const char *rest;
	double lo, hi, step = 1;
	int dlo, dhi, dstep = 0;
	if (split_name(p, spec, &name, &rest, "NAME=lo:hi[:step]", err, errlen) < 0)
		return -1;
	const char *c1 = strchr(rest, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c1 || parse_number(rest, (size_t)(c1 - rest), &lo, &dlo) < 0 ||
	    parse_number(c1 + 1, c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1), &hi, &dhi) < 0 ||
	    (c2 && parse_number(c2 + 1, strlen(c2 + 1), &step, &dstep) < 0)) {
		free(name);
		return nm_errf(err, errlen, "\"%s\": expected NAME=lo:hi[:step] with numbers, e.g. threads=1:8", spec);
	}
	if (step <= 0 || hi < lo) {
		free(name);
		return nm_errf(err, errlen, "\"%s\": expected lo <= hi and a step above 0", spec);
	}
	/* Printed with as many decimals as the inputs had: 0.1:0.3:0.1 gives 0.1 0.2 0.3. */
	int decimals = dlo > dhi ? dlo : dhi;
	if (dstep > decimals)
		decimals = dstep;
	double count = floor((hi - lo) / step + 1e-9) + 1;
	if (count > MAX_SCAN_VALUES) {
		free(name);
		return nm_errf(err, errlen, "\"%s\": more than %d values", spec, MAX_SCAN_VALUES);
	}
	size_t n = (size_t)count;
	if (too_many(p, spec, n, err, errlen) < 0) {
		free(name);
		return -1;
	}
	char **values = calloc(n + 1, sizeof *values);
	if (!values)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (asprintf(&values[i], "%.*f", decimals, lo + (double)i * step) < 0)
			abort();
		/* the count's allowance for rounding (0.1:0.3:0.1 has 3) never adds a value past hi:
		 * 81.0000000002:114 ends at 113.0000000002 */
		if (i && strtod(values[i], NULL) > hi) {
			free(values[i]);
			values[i] = NULL;
			n = i;
			break;
		}
		/* a step below what doubles or the printed decimals tell apart: two benchmarks that
		 * would run the same value */
		if (i && strtod(values[i], NULL) <= strtod(values[i - 1], NULL)) {
			nm_errf(err, errlen, "\"%s\": the step is too small: %s follows %s", spec, values[i],
				values[i - 1]);
			free(name);
			free_strv(values);
			return -1;
		}
	}
	push_axis(p, name, values, n);
	return 0;
}

void params_free(struct params *p)
{
	for (size_t i = 0; i < p->naxes; i++) {
		free(p->axes[i].name);
		free_strv(p->axes[i].values);
	}
	free(p->axes);
	p->axes = NULL;
	p->naxes = 0;
}

size_t params_combinations(const struct params *p)
{
	size_t n = 1;
	for (size_t i = 0; i < p->naxes; i++)
		n *= p->axes[i].n;
	return n;
}

const char *params_value(const struct params *p, size_t c, size_t a)
{
	/* The first axis varies fastest, as in hyperfine (-L a 1,2 -L b x,y: 1x 2x 1y 2y). */
	for (size_t i = 0; i < a; i++)
		c /= p->axes[i].n;
	return p->axes[a].values[c % p->axes[a].n];
}

char *params_substitute(const struct params *p, size_t c, const char *s)
{
	struct strbuf sb;
	sb_init(&sb);
	while (*s) {
		const char *open = strchr(s, '{');
		if (!open) {
			sb_puts(&sb, s);
			break;
		}
		sb_add(&sb, s, (size_t)(open - s));
		const char *close = strchr(open, '}');
		size_t a = p->naxes;
		if (close)
			for (a = 0; a < p->naxes; a++)
				if (strlen(p->axes[a].name) == (size_t)(close - open - 1) &&
				    strncmp(p->axes[a].name, open + 1, (size_t)(close - open - 1)) == 0)
					break;
		if (a < p->naxes) {
			sb_puts(&sb, params_value(p, c, a));
			s = close + 1;
		} else {
			sb_add(&sb, "{", 1);
			s = open + 1;
		}
	}
	return sb_detach(&sb);
}
