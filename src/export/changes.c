/* What changed between two runs, as text (the list itself: compare/changes.c). */
#include "export/changes.h"
#include "util/strbuf.h"

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

char *changes_text(const json_t *changes)
{
	struct strbuf sb;
	sb_init(&sb);
	size_t i, width = 0;
	json_t *c;
	json_array_foreach(changes, i, c) {
		size_t n = strlen(json_string_value(json_object_get(c, "what")));
		if (n > width && n < 48)
			width = n;
	}
	json_array_foreach(changes, i, c) {
		sb_printf(&sb, "  %-*s  ", (int)width, json_string_value(json_object_get(c, "what")));
		value_text(&sb, json_object_get(c, "a"));
		sb_puts(&sb, " -> ");
		value_text(&sb, json_object_get(c, "b"));
		sb_puts(&sb, "\n");
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
