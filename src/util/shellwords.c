#include "util/shellwords.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

static void push(char ***v, size_t *n, struct strbuf *w)
{
	*v = realloc(*v, (*n + 2) * sizeof **v);
	if (!*v)
		abort();
	(*v)[(*n)++] = sb_detach(w);
	(*v)[*n] = NULL;
	sb_init(w);
}

char **shellwords_split(const char *s, char *err, size_t errlen)
{
	char **v = NULL;
	size_t n = 0;
	struct strbuf w;
	int in_word = 0;
	sb_init(&w);
	for (const char *p = s;; p++) {
		char c = *p;
		if (c == '\0' || c == ' ' || c == '\t' || c == '\n') {
			if (in_word)
				push(&v, &n, &w);
			in_word = 0;
			if (c == '\0')
				break;
			continue;
		}
		in_word = 1;
		if (c == '\\' && p[1]) {
			sb_add(&w, ++p, 1);
		} else if (c == '\'' || c == '"') {
			const char *q = p + 1;
			for (; *q && *q != c; q++) {
				if (c == '"' && *q == '\\' && q[1] && strchr("\"\\$`", q[1]))
					q++;
				sb_add(&w, q, 1);
			}
			if (!*q) {
				nm_errf(err, errlen, "%s: an unclosed %c quote", s, c);
				sb_free(&w);
				shellwords_free(v);
				return NULL;
			}
			p = q;
		} else {
			sb_add(&w, p, 1);
		}
	}
	sb_free(&w);
	if (n == 0) {
		nm_errf(err, errlen, "\"%s\": no command in it", s);
		shellwords_free(v);
		return NULL;
	}
	return v;
}

void shellwords_free(char **words)
{
	for (size_t i = 0; words && words[i]; i++)
		free(words[i]);
	free(words);
}
