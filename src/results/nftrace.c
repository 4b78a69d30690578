#include "results/nftrace.h"
#include "util/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int nftrace_duration(const char *s, double *seconds)
{
	static const struct { const char *unit; double s; } units[] = {
		{ "ms", 1e-3 }, { "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 },
	};
	char *end;
	double total = 0;
	int parts = 0;
	while (*s == ' ')
		s++;
	for (;;) {
		double v = strtod(s, &end);
		if (end == s || !isfinite(v) || v < 0)
			return -1;
		if (!*end && parts == 0) { /* trace.raw: milliseconds */
			*seconds = v / 1e3;
			return 0;
		}
		size_t n = 0;
		while (end[n] && end[n] != ' ')
			n++;
		size_t k = 0;
		while (k < sizeof units / sizeof units[0] && !(strlen(units[k].unit) == n && !strncmp(end, units[k].unit, n)))
			k++;
		if (k == sizeof units / sizeof units[0])
			return -1;
		total += v * units[k].s;
		parts++;
		s = end + n;
		while (*s == ' ')
			s++;
		if (!*s)
			break;
	}
	*seconds = total;
	return 0;
}

int nftrace_size(const char *s, double *bytes)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB", "PB" };
	char *end;
	double v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return -1;
	while (*end == ' ')
		end++;
	if (!*end) { /* trace.raw: bytes */
		*bytes = v;
		return 0;
	}
	for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
		if (strcmp(end, units[k]) == 0) {
			*bytes = v * pow(1024, (double)k);
			return 0;
		}
	return -1;
}

#define MAX_COLS 64

/* The fields of one line, split at tabs in place. */
static size_t split_tabs(char *line, char **f)
{
	size_t n = 0;
	for (char *p = line; n < MAX_COLS; p++) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p = 0;
	}
	return n;
}

static int col(char **head, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(head[i], name) == 0)
			return (int)i;
	return -1;
}

/* The step of a task: its process, else its name without the "(tag)" nextflow adds. */
static void step_name(char **f, int process, int name, char *buf, size_t len)
{
	const char *s = process >= 0 ? f[process] : f[name];
	size_t n = strcspn(s, "(");
	while (n && s[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s", (int)n, s);
}

long nftrace_read(const char *text, size_t len, struct record *r, char *err, size_t errlen)
{
	char *copy = malloc(len + 1), *save = NULL, *head[MAX_COLS], *f[MAX_COLS];
	if (!copy)
		abort();
	memcpy(copy, text, len);
	copy[len] = 0;
	char *line = strtok_r(copy, "\n", &save);
	long tasks = 0, lineno = 1;
	if (!line) {
		free(copy);
		return nm_errf(err, errlen, "empty: expected a header line (name, status, realtime, ...)");
	}
	line[strcspn(line, "\r")] = 0;
	size_t nh = split_tabs(line, head);
	int name = col(head, nh, "name"), process = col(head, nh, "process"), status = col(head, nh, "status");
	int realtime = col(head, nh, "realtime");
	if ((name < 0 && process < 0) || realtime < 0) {
		free(copy);
		return nm_errf(err, errlen, "line 1: not a nextflow trace header (it needs name or process, and realtime)");
	}
	static const struct { const char *col, *metric, *unit; int dir, size; } extra[] = {
		{ "peak_rss", "max_rss", "B", LOWER_IS_BETTER, 1 },
		{ "rchar", "read_chars", "B", NEUTRAL, 1 },
		{ "wchar", "write_chars", "B", NEUTRAL, 1 },
		{ "%cpu", "cpu_pct", "%", NEUTRAL, 0 },
	};
	double total = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		lineno++;
		line[strcspn(line, "\r")] = 0;
		if (!*line)
			continue;
		size_t n = split_tabs(line, f);
		if (n != nh) {
			free(copy);
			return nm_errf(err, errlen, "line %ld: %zu fields, the header has %zu", lineno, n, nh);
		}
		/* A failed or aborted task's time is not the step's; a cached one was not run. */
		if (status >= 0 && strcmp(f[status], "COMPLETED") != 0)
			continue;
		double secs;
		if (nftrace_duration(f[realtime], &secs) < 0) {
			/* the message quotes the field, which lives in copy: free it after */
			nm_errf(err, errlen, "line %ld: realtime \"%s\": expected a duration like 1m 23s", lineno,
				f[realtime]);
			free(copy);
			return -1;
		}
		char step[256];
		step_name(f, process, name, step, sizeof step);
		struct bench *b = record_find_bench(r, step);
		if (!b) {
			b = record_add_bench(r, step);
			bench_set(b, "step", json_string(step));
			bench_set(b, "source", json_string("nextflow trace"));
		}
		metric_add(bench_metric(b, "wall_s", "s", LOWER_IS_BETTER), secs);
		total += secs;
		for (size_t k = 0; k < sizeof extra / sizeof extra[0]; k++) {
			int c = col(head, nh, extra[k].col);
			double v;
			if (c < 0 || strcmp(f[c], "-") == 0)
				continue;
			char pct[64];
			snprintf(pct, sizeof pct, "%s", f[c]);
			pct[strcspn(pct, "%")] = 0;
			if (extra[k].size ? nftrace_size(f[c], &v) < 0 : sscanf(pct, "%lf", &v) != 1) {
				nm_errf(err, errlen, "line %ld: %s \"%s\": not a %s", lineno, extra[k].col, f[c],
					extra[k].size ? "size like 1.2 GB" : "percentage");
				free(copy); /* after the message: it quotes the field, which lives in copy */
				return -1;
			}
			metric_add(bench_metric(b, extra[k].metric, extra[k].unit, extra[k].dir), v);
		}
		tasks++;
	}
	free(copy);
	if (!tasks)
		return nm_errf(err, errlen, "no completed task");
	struct bench *t = record_add_bench(r, "total");
	bench_set(t, "step", json_string("total"));
	metric_add(bench_metric(t, "wall_s", "s", LOWER_IS_BETTER), total);
	return tasks;
}
