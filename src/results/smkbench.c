#include "results/smkbench.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

long smkbench_read(const char *text, size_t len, struct bench *b, char *err, size_t errlen)
{
	static const struct { const char *col, *metric, *unit; double scale; int dir; } cols[] = {
		{ "s", "wall_s", "s", 1, LOWER_IS_BETTER },
		{ "max_rss", "max_rss", "B", 1048576, LOWER_IS_BETTER }, /* snakemake divides by 1024 * 1024 */
		{ "io_in", "read_chars", "B", 1048576, NEUTRAL },
		{ "io_out", "write_chars", "B", 1048576, NEUTRAL },
		{ "cpu_time", "cpu_s", "s", 1, LOWER_IS_BETTER },
	};
	enum { NCOLS = sizeof cols / sizeof cols[0] };
	int at[NCOLS];
	for (int k = 0; k < NCOLS; k++)
		at[k] = -1;
	long line = 0, repeats = 0;
	size_t nhead = 0;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		line++;
		size_t field = 0;
		for (const char *f = p; f <= eol && f < end + 1;) {
			const char *tab = memchr(f, '\t', (size_t)(eol - f));
			const char *fe = tab ? tab : eol;
			size_t n = (size_t)(fe - f);
			if (n && fe[-1] == '\r')
				n--;
			if (line == 1) {
				for (int k = 0; k < NCOLS; k++)
					if (strlen(cols[k].col) == n && !strncmp(f, cols[k].col, n))
						at[k] = (int)field;
			} else {
				for (int k = 0; k < NCOLS; k++) {
					if (at[k] != (int)field || (n == 2 && !strncmp(f, "NA", 2)))
						continue;
					char buf[64], *e;
					if (n == 0 || n >= sizeof buf)
						return nm_errf(err, errlen, "line %ld: %s: expected a number", line, cols[k].col);
					memcpy(buf, f, n);
					buf[n] = 0;
					double v = strtod(buf, &e);
					if (*e || !isfinite(v) || v < 0)
						return nm_errf(err, errlen, "line %ld: %s \"%s\": expected a number", line,
							       cols[k].col, buf);
					metric_add(bench_metric(b, cols[k].metric, cols[k].unit, cols[k].dir), v * cols[k].scale);
				}
			}
			field++;
			if (!tab)
				break;
			f = tab + 1;
		}
		if (line == 1) {
			nhead = field;
			if (at[0] < 0)
				return nm_errf(err, errlen, "line 1: not a snakemake benchmark header (it needs s, h:m:s, ...)");
		} else if (field > 1 || eol > p) {
			if (field != nhead)
				return nm_errf(err, errlen, "line %ld: %zu fields, the header has %zu", line, field, nhead);
			repeats++;
		}
		p = eol + 1;
	}
	return repeats;
}
