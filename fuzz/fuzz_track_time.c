/* libFuzzer harness: track's time stamps (--time-pattern REGEX, --time-format FMT:
 * src/proc/track_time.c, the capture through src/proc/progress_re.c).
 *
 * Input: 8 bytes pick a time (years 1000-9999, a millisecond fraction); the rest of the first
 * line picks a format from numeric and named directives and separators. Then a line with a
 * --time-pattern, a line with a --time-format ("" is track's default) and log lines.
 *
 * Oracles, besides memory safety:
 *  - round trip: the chosen time written by strftime with the chosen format, inside a log line,
 *    is read back by track_line_time as the same time (the hand parser and strptime alike);
 *  - bounds: any time read from any line with a format that cannot name seconds since the
 *    epoch (no 's' in it) lies within years 0 to 10001, and is finite;
 *  - an invalid pattern is refused with one printable line. */
#include "fuzz_util.h"
#include "proc/progress_re.h"
#include "proc/track_time.h"

#include <math.h>
#include <stdint.h>
#include <time.h>

#define MAX_LINES 128

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

/* Seconds since 1970 of 1 January of year y (glibc's timegm, proleptic Gregorian). */
static double year_start(int y)
{
	struct tm tm = { .tm_year = y - 1900, .tm_mday = 1 };
	return (double)timegm(&tm);
}

static const char *const tokens[] = { "%Y", "%m", "%d", "%H", "%M", "%S", "%F", "%T", "%e",
				       " ",  "-",  ":",  "T",  "/",  "%%", "%b", "%a", "_" };

/* A format from the bytes; every field (year, month, day, hour, minute, second) is in it. */
static void make_format(const uint8_t *b, size_t n, char *fmt, size_t len)
{
	int have[6] = { 0 };
	size_t prev = 9;
	fmt[0] = 0;
	for (size_t i = 0; i < n && i < 24; i++) {
		size_t t = b[i] % (sizeof tokens / sizeof tokens[0]);
		/* %e is " 5" or "15": digits right after it would make " 512" day 51 or day 5
		 * (strptime reads it one way, whatever was written): a separator keeps it readable */
		if (prev == 8 && t <= 8)
			strncat(fmt, "/", len - strlen(fmt) - 1);
		prev = t;
		strncat(fmt, tokens[t], len - strlen(fmt) - 1);
		if (t < 6)
			have[t] = 1;
		if (t == 6)
			have[0] = have[1] = have[2] = 1;
		if (t == 7)
			have[3] = have[4] = have[5] = 1;
		if (t == 8)
			have[2] = 1;
	}
	for (int f = 0; f < 6; f++)
		if (!have[f]) { /* after a '/', so never right after %e */
			strncat(fmt, "/", len - strlen(fmt) - 1);
			strncat(fmt, tokens[f], len - strlen(fmt) - 1);
		}
}

static void round_trip(const uint8_t *data, size_t size, const uint8_t *fb, size_t fn)
{
	uint64_t seed = 0;
	memcpy(&seed, data, size < 8 ? size : 8);
	double lo = year_start(1000), hi = year_start(10000);
	time_t t = (time_t)(lo + (double)(seed % (uint64_t)(hi - lo)));
	int ms = (int)((seed >> 48) % 1000);
	char fmt[160], stamp[200], line[300];
	make_format(fb, fn, fmt, sizeof fmt);
	struct tm tm;
	FUZZ_ASSERT(gmtime_r(&t, &tm));
	size_t n = strftime(stamp, sizeof stamp, fmt, &tm);
	if (n == 0 || n + 5 >= 127) /* a time stamp is read from at most 127 bytes */
		return;
	snprintf(line, sizeof line, "I [%s.%03d] step 3/7 done", stamp, ms);
	char err[256];
	struct progress_re *re = progress_re_compile("^I \\[([^\\]]*)\\]", err, sizeof err);
	FUZZ_ASSERT(re);
	double got;
	int rc = track_line_time(re, fmt, line, strlen(line), &got);
	if (rc != 0 || fabs(got - ((double)t + ms / 1000.0)) > 1e-3) {
		fprintf(stderr, "format \"%s\", line \"%s\": rc %d, read %.3f, wrote %lld.%03d\n", fmt, line, rc,
			rc ? 0.0 : got, (long long)t, ms);
		FUZZ_ASSERT(!"a written time reads back");
	}
	progress_re_free(re);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *line;
	size_t len;
	char err[256];

	if (!(line = next_line(&p, end, &len)))
		return 0;
	round_trip(data, size, len > 8 ? (const uint8_t *)line + 8 : (const uint8_t *)"", len > 8 ? len - 8 : 0);

	if (!(line = next_line(&p, end, &len)))
		return 0;
	char *pattern = fuzz_cstring((const uint8_t *)line, len);
	char *fmt = NULL;
	if ((line = next_line(&p, end, &len)))
		fmt = fuzz_cstring((const uint8_t *)line, len);
	if (!fmt || !*fmt) {
		free(fmt);
		fmt = strdup("%Y-%m-%dT%H:%M:%S"); /* track's default */
	}
	err[0] = 0;
	struct progress_re *re = progress_re_compile(pattern, err, sizeof err);
	if (!re)
		fuzz_check_message(err);
	int bounded = !strchr(fmt, 's');
	double lo = year_start(0), hi = year_start(10002);
	for (int n = 0; re && n < MAX_LINES && (line = next_line(&p, end, &len)); n++) {
		double when;
		if (track_line_time(re, fmt, line, len, &when) != 0)
			continue;
		FUZZ_ASSERT(!isnan(when));
		if (bounded)
			FUZZ_ASSERT(when >= lo && when < hi);
	}
	progress_re_free(re);
	free(pattern);
	free(fmt);
	return 0;
}
