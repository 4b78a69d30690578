/* fio's INI job files: [global] and [job] sections, ';' and '#' comments, bare flags and
 * "include FILE" (relative to the including file). */
#include "fio/expand.h"
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_JOBFILE_BYTES (1u << 20)
#define MAX_INCLUDE_DEPTH 8
/* An include fan-out (each file including the next one many times) grows as N^depth: these
 * bound the whole plan's includes, not just their depth. */
#define MAX_INCLUDES 256
#define MAX_INCLUDE_BYTES (8u << 20)


static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* A ';' or '#' after blank space starts a comment, as at the start of a line. */
static void strip_comment(char *s)
{
	for (char *c = s; *c; c++)
		if ((*c == ';' || *c == '#') && (c == s || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			return;
		}
}

struct ini_state {
	struct fio_plan *p;
	struct fio_optlist file_globals; /* [global] sections seen so far in this file (and includers) */
	struct fio_job *cur;             /* NULL inside [global] */
	int in_section;
	struct fio_file_id open_files[MAX_INCLUDE_DEPTH + 1]; /* the file being read and its includers */
	unsigned nopen;
	struct fio_sysvals sys;          /* what $pagesize, $mb_memory and $ncpus stand for */
	int line_included;               /* the line being read is an include (its error is the include's) */
};

static int parse_text(struct ini_state *st, const char *text, size_t len, const char *name, char *err,
		      size_t errlen);

/* O_NONBLOCK: opening a FIFO with no writer must not wait (a job file is never one). */
static int read_whole(void *ctx, const char *path, char **out, size_t *len, struct fio_file_id *id, char *err,
		      size_t errlen)
{
	char qb[64];
	(void)ctx;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return nm_errf(err, errlen, "%s: %s", fio_q(path, qb, sizeof qb), strerror(errno));
	struct stat sb;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return nm_errf(err, errlen, "%s: not a regular file", fio_q(path, qb, sizeof qb));
	}
	id->dev = (uint64_t)sb.st_dev;
	id->ino = (uint64_t)sb.st_ino;
	char *buf = malloc(MAX_JOBFILE_BYTES + 1);
	if (!buf)
		abort();
	size_t n = 0;
	ssize_t r = 1;
	while (n <= MAX_JOBFILE_BYTES && (r = read(fd, buf + n, MAX_JOBFILE_BYTES + 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	if (r < 0 || n > MAX_JOBFILE_BYTES) {
		free(buf);
		return nm_errf(err, errlen, "%s: %s", fio_q(path, qb, sizeof qb),
			       r < 0 ? strerror(errno) : "larger than 1 MiB; not a job file?");
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static int read_file(struct fio_plan *p, const char *path, char **text, size_t *len, struct fio_file_id *id,
		     char *err, size_t errlen)
{
	fio_read_fn fn = p->read_file ? p->read_file : read_whole;
	return fn(p->read_ctx, path, text, len, id, err, errlen);
}

static int include_allowed(struct ini_state *st, const char *path, char *err, size_t errlen)
{
	if (st->p->no_include)
		return nm_errf(err, errlen, "include is not allowed here");
	for (const char *c = path; *c; c++)
		if (iscntrl((unsigned char)*c))
			return nm_errf(err, errlen, "include: the file name has control characters");
	if (st->p->include_depth >= MAX_INCLUDE_DEPTH)
		return nm_errf(err, errlen, "include nested more than %d deep", MAX_INCLUDE_DEPTH);
	if (st->p->nincludes >= MAX_INCLUDES)
		return nm_errf(err, errlen, "include: more than %d includes in all", MAX_INCLUDES);
	return 0;
}

static int include_file(struct ini_state *st, const char *path, const char *from, char *err, size_t errlen)
{
	char qb[64];
	if (include_allowed(st, path, err, errlen) < 0)
		return -1;
	/* a relative name is relative to the including file's directory, as fio does */
	char full[4096];
	const char *slash = strrchr(from, '/');
	if (path[0] != '/' && slash)
		snprintf(full, sizeof full, "%.*s/%s", (int)(slash - from), from, path);
	else
		snprintf(full, sizeof full, "%s", path);
	char *text;
	size_t len;
	struct fio_file_id id;
	if (read_file(st->p, full, &text, &len, &id, err, errlen) < 0)
		return -1;
	st->p->nincludes++;
	st->p->include_bytes += len;
	int rc = 0;
	for (unsigned i = 0; i < st->nopen && rc == 0; i++)
		if (st->open_files[i].dev == id.dev && st->open_files[i].ino == id.ino)
			rc = nm_errf(err, errlen, "include: %s includes itself (a loop)", fio_q(full, qb, sizeof qb));
	if (rc == 0 && st->p->include_bytes > MAX_INCLUDE_BYTES)
		rc = nm_errf(err, errlen, "include: more than %u MiB of included text in all", MAX_INCLUDE_BYTES >> 20);
	if (rc == 0) {
		st->open_files[st->nopen++] = id;
		st->p->include_depth++;
		rc = parse_text(st, text, len, full, err, errlen);
		st->p->include_depth--;
		st->nopen--;
	}
	free(text);
	return rc;
}

/* One "key=value" (or bare key) line of a section, after expansion. */
static int parse_option(struct ini_state *st, char *s, const char *name, unsigned lineno, char *err,
			size_t errlen)
{
	char msg[320];
	struct fio_plan *p = st->p;
	char *eq = strchr(s, '=');
	char *val = NULL;
	if (eq) {
		*eq = '\0';
		val = trim(eq + 1);
		s = trim(s);
	}
	if (!*s)
		return nm_errf(err, errlen, "%s:%u: an option name is missing before '='", name, lineno);
	if (fio_option_check(p, "", s, msg, sizeof msg) < 0)
		return nm_errf(err, errlen, "%s:%u: %s", name, lineno, msg);
	const struct fio_option *d = fio_option_find(s);
	if (fio_option_needs_value(d) && (!val || !*val))
		return nm_errf(err, errlen, "%s:%u: %s: needs a value", name, lineno, d->name);
	if (fio_option_value_check(d, val, msg, sizeof msg) < 0)
		return nm_errf(err, errlen, "%s:%u: %s: %s", name, lineno, s, msg);
	/* kept under fio's own name for the option, as fio shows it ("ba" for blockalign=) */
	if (st->cur) {
		if (!strcmp(d->name, "name")) {
			free(st->cur->name);
			st->cur->name = xstrdup(val);
		}
		fio_optlist_append(&st->cur->opts, d->name, val);
	} else {
		fio_optlist_set(&st->file_globals, d->name, val);
		fio_optlist_set(&p->globals, d->name, val);
	}
	return 0;
}

static int parse_line(struct ini_state *st, char *line, const char *name, unsigned lineno, char *err,
		      size_t errlen)
{
	char qb[64], msg[320];
	struct fio_plan *p = st->p;
	strip_comment(line);
	char *s = trim(line);
	if (!*s)
		return 0;
	if (*s == '[') {
		char *e = strchr(s, ']');
		if (!e || e[1])
			return nm_errf(err, errlen, "%s:%u: \"%s\": a section header is [name]", name, lineno,
				       fio_q(s, qb, sizeof qb));
		*e = '\0';
		char *sec = trim(s + 1);
		if (!*sec)
			return nm_errf(err, errlen, "%s:%u: empty section name", name, lineno);
		st->in_section = 1;
		if (!strcmp(sec, "global")) {
			st->cur = NULL;
			return 0;
		}
		st->cur = fio_plan_add_job(p, sec, &st->file_globals, msg, sizeof msg);
		if (!st->cur)
			return nm_errf(err, errlen, "%s:%u: %s", name, lineno, msg);
		return 0;
	}
	if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
		int rc = include_file(st, trim(s + 8), name, msg, sizeof msg);
		st->line_included = 1; /* after: the included file's lines reset it */
		if (rc < 0)
			return nm_errf(err, errlen, "%s:%u: %s", name, lineno, msg);
		return 0;
	}
	if (!st->in_section)
		return nm_errf(err, errlen, "%s:%u: \"%s\": options must follow a [section]", name, lineno,
			       fio_q(s, qb, sizeof qb));
	/* fio expands ${VAR} and its keywords in the whole "key=value", before reading either */
	char *x;
	if (fio_expand_line(s, &st->sys, &x, msg, sizeof msg) < 0)
		return nm_errf(err, errlen, "%s:%u: %s: %s", name, lineno, fio_q(s, qb, sizeof qb), msg);
	int rc = parse_option(st, x, name, lineno, err, errlen);
	free(x);
	return rc;
}

static int parse_text(struct ini_state *st, const char *text, size_t len, const char *name, char *err,
		      size_t errlen)
{
	unsigned lineno = 0;
	size_t i = 0;
	while (i < len) {
		size_t e = i;
		while (e < len && text[e] != '\n')
			e++;
		lineno++;
		char *line = xstrndup(text + i, e - i);
		if (memchr(text + i, '\0', e - i)) {
			free(line);
			return nm_errf(err, errlen, "%s:%u: a NUL byte; not a job file?", name, lineno);
		}
		st->line_included = 0;
		int rc = parse_line(st, line, name, lineno, err, errlen);
		free(line);
		/* An included file may be any file the user can read (include /etc/shadow): its
		 * errors name the file and line, never its text. An include line's own error is
		 * the included file's (already told this way) or names the file it reads. */
		if (rc < 0 && st->p->include_depth > 0 && !st->line_included)
			return nm_errf(err, errlen, "%s:%u: not a job file line (an included file's text is not shown)",
				       name, lineno);
		if (rc < 0)
			return -1;
		i = e + 1;
	}
	return 0;
}

static int parse_top(struct fio_plan *p, const char *text, size_t len, const char *name,
		     const struct fio_file_id *id, char *err, size_t errlen)
{
	struct ini_state st = { .p = p };
	fio_sysvals_get(&st.sys);
	if (id)
		st.open_files[st.nopen++] = *id;
	/* command-line globals apply to job files too */
	fio_optlist_copy(&st.file_globals, &p->globals);
	int rc = parse_text(&st, text, len, name, err, errlen);
	fio_optlist_free(&st.file_globals);
	return rc;
}

int fio_parse_jobfile_text(struct fio_plan *p, const char *text, size_t len, const char *name, char *err,
			   size_t errlen)
{
	return parse_top(p, text, len, name, NULL, err, errlen);
}

int fio_parse_jobfile(struct fio_plan *p, const char *path, char *err, size_t errlen)
{
	char *text;
	size_t len;
	struct fio_file_id id;
	if (read_file(p, path, &text, &len, &id, err, errlen) < 0)
		return -1;
	int rc = parse_top(p, text, len, path, &id, err, errlen);
	free(text);
	return rc;
}
