#include "util/progress.h"
#include "util/clock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int enabled = -1;
static size_t last_len;
static uint64_t last_ns;

int progress_enabled(void)
{
	if (enabled < 0)
		enabled = isatty(STDERR_FILENO) && !getenv("NODEMARK_NO_PROGRESS");
	return enabled;
}

void progress_update(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	if (!progress_enabled())
		return;
	uint64_t now = clock_now_ns();
	if (last_len && now - last_ns < 100000000ull)
		return;
	last_ns = now;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
	fprintf(stderr, "\r%s%*s", line, last_len > len ? (int)(last_len - len) : 0, "");
	fflush(stderr);
	last_len = len;
}

void progress_clear(void)
{
	if (!progress_enabled() || !last_len)
		return;
	fprintf(stderr, "\r%*s\r", (int)last_len, "");
	fflush(stderr);
	last_len = 0;
}
