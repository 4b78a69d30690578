/* What changed between two runs, as text (the list itself: compare/changes.c). */
#include "export/changes.h"
#include "util/strbuf.h"
#include "util/textwidth.h"
#include "util/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void value_text(struct strbuf *sb, const json_t *v)
{
	if (!v || json_is_null(v)) {
		sb_puts(sb, "(none)");
	} else if (json_is_string(v)) {
		sb_puts(sb, *json_string_value(v) ? json_string_value(v) : "\"\"");
	} else {
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		sb_puts(sb, s ? s : "?");
		free(s);
	}
}

/* A value of the setting's unit as the figures are shown (units.h): sizes exactly, in binary
 * units as they are typed ("4 KiB", not "4.10 kB"); 0 when v is no number. */
static int unit_text(const json_t *v, const char *unit, char *buf, size_t len)
{
	if (!json_is_number(v))
		return 0;
	double x = json_number_value(v);
	if (strcmp(unit, "B") == 0 && json_is_integer(v) && json_integer_value(v) >= 0)
		units_bytes_exact((uint64_t)json_integer_value(v), " ", buf, len);
	else if (strcmp(unit, "s") == 0)
		units_latency(x * 1e9, buf, len);
	else
		units_figure(x, "", unit, buf, len);
	return 1;
}

int changes_entry_text(const json_t *c, char *what, size_t wlen, char **a, char **b)
{
	const char *unit = json_string_value(json_object_get(c, "unit"));
	const char *name = json_string_value(json_object_get(c, "name"));
	json_t *va = json_object_get(c, "a"), *vb = json_object_get(c, "b");
	char ta[64] = "(none)", tb[64] = "(none)";
	int shown = unit && name && (json_is_null(va) || unit_text(va, unit, ta, sizeof ta)) &&
		    (json_is_null(vb) || unit_text(vb, unit, tb, sizeof tb)) &&
		    strcmp(ta, tb) != 0; /* two values the text rounds alike are shown as they are */
	struct strbuf sa, sb;
	sb_init(&sa);
	sb_init(&sb);
	if (shown) {
		sb_puts(&sa, ta);
		sb_puts(&sb, tb);
	} else {
		value_text(&sa, va);
		value_text(&sb, vb);
	}
	snprintf(what, wlen, "%s", shown ? name : json_string_value(json_object_get(c, "what")));
	*a = sb_detach(&sa);
	*b = sb_detach(&sb);
	return shown;
}

char *changes_text(const json_t *changes)
{
	struct strbuf sb;
	sb_init(&sb);
	size_t i, width = 0;
	json_t *c;
	char what[1024], *a, *b;
	json_array_foreach(changes, i, c) {
		changes_entry_text(c, what, sizeof what, &a, &b);
		size_t n = text_width(what);
		if (n > width && n < 48)
			width = n;
		free(a);
		free(b);
	}
	json_array_foreach(changes, i, c) {
		changes_entry_text(c, what, sizeof what, &a, &b);
		sb_printf(&sb, "  %s%*s  %s -> %s\n", what, text_fill(what, width), "", a, b);
		free(a);
		free(b);
	}
	if (!json_array_size(changes))
		sb_puts(&sb, "  (none)\n");
	return sb_detach(&sb);
}

void changes_write_text(FILE *f, const json_t *changes, const char *name_a, const char *name_b)
{
	if (!changes)
		return;
	char *text = changes_text(changes);
	fprintf(f, "\nWhat changed from %s to %s\n%s", name_a, name_b, text);
	free(text);
}

void changes_write_markdown(FILE *f, const json_t *changes, const char *name_a, const char *name_b)
{
	if (!changes)
		return;
	char *text = changes_text(changes);
	fprintf(f, "\n## What changed from %s to %s\n\n```\n%s```\n", name_a, name_b, text);
	free(text);
}
