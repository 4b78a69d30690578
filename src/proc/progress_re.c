#include "proc/progress_re.h"
#include "util/error.h"
#include "util/strbuf.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PATTERN 1024
/* Bounds on what one line can cost: a pathological pattern (nested quantifiers, back-
 * references) gives up on a line instead of hanging the tracking. */
#define MATCH_LIMIT 1000000u
#define DEPTH_LIMIT 10000u
#define JIT_STACK_MAX (1u << 20)

struct progress_re {
	pcre2_code *code;
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	pcre2_jit_stack *jit_stack;
	int jit;                /* compiled by the JIT */
	uint32_t group;         /* the captured group's number */
	char *need;             /* a literal every match contains (NULL: none) */
	size_t need_len;
	size_t rare_at;         /* the offset in need of its rarest byte, searched with memchr */
};

/* --- the literal prefilter -------------------------------------------------------------- */

/* The index after a bracket expression starting at p[i] == '[', or 0 when it does not close. */
static size_t skip_bracket(const char *p, size_t i)
{
	i++;
	if (p[i] == '^')
		i++;
	if (p[i] == ']')
		i++;
	for (; p[i]; i++) {
		if (p[i] == '\\' && p[i + 1]) {
			i++;
		} else if (p[i] == '[' && p[i + 1] == ':') {
			const char *e = strstr(p + i + 2, ":]");
			if (!e)
				return 0;
			i = (size_t)(e + 1 - p);
		} else if (p[i] == ']') {
			return i + 1;
		}
	}
	return 0;
}

/* The index after the group starting at p[i] == '(', or 0 when it does not close. */
static size_t skip_group(const char *p, size_t i)
{
	int depth = 0;
	for (; p[i]; i++) {
		if (p[i] == '\\' && p[i + 1]) {
			i++;
		} else if (p[i] == '[') {
			size_t e = skip_bracket(p, i);
			if (!e)
				return 0;
			i = e - 1;
		} else if (p[i] == '(') {
			depth++;
		} else if (p[i] == ')' && --depth == 0) {
			return i + 1;
		}
	}
	return 0;
}

/* What may follow "(?" for the prefilter to understand the group: a plain or named group.
 * Anything else (inline flags such as (?i), lookarounds, conditionals) turns it off. */
static int plain_group(const char *q)
{
	if (*q == ':')
		return 1;
	if (*q == 'P' && q[1] == '<')
		return 1;
	return *q == '<' && (isalpha((unsigned char)q[1]) || q[1] == '_');
}

char *progress_re_required_literal(const char *p, size_t *outlen)
{
	struct strbuf cur, best;
	int last_is_char = 0, ok = 1;
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
	for (size_t i = 0; p[i] && ok;) {
		char c = p[i];
		if (c == '|' || (c == '(' && p[i + 1] == '*')) {
			ok = 0; /* alternatives, or a verb like (*UCP) that changes the whole pattern */
		} else if (c == '*' || c == '?' || c == '{') {
			if (last_is_char && cur.len)
				cur.buf[--cur.len] = 0; /* that char may be absent */
			END_RUN();
			const char *close = c == '{' && isdigit((unsigned char)p[i + 1]) ? strchr(p + i, '}') : NULL;
			i = close ? (size_t)(close - p) + 1 : i + 1;
		} else if (c == '+' || c == '.' || c == '^' || c == '$') {
			END_RUN();
			i++;
		} else if (c == '\\') {
			char n = p[i + 1];
			if (n && !isalnum((unsigned char)n)) {
				sb_add(&cur, &n, 1);
				last_is_char = 1;
			} else if (n == 't') {
				sb_add(&cur, "\t", 1);
				last_is_char = 1;
			} else if (n && strchr("dDsSwWhHvVbBAzZG", n)) {
				END_RUN(); /* a class or an assertion */
			} else {
				ok = 0; /* \x.., \Q...\E, \p{..}, back-references: not worth following */
			}
			i += 2;
		} else if (c == '[') {
			size_t e = skip_bracket(p, i);
			ok = e != 0;
			END_RUN();
			i = e;
		} else if (c == '(') {
			if (p[i + 1] == '?' && !plain_group(p + i + 2)) {
				ok = 0;
			} else {
				size_t e = skip_group(p, i);
				ok = e != 0;
				END_RUN();
				i = e;
			}
		} else {
			sb_add(&cur, &c, 1);
			last_is_char = 1;
			i++;
		}
	}
	END_RUN();
#undef END_RUN
	sb_free(&cur);
	if (!ok || best.len < 2) {
		sb_free(&best);
		return NULL;
	}
	*outlen = best.len;
	return sb_detach(&best);
}

/* How common a byte is in log text, roughly (higher: more common). memchr for the literal's
 * rarest byte and memcmp around it beats memmem, which starts from the first byte (often a
 * space or a digit). */
static int byte_rank(unsigned char c)
{
	static const char common[] = "etaoinsrhldcumfpgwybvkxjqz"; /* English letter order */
	if (c == ' ' || c == '\t')
		return 100;
	if (isdigit(c))
		return 90;
	const char *at = strchr(common, tolower(c));
	if (c && at)
		return (isupper(c) ? 40 : 60) + 26 - (int)(at - common);
	return c == '.' || c == ':' || c == '-' || c == '=' || c == '/' ? 50 : 10;
}

static size_t rarest_byte(const char *s, size_t n)
{
	size_t best = 0;
	for (size_t i = 1; i < n; i++)
		if (byte_rank((unsigned char)s[i]) < byte_rank((unsigned char)s[best]))
			best = i;
	return best;
}

/* Does line[0..len) contain the literal? */
static int has_literal(const struct progress_re *re, const char *line, size_t len)
{
	if (len < re->need_len)
		return 0;
	const char *p = line + re->rare_at, *end = line + len - re->need_len + re->rare_at + 1;
	unsigned char c = (unsigned char)re->need[re->rare_at];
	while (p < end && (p = memchr(p, c, (size_t)(end - p)))) {
		if (memcmp(p - re->rare_at, re->need, re->need_len) == 0)
			return 1;
		p++;
	}
	return 0;
}

/* --- compiling ---------------------------------------------------------------------------- */

/* The first named group's number, else 1; 0 when the pattern has no group. */
static uint32_t captured_group(const pcre2_code *code)
{
	uint32_t ncap = 0, nnames = 0, entry = 0;
	PCRE2_SPTR table = NULL;
	pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &ncap);
	pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &nnames);
	if (ncap == 0)
		return 0;
	if (nnames == 0)
		return 1;
	pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &entry);
	pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &table);
	uint32_t first = ncap;
	for (uint32_t i = 0; i < nnames; i++) {
		uint32_t g = (uint32_t)table[i * entry] << 8 | table[i * entry + 1];
		if (g < first)
			first = g;
	}
	return first;
}

/* need_group: the pattern must capture (a number, a time); else the whole match is taken. */
static struct progress_re *compile(const char *pattern, int need_group, char *err, size_t errlen)
{
	int code_err;
	PCRE2_SIZE at;
	if (strlen(pattern) > MAX_PATTERN) {
		nm_errf(err, errlen, "longer than %d characters", MAX_PATTERN);
		return NULL;
	}
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_NEVER_BACKSLASH_C,
					 &code_err, &at, NULL);
	if (!code) {
		PCRE2_UCHAR msg[160];
		pcre2_get_error_message(code_err, msg, sizeof msg);
		nm_errf(err, errlen, "not a valid regex at offset %zu: %s", (size_t)at, (const char *)msg);
		return NULL;
	}
	uint32_t group = captured_group(code);
	if (!group && need_group) {
		pcre2_code_free(code);
		nm_errf(err, errlen, "the pattern needs a group around the number, e.g. 'block (\\d+)'");
		return NULL;
	}
	struct progress_re *re = calloc(1, sizeof *re);
	if (!re)
		abort();
	re->code = code;
	re->group = group;
	re->md = pcre2_match_data_create_from_pattern(code, NULL);
	re->mctx = pcre2_match_context_create(NULL);
	if (!re->md || !re->mctx)
		abort();
	pcre2_set_match_limit(re->mctx, MATCH_LIMIT);
	pcre2_set_depth_limit(re->mctx, DEPTH_LIMIT);
	/* Without a JIT (some architectures, a hardened kernel) the interpreter does the same. */
	re->jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
	if (re->jit && (re->jit_stack = pcre2_jit_stack_create(32u << 10, JIT_STACK_MAX, NULL)))
		pcre2_jit_stack_assign(re->mctx, NULL, re->jit_stack);
	re->need = progress_re_required_literal(pattern, &re->need_len);
	if (re->need)
		re->rare_at = rarest_byte(re->need, re->need_len);
	return re;
}

struct progress_re *progress_re_compile(const char *pattern, char *err, size_t errlen)
{
	return compile(pattern, 1, err, errlen);
}

struct progress_re *progress_re_compile_any(const char *pattern, char *err, size_t errlen)
{
	return compile(pattern, 0, err, errlen);
}

void progress_re_free(struct progress_re *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_match_context_free(re->mctx);
	pcre2_jit_stack_free(re->jit_stack);
	pcre2_code_free(re->code);
	free(re->need);
	free(re);
}

/* --- matching ----------------------------------------------------------------------------- */

int progress_re_capture_unfiltered(const struct progress_re *re, const char *line, size_t len,
				   const char **cap, size_t *caplen)
{
	/* An empty line still needs a valid pointer. */
	PCRE2_SPTR s = (PCRE2_SPTR)(len ? line : "");
	int rc = re->jit ? pcre2_jit_match(re->code, s, len, 0, 0, re->md, re->mctx)
			 : pcre2_match(re->code, s, len, 0, 0, re->md, re->mctx);
	if (rc <= 0 || (uint32_t)rc <= re->group)
		return 0; /* no match, a limit reached, or the group not set */
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
	if (ov[2 * re->group] == PCRE2_UNSET)
		return 0;
	*cap = line + ov[2 * re->group];
	*caplen = ov[2 * re->group + 1] - ov[2 * re->group];
	return 1;
}

int progress_re_capture(const struct progress_re *re, const char *line, size_t len, const char **cap,
			size_t *caplen)
{
	if (re->need && !has_literal(re, line, len))
		return 0;
	return progress_re_capture_unfiltered(re, line, len, cap, caplen);
}

int progress_re_matches(const struct progress_re *re, const char *line, size_t len)
{
	const char *cap;
	size_t n;
	return progress_re_capture(re, line, len, &cap, &n);
}

int progress_re_number(const struct progress_re *re, const char *line, size_t len, double *value)
{
	const char *cap;
	size_t n;
	char buf[64], *end;
	if (!progress_re_capture(re, line, len, &cap, &n) || n == 0 || n >= sizeof buf)
		return 0;
	if (n < 16) {
		/* The usual capture is digits only: no strtod needed. */
		uint64_t v = 0;
		size_t i = 0;
		while (i < n && cap[i] >= '0' && cap[i] <= '9')
			v = v * 10 + (uint64_t)(cap[i++] - '0');
		if (i == n) {
			*value = (double)v;
			return 1;
		}
	}
	memcpy(buf, cap, n);
	buf[n] = 0;
	double v = strtod(buf, &end);
	if (end == buf || !isfinite(v))
		return 0;
	*value = v;
	return 1;
}
