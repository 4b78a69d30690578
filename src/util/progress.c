#include "util/progress.h"
#include "util/clock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum mode { MODE_UNKNOWN, MODE_OFF, MODE_LIVE, MODE_PLAIN };

static enum mode mode = MODE_UNKNOWN;
static int quiet;
static uint64_t plain_interval_ns = 10ull * 1000000000ull;
static size_t last_len;     /* live: the length of the line drawn */
static uint64_t last_ns;    /* when the last line was drawn or printed */
static uint64_t first_ns;   /* plain: the first update (the interval runs from there) */

static enum mode mode_now(void)
{
	if (mode == MODE_UNKNOWN) {
		if (quiet || getenv("NODEMARK_NO_PROGRESS"))
			mode = MODE_OFF;
		else
			mode = isatty(STDERR_FILENO) ? MODE_LIVE : MODE_PLAIN;
	}
	return mode;
}

int progress_enabled(void) { return mode_now() != MODE_OFF; }
int progress_live(void) { return mode_now() == MODE_LIVE; }

void progress_set_quiet(void)
{
	quiet = 1;
	mode = MODE_OFF;
}

void progress_set_interval(unsigned seconds)
{
	plain_interval_ns = (uint64_t)seconds * 1000000000ull;
}

static void print_plain(const char *line)
{
	char when[16] = "";
	time_t t = time(NULL);
	struct tm tm;
	if (localtime_r(&t, &tm))
		strftime(when, sizeof when, "%H:%M:%S", &tm);
	fprintf(stderr, "[%s] %s\n", when, line);
	fflush(stderr);
}

void progress_update(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	enum mode m = mode_now();
	if (m == MODE_OFF)
		return;
	uint64_t now = clock_now_ns();
	if (m == MODE_LIVE && last_len && now - last_ns < 100000000ull)
		return;
	if (m == MODE_PLAIN) {
		if (!first_ns)
			first_ns = now;
		if (now - (last_ns ? last_ns : first_ns) < plain_interval_ns)
			return;
	}
	last_ns = now;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (m == MODE_PLAIN) {
		print_plain(line);
		return;
	}
	size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
	fprintf(stderr, "\r%s%*s", line, last_len > len ? (int)(last_len - len) : 0, "");
	fflush(stderr);
	last_len = len;
}

void progress_clear(void)
{
	if (mode_now() != MODE_LIVE || !last_len)
		return;
	fprintf(stderr, "\r%*s\r", (int)last_len, "");
	fflush(stderr);
	last_len = 0;
}
