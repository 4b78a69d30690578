/* Colour on a terminal: the one place that decides whether text is coloured and holds the
 * escapes.  --color=auto (the default) colours a stream only when it is a terminal and
 * NO_COLOR is unset or empty (no-color.org); --color=always colours pipes too, NO_COLOR or not
 * (an explicit option beats the environment, as no-color.org asks); --color=never never. */
#ifndef NM_UTIL_COLOR_H
#define NM_UTIL_COLOR_H

#include <stdio.h>

enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
enum color_role {
	COLOR_BAD,  /* red: a called regression */
	COLOR_GOOD, /* green: a called improvement */
	COLOR_WARN, /* yellow: a warning */
};

void color_set_when(enum color_when w);
/* "auto", "always" or "never" into *w; -1 for anything else. */
int color_parse(const char *s, enum color_when *w);
/* 1 when text written to f is coloured. */
int color_enabled(FILE *f);
/* The escape that starts role's colour on f, and the one that ends it: "" when f gets none. */
const char *color_on(FILE *f, enum color_role role);
const char *color_off(FILE *f);

#endif
