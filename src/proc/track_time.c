#include "proc/track_time.h"
#include "proc/progress_re.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Days since 1970-01-01 of a proleptic Gregorian date (days past the month's end roll over,
 * as timegm does). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Up to width digits (after blanks, as strptime allows) within [lo, hi]; NULL when none.
 * As glibc's strptime, a digit is taken only while the value so far times ten is at most hi:
 * "%e%H" reads " 612" as day 6, hour 12 (not day 61, refused). */
static const char *field(const char *s, const char *end, int width, int lo, int hi, int *out)
{
	int v = 0, n = 0;
	while (s < end && *s == ' ')
		s++;
	for (; s < end && n < width && isdigit((unsigned char)*s) && (n == 0 || v * 10 <= hi); s++, n++)
		v = v * 10 + (*s - '0');
	if (n == 0 || v < lo || v > hi)
		return NULL;
	*out = v;
	return s;
}

/* The common numeric formats (%Y %m %d %H %M %S %y %e %F %T, literals, blanks), parsed by
 * hand: a line's time costs no strptime. 1 and *s past the text, 0 not parsed (a bad time),
 * -1 a directive this does not know (strptime's turn). */
static int parse_numeric(const char **sp, const char *end, const char *fmt, int64_t *epoch)
{
	int y = 1900, mo = 1, d = 1, h = 0, mi = 0, sec = 0;
	const char *s = *sp;
	for (const char *f = fmt; *f && s; f++) {
		if (*f == ' ') {
			while (s < end && isspace((unsigned char)*s))
				s++;
			continue;
		}
		if (*f != '%') {
			s = s < end && *s == *f ? s + 1 : NULL;
			continue;
		}
		switch (*++f) {
		case 'Y': s = field(s, end, 4, 0, 9999, &y); break;
		case 'y':
			s = field(s, end, 2, 0, 99, &y);
			y += y < 69 ? 2000 : 1900;
			break;
		case 'm': s = field(s, end, 2, 1, 12, &mo); break;
		case 'd': case 'e': s = field(s, end, 2, 1, 31, &d); break;
		case 'H': s = field(s, end, 2, 0, 23, &h); break;
		case 'M': s = field(s, end, 2, 0, 59, &mi); break;
		case 'S': s = field(s, end, 2, 0, 61, &sec); break;
		case 'F':
			if ((s = field(s, end, 4, 0, 9999, &y)) && s < end && *s++ == '-' &&
			    (s = field(s, end, 2, 1, 12, &mo)) && s < end && *s++ == '-')
				s = field(s, end, 2, 1, 31, &d);
			else
				s = NULL;
			break;
		case 'T':
			if ((s = field(s, end, 2, 0, 23, &h)) && s < end && *s++ == ':' &&
			    (s = field(s, end, 2, 0, 59, &mi)) && s < end && *s++ == ':')
				s = field(s, end, 2, 0, 61, &sec);
			else
				s = NULL;
			break;
		case '%': s = s < end && *s == '%' ? s + 1 : NULL; break;
		default: return -1;
		}
	}
	if (!s)
		return 0;
	*sp = s;
	*epoch = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	return 1;
}

/* The strptime route, for formats with names (%b, %a) or other directives. */
static int parse_strptime(const char *text, size_t len, const char *fmt, size_t *used, int64_t *epoch)
{
	char buf[128];
	struct tm tm;
	memcpy(buf, text, len);
	buf[len] = 0;
	memset(&tm, 0, sizeof tm);
	tm.tm_mday = 1; /* a format without a day means the 1st (as the hand parser), not the 0th */
	char *end = strptime(buf, fmt, &tm);
	if (!end)
		return -1;
	/* Log times are read as UTC: only differences between them matter. */
	time_t s = timegm(&tm);
	if (s == (time_t)-1 && tm.tm_year != 69)
		return -1;
	*used = (size_t)(end - buf);
	*epoch = (int64_t)s;
	return 0;
}

int track_parse_time(const char *text, size_t len, const char *fmt, double *out)
{
	const char *end = text + len, *s = text;
	int64_t epoch;
	if (len == 0 || len >= 128)
		return -1;
	if (strcmp(fmt, "%s") == 0) {
		char buf[128], *e;
		memcpy(buf, text, len);
		buf[len] = 0;
		double v = strtod(buf, &e);
		if (e == buf || *e || !isfinite(v))
			return -1;
		*out = v;
		return 0;
	}
	int r = parse_numeric(&s, end, fmt, &epoch);
	if (r == 0)
		return -1;
	if (r < 0) {
		size_t used;
		if (parse_strptime(text, len, fmt, &used, &epoch) < 0)
			return -1;
		s = text + used;
	}
	double frac = 0;
	if (s + 1 < end && (*s == '.' || *s == ',') && isdigit((unsigned char)s[1])) {
		double scale = 0.1;
		for (s++; s < end && isdigit((unsigned char)*s); s++, scale /= 10)
			frac += (*s - '0') * scale;
	}
	*out = (double)epoch + frac;
	return 0;
}

int track_line_time(const struct progress_re *tre, const char *fmt, const char *line, size_t len, double *out)
{
	const char *cap;
	size_t n;
	if (!progress_re_capture(tre, line, len, &cap, &n))
		return -1;
	return track_parse_time(cap, n, fmt, out);
}
