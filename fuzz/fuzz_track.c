/* libFuzzer harness: track's line, pattern and time parsing (src/proc/progress_re.c, track.c).
 *
 * Input: the first line is a progress pattern, the second a strptime format, the rest log lines.
 * Checks, besides memory safety: errors are one printable line; the literal prefilter never
 * changes what the regex alone captures; a capture lies inside its line; the timeline's
 * milestones rise and its rows stay consistent. */
#include "fuzz_util.h"
#include "proc/progress_re.h"
#include "compare/track.h"
#include "proc/track_time.h"

#include <math.h>

#define MAX_LINES 256

static const char *next_line(const char **p, const char *end, size_t *len)
{
	const char *s = *p;
	if (s >= end)
		return NULL;
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	*len = (size_t)((nl ? nl : end) - s);
	*p = nl ? nl + 1 : end;
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *line;
	size_t len;
	char err[256];

	if (!(line = next_line(&p, end, &len)))
		return 0;
	char *pattern = fuzz_cstring((const uint8_t *)line, len);
	char *fmt = NULL;
	if ((line = next_line(&p, end, &len)))
		fmt = fuzz_cstring((const uint8_t *)line, len);

	err[0] = 0;
	struct progress_re *re = progress_re_compile(pattern, err, sizeof err);
	if (!re)
		fuzz_check_message(err);

	struct track t;
	track_init(&t, 1000, 7, NULL);
	double now = 0;
	for (int n = 0; re && n < MAX_LINES && (line = next_line(&p, end, &len)); n++) {
		const char *c1, *c2;
		size_t n1, n2;
		int got = progress_re_capture(re, line, len, &c1, &n1);
		if (got)
			FUZZ_ASSERT(c1 >= line && c1 + n1 <= line + len);
		int alone = progress_re_capture_unfiltered(re, line, len, &c2, &n2);
		FUZZ_ASSERT(got == alone);
		FUZZ_ASSERT(!got || (c1 == c2 && n1 == n2));
		double v, when;
		if (fmt && track_parse_time(line, len, fmt, &when) == 0)
			FUZZ_ASSERT(!isnan(when));
		if (progress_re_number(re, line, len, &v)) {
			FUZZ_ASSERT(isfinite(v));
			now += 1;
			if (v < 1e12 && v > -1e12)
				track_point(&t, now, v);
		}
	}
	for (size_t i = 0; i < t.nrows; i++) {
		FUZZ_ASSERT(t.rows[i].seg_s >= 0 && t.rows[i].cum_s >= t.rows[i].seg_s - 1e-9);
		FUZZ_ASSERT(i == 0 || t.rows[i].milestone > t.rows[i - 1].milestone);
		FUZZ_ASSERT(t.rows[i].milestone <= 1000);
	}
	track_free(&t);
	progress_re_free(re);
	free(pattern);
	free(fmt);
	return 0;
}
