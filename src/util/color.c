#include "util/color.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static enum color_when when = COLOR_AUTO;

void color_set_when(enum color_when w) { when = w; }

int color_parse(const char *s, enum color_when *w)
{
	static const char *const names[] = { "auto", "always", "never" };
	for (int i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0) {
			*w = (enum color_when)i;
			return 0;
		}
	return -1;
}

int color_enabled(FILE *f)
{
	if (when != COLOR_AUTO)
		return when == COLOR_ALWAYS;
	const char *no = getenv("NO_COLOR");
	if (no && *no)
		return 0;
	return f && isatty(fileno(f));
}

const char *color_on(FILE *f, enum color_role role)
{
	/* SGR: 31 red, 32 green, 33 yellow; 0 resets */
	static const char *const sgr[] = { "\033[31m", "\033[32m", "\033[33m" };
	return color_enabled(f) ? sgr[role] : "";
}

const char *color_off(FILE *f) { return color_enabled(f) ? "\033[0m" : ""; }
