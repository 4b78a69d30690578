#include "proc/progress_re.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 64
#define MAX_PATTERN 1024

/* The hand matcher's view of `^?LIT1(NUM)LIT2$?`. */
struct fast {
	char *lit1, *lit2;
	size_t len1, len2;
	int bol, eol;
	int dots;               /* the number class also takes '.' */
};

struct progress_re {
	regex_t re;
	int group;              /* the captured group's index in re */
	char *need;             /* a literal every match contains (NULL: none) */
	size_t need_len;
	int is_fast;
	struct fast f;
};

/* --- translation to POSIX ERE ------------------------------------------------------------ */

static int is_meta(char c) { return c && strchr(".[]()*+?{}|^$\\", c) != NULL; }

/* Copies a bracket expression starting at p[0] == '['; returns the index after its ']', or 0
 * when it does not close. \d \s \w and \x (any other x: literal x) are rewritten in POSIX form. */
static size_t bracket(const char *p, struct strbuf *sb, char *err, size_t errlen)
{
	size_t i = 1;
	sb_add(sb, "[", 1);
	if (p[i] == '^')
		sb_add(sb, p + i++, 1);
	if (p[i] == ']')
		sb_add(sb, p + i++, 1);
	for (; p[i]; i++) {
		if (p[i] == ']') {
			sb_add(sb, "]", 1);
			return i + 1;
		}
		if (p[i] == '[' && (p[i + 1] == ':' || p[i + 1] == '=' || p[i + 1] == '.')) {
			char close[3] = { p[i + 1], ']', 0 };
			const char *e = strstr(p + i + 2, close);
			if (!e)
				break;
			sb_add(sb, p + i, (size_t)(e + 2 - (p + i)));
			i = (size_t)(e + 1 - p);
			continue;
		}
		if (p[i] == '\\' && p[i + 1]) {
			char n = p[++i];
			if (n == 'd')
				sb_puts(sb, "0-9");
			else if (n == 's')
				sb_puts(sb, "[:space:]");
			else if (n == 'w')
				sb_puts(sb, "[:alnum:]_");
			else if (n == ']' || n == '^' || n == '-') {
				nm_errf(err, errlen, "\"\\%c\" inside [...]: put ']' first, '^' not first, '-' last", n);
				return 0;
			} else
				sb_add(sb, &n, 1);
			continue;
		}
		sb_add(sb, p + i, 1);
	}
	nm_errf(err, errlen, "a '[' is not closed");
	return 0;
}

char *progress_re_translate(const char *p, int *group, char *err, size_t errlen)
{
	struct strbuf sb;
	int ngroups = 0, first_cap = 0, first_named = 0, quantified = 0;
	sb_init(&sb);
	if (strlen(p) > MAX_PATTERN) {
		nm_errf(err, errlen, "longer than %d characters", MAX_PATTERN);
		goto fail;
	}
	for (size_t i = 0; p[i];) {
		char c = p[i];
		/* Stacked quantifiers (a++) and back-references send glibc's matcher into
		 * exponential time; neither is needed to find a number. */
		int quant = c == '*' || c == '+' || c == '?' || (c == '{' && isdigit((unsigned char)p[i + 1]));
		if (quant && quantified) {
			nm_errf(err, errlen, "a quantifier after a quantifier (like a++ or a*?) is not supported");
			goto fail;
		}
		quantified = quant;
		if (c == '{' && quant) {
			const char *close = strchr(p + i, '}');
			size_t n = close ? (size_t)(close - (p + i)) + 1 : strlen(p + i);
			sb_add(&sb, p + i, n);
			i += n;
			continue;
		}
		if (c == '\\') {
			char n = p[i + 1];
			if (!n) {
				nm_errf(err, errlen, "the pattern ends with a backslash");
				goto fail;
			}
			if (n >= '1' && n <= '9') {
				nm_errf(err, errlen, "back-references (\\%c) are not supported", n);
				goto fail;
			}
			if (n == 'd')
				sb_puts(&sb, "[0-9]");
			else if (n == 'D')
				sb_puts(&sb, "[^0-9]");
			else if (n == 't')
				sb_puts(&sb, "\t");
			else
				sb_add(&sb, p + i, 2); /* \. \( ... and GNU's \s \S \w \W \b \B \< \> */
			i += 2;
		} else if (c == '[') {
			size_t used = bracket(p + i, &sb, err, errlen);
			if (!used)
				goto fail;
			i += used;
		} else if (c == '(' && p[i + 1] == '?') {
			const char *q = p + i + 2;
			if (*q == ':') {
				i += 3;
			} else if (*q == '<' || (*q == 'P' && q[1] == '<')) {
				q += *q == 'P' ? 2 : 1;
				const char *end = q;
				while (isalnum((unsigned char)*end) || *end == '_')
					end++;
				if (end == q || *end != '>') {
					nm_errf(err, errlen, "a named group is written (?P<name>...) or (?<name>...)");
					goto fail;
				}
				if (!first_named)
					first_named = ngroups + 1;
				i = (size_t)(end + 1 - p);
			} else {
				nm_errf(err, errlen, "only (?:...) and named groups (?P<name>...) are supported after \"(?\"");
				goto fail;
			}
			ngroups++;
			sb_add(&sb, "(", 1);
		} else {
			if (c == '(' && ++ngroups && !first_cap)
				first_cap = ngroups;
			sb_add(&sb, &c, 1);
			i++;
		}
	}
	*group = first_named ? first_named : first_cap;
	if (!*group) {
		nm_errf(err, errlen, "the pattern needs a group around the number, e.g. 'block (\\d+)'");
		goto fail;
	}
	if (ngroups >= MAX_GROUPS) {
		nm_errf(err, errlen, "more than %d groups", MAX_GROUPS - 1);
		goto fail;
	}
	return sb_detach(&sb);
fail:
	sb_free(&sb);
	return NULL;
}

/* --- the literal prefilter -------------------------------------------------------------- */

/* The longest literal run that every match of the ERE contains; NULL when there is none
 * worth using or the pattern has a top-level '|'. */
static char *required_literal(const char *e, size_t *outlen)
{
	struct strbuf cur, best;
	int last_is_char = 0;
	sb_init(&cur);
	sb_init(&best);
#define END_RUN()                                               \
	do {                                                    \
		if (cur.len > best.len) {                       \
			sb_reset(&best);                        \
			sb_add(&best, cur.buf, cur.len);        \
		}                                               \
		sb_reset(&cur);                                 \
		last_is_char = 0;                               \
	} while (0)
	for (size_t i = 0; e[i];) {
		char c = e[i];
		if (c == '|') {
			sb_free(&cur);
			sb_free(&best);
			return NULL;
		}
		if (c == '*' || c == '?' || c == '{') {
			if (last_is_char && cur.len)
				cur.buf[--cur.len] = 0; /* that char may be absent */
			END_RUN();
			if (c == '{') {
				const char *close = strchr(e + i, '}');
				i = close ? (size_t)(close - e) + 1 : strlen(e);
			} else {
				i++;
			}
			continue;
		}
		if (c == '+') {
			END_RUN();
			i++;
			continue;
		}
		if (c == '\\' && e[i + 1] && !isalnum((unsigned char)e[i + 1])) {
			sb_add(&cur, e + i + 1, 1);
			last_is_char = 1;
			i += 2;
			continue;
		}
		if (c == '\\') {
			END_RUN();
			i += e[i + 1] ? 2 : 1;
			continue;
		}
		if (c == '[') {
			/* Skip the bracket expression. */
			size_t j = i + 1;
			if (e[j] == '^')
				j++;
			if (e[j] == ']')
				j++;
			while (e[j] && e[j] != ']') {
				if (e[j] == '[' && (e[j + 1] == ':' || e[j + 1] == '=' || e[j + 1] == '.')) {
					char close[3] = { e[j + 1], ']', 0 };
					const char *x = strstr(e + j + 2, close);
					j = x ? (size_t)(x - e) + 2 : strlen(e);
					continue;
				}
				j++;
			}
			END_RUN();
			i = e[j] ? j + 1 : j;
			continue;
		}
		if (c == '(') {
			int depth = 0;
			size_t j = i;
			for (; e[j]; j++) {
				if (e[j] == '\\' && e[j + 1]) {
					j++;
				} else if (e[j] == '[') {
					/* a ')' inside brackets does not close */
					size_t k = j + 1;
					if (e[k] == '^')
						k++;
					if (e[k] == ']')
						k++;
					while (e[k] && e[k] != ']')
						k++;
					j = e[k] ? k : k - 1;
				} else if (e[j] == '(') {
					depth++;
				} else if (e[j] == ')' && --depth == 0) {
					break;
				}
			}
			END_RUN();
			i = e[j] ? j + 1 : j;
			continue;
		}
		if (c == '.' || c == '^' || c == '$' || c == ')') {
			END_RUN();
			i++;
			continue;
		}
		sb_add(&cur, &c, 1);
		last_is_char = 1;
		i++;
	}
	END_RUN();
#undef END_RUN
	sb_free(&cur);
	if (best.len < 2) {
		sb_free(&best);
		return NULL;
	}
	*outlen = best.len;
	return sb_detach(&best);
}

/* --- the hand matcher --------------------------------------------------------------------- */

/* Literal units (plain chars, or \ + punctuation) from p; returns the index after them. */
static size_t literal_run(const char *p, struct strbuf *out)
{
	size_t i = 0;
	for (;;) {
		if (p[i] && !is_meta(p[i])) {
			sb_add(out, p + i, 1);
			i++;
		} else if (p[i] == '\\' && p[i + 1] && !isalnum((unsigned char)p[i + 1]) && p[i + 1] != '<' &&
			   p[i + 1] != '>' && p[i + 1] != '`' && p[i + 1] != '\'') {
			sb_add(out, p + i + 1, 1);
			i += 2;
		} else {
			return i;
		}
	}
}

static int parse_fast(const char *p, struct fast *f)
{
	struct strbuf a, b;
	static const char *classes[] = { "\\d+)", "[0-9]+)", "[0-9.]+)", "[.0-9]+)" };
	size_t i = 0;
	memset(f, 0, sizeof *f);
	if (p[i] == '^') {
		f->bol = 1;
		i++;
	}
	sb_init(&a);
	sb_init(&b);
	i += literal_run(p + i, &a);
	if (p[i] != '(')
		goto no;
	if (p[i + 1] == '?') {
		const char *q = p + i + 2;
		if (*q != '<' && !(*q == 'P' && q[1] == '<'))
			goto no;
		q += *q == 'P' ? 2 : 1;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		if (*q != '>')
			goto no;
		i = (size_t)(q + 1 - p);
	} else {
		i++;
	}
	size_t k;
	for (k = 0; k < 4; k++)
		if (strncmp(p + i, classes[k], strlen(classes[k])) == 0)
			break;
	if (k == 4)
		goto no;
	f->dots = k >= 2;
	i += strlen(classes[k]);
	i += literal_run(p + i, &b);
	if (p[i] == '$') {
		f->eol = 1;
		i++;
	}
	if (p[i])
		goto no;
	/* After the number must come something that cannot be part of it, or the greedy run and
	 * regexec's longest match could split the digits differently. */
	if (b.len && (isdigit((unsigned char)b.buf[0]) || (f->dots && b.buf[0] == '.')))
		goto no;
	f->len1 = a.len;
	f->len2 = b.len;
	f->lit1 = sb_detach(&a);
	f->lit2 = sb_detach(&b);
	return 1;
no:
	sb_free(&a);
	sb_free(&b);
	return 0;
}

static inline int num_char(const struct fast *f, char c)
{
	return (c >= '0' && c <= '9') || (f->dots && c == '.');
}

static int fast_capture(const struct fast *f, const char *line, size_t len, const char **cap, size_t *caplen)
{
	size_t pos = 0;
	while (pos + f->len1 <= len) {
		size_t at;
		if (f->len1) {
			const char *hit = f->bol ? (pos == 0 && memcmp(line, f->lit1, f->len1) == 0 ? line : NULL)
						 : memmem(line + pos, len - pos, f->lit1, f->len1);
			if (!hit)
				return 0;
			at = (size_t)(hit - line);
		} else {
			/* No leading literal: a match starts where a run of number characters does. */
			at = pos;
			while (at < len && !num_char(f, line[at]))
				at++;
			if (at == len || (f->bol && at != 0))
				return 0;
		}
		size_t j = at + f->len1, k = j;
		while (k < len && num_char(f, line[k]))
			k++;
		if (k > j && k + f->len2 <= len && memcmp(line + k, f->lit2, f->len2) == 0 &&
		    (!f->eol || k + f->len2 == len)) {
			*cap = line + j;
			*caplen = k - j;
			return 1;
		}
		if (f->bol)
			return 0;
		/* Next candidate: after this literal's start, or after this whole run of digits. */
		pos = f->len1 ? at + 1 : (k > at ? k : at + 1);
	}
	return 0;
}

/* --- the interface ----------------------------------------------------------------------- */

struct progress_re *progress_re_compile(const char *pattern, char *err, size_t errlen)
{
	int group;
	char *ere = progress_re_translate(pattern, &group, err, errlen);
	if (!ere)
		return NULL;
	struct progress_re *re = calloc(1, sizeof *re);
	if (!re)
		abort();
	int rc = regcomp(&re->re, ere, REG_EXTENDED);
	if (rc != 0) {
		char msg[128];
		regerror(rc, &re->re, msg, sizeof msg);
		nm_errf(err, errlen, "not a valid extended regex: %s", msg);
		free(ere);
		free(re);
		return NULL;
	}
	re->group = group;
	re->need = required_literal(ere, &re->need_len);
	re->is_fast = parse_fast(pattern, &re->f);
	free(ere);
	return re;
}

void progress_re_free(struct progress_re *re)
{
	if (!re)
		return;
	regfree(&re->re);
	free(re->need);
	free(re->f.lit1);
	free(re->f.lit2);
	free(re);
}

int progress_re_is_fast(const struct progress_re *re) { return re->is_fast; }

int progress_re_capture_slow(const struct progress_re *re, const char *line, size_t len, const char **cap,
			     size_t *caplen)
{
	regmatch_t m[MAX_GROUPS];
	char small[4096], *copy = small;
	/* regexec gets a NUL-terminated copy: REG_STARTEND alone would do for glibc, but
	 * sanitizers' regexec interceptors read up to the NUL. Cheap next to regexec itself. */
	if (len >= sizeof small && !(copy = malloc(len + 1)))
		abort();
	memcpy(copy, line, len);
	copy[len] = 0;
	m[0].rm_so = 0;
	m[0].rm_eo = (regoff_t)len;
	int rc = regexec(&re->re, copy, (size_t)re->group + 1, m, REG_STARTEND);
	if (copy != small)
		free(copy);
	if (rc != 0 || m[re->group].rm_so < 0)
		return 0;
	*cap = line + m[re->group].rm_so;
	*caplen = (size_t)(m[re->group].rm_eo - m[re->group].rm_so);
	return 1;
}

int progress_re_capture(const struct progress_re *re, const char *line, size_t len, const char **cap,
			size_t *caplen)
{
	if (re->is_fast)
		return fast_capture(&re->f, line, len, cap, caplen);
	if (re->need && !memmem(line, len, re->need, re->need_len))
		return 0;
	return progress_re_capture_slow(re, line, len, cap, caplen);
}

int progress_re_number(const struct progress_re *re, const char *line, size_t len, double *value)
{
	const char *cap;
	size_t n;
	char buf[64], *end;
	if (!progress_re_capture(re, line, len, &cap, &n) || n == 0 || n >= sizeof buf)
		return 0;
	if (re->is_fast && !re->f.dots && n < 16) {
		/* Digits only: no strtod needed. */
		uint64_t v = 0;
		for (size_t i = 0; i < n; i++)
			v = v * 10 + (uint64_t)(cap[i] - '0');
		*value = (double)v;
		return 1;
	}
	memcpy(buf, cap, n);
	buf[n] = 0;
	double v = strtod(buf, &end);
	if (end == buf || !isfinite(v))
		return 0;
	*value = v;
	return 1;
}
