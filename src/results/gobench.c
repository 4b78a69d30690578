#include "results/gobench.h"
#include "stats/scale.h"
#include "util/error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 256

static int is_bench_line(const char *line)
{
	/* "Benchmark" then the end or a name that does not start with a lower-case letter, as Go's
	 * testing package names them (so "Benchmarking is fun" is prose, not a benchmark). */
	return strncmp(line, "Benchmark", 9) == 0 && !islower((unsigned char)line[9]);
}

/* "key: value" with a key of lower-case letters, digits, '-' and '_' (and no spaces). */
static int config_line(char *line, char **key, char **value)
{
	char *colon = strchr(line, ':');
	if (!colon || colon == line || !islower((unsigned char)line[0]))
		return 0;
	for (char *p = line; p < colon; p++)
		if (isspace((unsigned char)*p) || isupper((unsigned char)*p))
			return 0;
	if (colon[1] != ' ' && colon[1] != '\t' && colon[1] != '\0')
		return 0;
	*colon = '\0';
	*key = line;
	char *v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	char *end = v + strlen(v);
	while (end > v && isspace((unsigned char)end[-1]))
		*--end = '\0';
	*value = v;
	return 1;
}

static int parse_bench_line(struct record *r, char *line, size_t lineno, char *err, size_t errlen)
{
	char *fields[MAX_FIELDS], *save = NULL;
	size_t n = 0;
	for (char *f = strtok_r(line, " \t\r", &save); f; f = strtok_r(NULL, " \t\r", &save)) {
		if (n == MAX_FIELDS)
			return nm_errf(err, errlen, "line %zu: more than %d fields", lineno, MAX_FIELDS);
		fields[n++] = f;
	}
	if (n < 4 || n % 2 != 0)
		return nm_errf(err, errlen,
			       "line %zu: a benchmark line needs a name, an iteration count and value-unit pairs "
			       "(%zu fields)", lineno, n);
	char *end;
	errno = 0;
	long long iters = strtoll(fields[1], &end, 10);
	if (*end || errno || iters <= 0)
		return nm_errf(err, errlen, "line %zu: \"%s\": expected an iteration count", lineno, fields[1]);
	const char *name = fields[0] + 9;
	if (!*name)
		return nm_errf(err, errlen, "line %zu: a benchmark without a name", lineno);
	struct bench *b = record_find_bench(r, name);
	if (!b)
		b = record_add_bench(r, name);
	for (size_t i = 2; i + 1 < n; i += 2) {
		errno = 0;
		double v = strtod(fields[i], &end);
		if (*end || errno || !isfinite(v))
			return nm_errf(err, errlen, "line %zu: \"%s\": expected a number", lineno, fields[i]);
		char unit[128];
		double factor = scale_tidy_unit(fields[i + 1], unit, sizeof unit);
		if (!isfinite(v * factor)) /* 1e305 MB/s overflows as B/s */
			return nm_errf(err, errlen, "line %zu: \"%s %s\": not a finite number in %s", lineno,
				       fields[i], fields[i + 1], unit);
		size_t ulen = strlen(unit);
		/* Rates (…/s) are better higher; times, bytes and counts per op are better lower. */
		int dir = ulen >= 2 && strcmp(unit + ulen - 2, "/s") == 0 ? HIGHER_IS_BETTER : LOWER_IS_BETTER;
		metric_add(bench_metric(b, unit, unit, dir), v * factor);
	}
	return 0;
}

struct record *gobench_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct record *r = record_alloc();
	size_t i = 0, lineno = 0;
	char *line = NULL;

	r->command = strdup("gobench");
	r->host = strdup("");
	r->version = strdup("");
	r->cmdline = strdup("");
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		lineno++;
		line = realloc(line, n + 1);
		if (!line)
			abort();
		memcpy(line, text + i, n);
		line[n] = '\0';
		i += n + 1;
		if (strlen(line) != n) {
			nm_errf(err, errlen, "line %zu: a NUL byte in the text", lineno);
			goto fail;
		}
		char *key, *value;
		if (is_bench_line(line)) {
			if (parse_bench_line(r, line, lineno, err, errlen) < 0)
				goto fail;
		} else if (config_line(line, &key, &value)) {
			if (!record_tag(r, key))
				record_set_tag(r, key, value);
		}
	}
	free(line);
	if (r->nbenches == 0) {
		nm_errf(err, errlen, "no benchmark lines (\"BenchmarkName N value unit ...\")");
		record_free(r);
		return NULL;
	}
	return r;
fail:
	/* the message quotes the input: keep it one printable line */
	for (size_t k = 0; k < errlen && err[k]; k++)
		if ((unsigned char)err[k] < 0x20 || err[k] == 0x7f)
			err[k] = '?';
	free(line);
	record_free(r);
	return NULL;
}
