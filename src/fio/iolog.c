/* fio's iologs in the front end (see iolog.h): the options, a log read into entries, and the
 * record's file. The log's format and meaning are fio 3.33's (its HOWTO, "Trace file format"):
 * a first line "fio version 2 iolog" or "fio version 3 iolog", then one action per line, v3's
 * with a time stamp in microseconds first: "FILE add|open|close" and
 * "FILE read|write|trim|sync|datasync|wait OFFSET LENGTH". */
#include "fio/iolog.h"
#include "fio/iolog_state.h"
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* write_iolog's files of numjobs' threads after the first (that one writes the file itself). */
static void close_thread_records(struct fio_iolog_opts *o)
{
	if (!o->record_fds)
		return;
	for (unsigned t = 1; o->record_fds[t] != -2; t++)
		if (o->record_fds[t] >= 0)
			close(o->record_fds[t]);
	free(o->record_fds);
	o->record_fds = NULL;
}

void fio_iolog_free(struct fio_iolog_opts *o)
{
	free(o->write);
	free(o->read);
	free(o->redirect);
	free(o->entries);
	free(o->logs);
	close_thread_records(o);
	if (o->out) {
		afile_abort(o->out);
		free(o->out);
	}
	memset(o, 0, sizeof *o);
	o->time_scale = 100;
}

static int set_path(char **dst, const char *v, char *err, size_t errlen)
{
	if (!v || !*v)
		return nm_errf(err, errlen, "a file name is needed");
	free(*dst);
	*dst = xstrdup(v);
	return 0;
}

FIO_APPLY(write_iolog)
{
	if (v && strcmp(v, "-") == 0) /* fio would make a file named "-"; here it is standard output */
		return nm_errf(err, errlen, "\"-\": standard output carries the report; name a file");
	return set_path(&j->iolog.write, v, err, errlen);
}
FIO_APPLY(replay_redirect) { return set_path(&j->iolog.redirect, v, err, errlen); }

/* Name idx of a ':' list as fio 3.33 reads read_iolog= (get_next_str): "\\:" is a colon of the
 * name, empty names are skipped. The count of names, and the name in out when idx is below it. */
static unsigned log_name(const char *list, unsigned idx, char *out, size_t outlen)
{
	unsigned n = 0;
	size_t k = 0;
	for (const char *c = list;; c++) {
		if (*c == ':' && c > list && c[-1] == '\\' && k) {
			k--; /* the backslash goes, the colon stays */
		} else if (*c == ':' || !*c) {
			if (k) {
				if (n == idx && outlen)
					out[k < outlen ? k : outlen - 1] = '\0';
				n++;
			}
			k = 0;
			if (!*c)
				return n;
			continue;
		}
		if (n == idx && k + 1 < outlen)
			out[k] = *c;
		k++;
	}
}

/* fio gives thread t of numjobs the name t (modulo their count) of a ':' list. */
FIO_APPLY(read_iolog)
{
	if (set_path(&j->iolog.read, v, err, errlen) < 0)
		return -1;
	char name[8];
	unsigned n = log_name(j->iolog.read, 0, name, sizeof name);
	for (unsigned i = 0; i < n; i++) /* fio's standard input: a log is a file, of a known size */
		if (log_name(j->iolog.read, i, name, sizeof name) && strcmp(name, "-") == 0)
			return nm_errf(err, errlen, "\"-\": standard input is not read; name a file");
	return n ? 0 : nm_errf(err, errlen, "a file name is needed");
}

FIO_APPLY(replay_no_stall) { return fio_parse_bool(v, &j->iolog.no_stall, err, errlen); }

FIO_APPLY(replay_time_scale)
{
	uint64_t n;
	if (fio_int(j, v, 1, 1000000, &n, err, errlen) < 0)
		return -1;
	j->iolog.time_scale = (unsigned)n;
	return 0;
}

FIO_APPLY(replay_scale) { return fio_int(j, v, 0, UINT32_MAX, &j->iolog.scale, err, errlen); }

FIO_APPLY(replay_align)
{
	uint64_t n;
	if (fio_int(j, v, 0, 1ull << 30, &n, err, errlen) < 0)
		return -1;
	if (n & (n - 1))
		return nm_errf(err, errlen, "%" PRIu64 ": must be a power of 2", n);
	j->iolog.align = n;
	return 0;
}

/* fio's replay_skip=read,write,trim,sync: the kinds a blktrace replay leaves out (fio 3.33
 * applies it to blktraces only; a text log replays whole). */
FIO_APPLY(replay_skip)
{
	static const char *const kinds[] = { "read", "write", "trim", "sync" };
	static const unsigned bits[] = { 1u << IO_REPLAY_READ, 1u << IO_REPLAY_WRITE, 1u << IO_REPLAY_TRIM,
					 1u << IO_REPLAY_SYNC };
	char buf[256], qk[64];
	snprintf(buf, sizeof buf, "%s", v ? v : "");
	for (char *save = NULL, *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		unsigned i = 0;
		while (i < 4 && strcmp(k, kinds[i]) != 0)
			i++;
		if (i == 4)
			return nm_errf(err, errlen, "%s: not a kind to skip (read, write, trim, sync)",
				       fio_q(k, qk, sizeof qk));
		j->iolog.skip |= bits[i];
	}
	return 0;
}

FIO_APPLY(read_iolog_chunked)
{
	int b;
	(void)j;
	return fio_parse_bool(v, &b, err, errlen);
}

/* --- reading a log ------------------------------------------------------------------------ */

/* The whole log, a regular file of at most FIO_IOLOG_MAX_BYTES: 0, or -1 with a message. */
static int read_log(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	if (fd < 0)
		return nm_errf(err, errlen, "%s", strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return nm_errf(err, errlen, "not a regular file (a FIFO, directory or device is not read)");
	}
	if ((uint64_t)st.st_size > FIO_IOLOG_MAX_BYTES) {
		close(fd);
		return nm_errf(err, errlen, "larger than %u MiB", FIO_IOLOG_MAX_BYTES >> 20);
	}
	char *buf = xcalloc(1, (size_t)st.st_size + 1);
	ssize_t got = fd_read_upto(fd, buf, (size_t)st.st_size); /* it shrank: what is there */
	if (got < 0) {
		int e = errno;
		close(fd);
		free(buf);
		return nm_errf(err, errlen, "%s", strerror(e));
	}
	size_t n = (size_t)got;
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* the reading of logs, shared with the blktrace reader (fio/iolog_state.h) */
int fio_log_file_index(const struct fio_log_state *s, const char *name)
{
	if (s->j->iolog.redirect)
		return s->nfiles ? 0 : -1;
	for (unsigned i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i], name) == 0)
			return s->added[i] ? (int)i : -1;
	return -1;
}

struct io_replay_entry *fio_log_push(struct fio_log_state *s)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->e = xrealloc(s->e, s->cap * sizeof *s->e);
	}
	struct io_replay_entry *e = &s->e[s->n++];
	memset(e, 0, sizeof *e);
	return e;
}

/* "add": a file of the log (with replay_redirect, the first add is the redirect's file). */
int fio_log_add_file(struct fio_log_state *s, const char *name, char *err, size_t errlen)
{
	if (fio_log_file_index(s, name) >= 0)
		return 0; /* added again: fio ignores it with replay_redirect, and keeps one file */
	for (unsigned i = 0; i < s->nfiles && !s->j->iolog.redirect; i++)
		if (strcmp(s->files[i], name) == 0) { /* an earlier log's file */
			s->added[i] = 1;
			return 0;
		}
	if (s->nfiles == IO_MAX_TARGETS)
		return nm_errf(err, errlen, "more than %d files", IO_MAX_TARGETS);
	s->added[s->nfiles] = 1;
	s->files[s->nfiles++] = xstrdup(s->j->iolog.redirect ? s->j->iolog.redirect : name);
	return 0;
}

/* An I/O of direction a (read, write, trim) counted: its size and its file's extent. */
uint64_t fio_log_scaled_gap(const struct fio_log_state *s, uint64_t gap)
{
	unsigned scale = s->j->iolog.time_scale;
	if (scale == 100)
		return gap;
	double scaled = (double)gap * 100.0 / scale;
	return scaled < 1.8e19 ? (uint64_t)scaled : UINT64_MAX;
}

void fio_log_count_io(struct fio_log_state *s, int a, uint64_t off, uint64_t len, unsigned fi)
{
	s->ios[a]++;
	s->bytes[a] += len;
	if (len > s->maxlen[a])
		s->maxlen[a] = len;
	if (off + len > s->extent[fi])
		s->extent[fi] = off + len;
}

static int parse_u64(const char *t, uint64_t *out)
{
	char *end;
	if (!t || *t < '0' || *t > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(t, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* One line after the first: 0, or -1 with a message (the caller adds file and line). */
static int parse_line(struct fio_log_state *s, char *line, char *err, size_t errlen)
{
	char *tok[7];
	int nt = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (nt == 6)
			return nm_errf(err, errlen, "more fields than an action has");
		tok[nt++] = t;
	}
	if (!nt)
		return 0; /* an empty line */
	if (nt == 4 && strcmp(tok[0], "fio") == 0 && strcmp(tok[1], "version") == 0 && strcmp(tok[3], "iolog") == 0)
		return 0; /* a log after a log: numjobs' threads each append theirs (fio reads on past it) */
	uint64_t delay = 0, ts;
	if (s->version == 3) {
		if (parse_u64(tok[0], &ts) < 0)
			return nm_errf(err, errlen, "expected a time stamp (microseconds) first");
		/* fio's pace: the gap to the line before, scaled; none after a 0 or a step back */
		if (s->last_us && !s->j->iolog.no_stall && ts >= s->last_us)
			delay = fio_log_scaled_gap(s, ts - s->last_us);
		s->last_us = ts;
		memmove(tok, tok + 1, (size_t)--nt * sizeof *tok);
	}
	if (nt != 2 && nt != 4)
		return nm_errf(err, errlen, "expected FILE ACTION, or FILE ACTION OFFSET LENGTH");
	const char *name = tok[0], *act = tok[1];
	char qa[64], qn[160]; /* the log's words in messages: quoted, control characters escaped */
	if (nt == 2) {
		if (strcmp(act, "add") == 0)
			return fio_log_add_file(s, name, err, errlen);
		if (strcmp(act, "open") != 0 && strcmp(act, "close") != 0)
			return nm_errf(err, errlen, "%s: not a file action (add, open, close)", fio_q(act, qa, sizeof qa));
		int fi = fio_log_file_index(s, name);
		if (fi < 0)
			return nm_errf(err, errlen, "%s: %s before it was added", fio_q(name, qn, sizeof qn), act);
		struct io_replay_entry *e = fio_log_push(s);
		e->act = IO_REPLAY_FILE;
		e->file = (uint16_t)fi;
		e->delay_us = delay;
		return 0;
	}
	uint64_t off, len;
	if (parse_u64(tok[2], &off) < 0 || parse_u64(tok[3], &len) < 0)
		return nm_errf(err, errlen, "expected an offset and a length in bytes");
	static const char *const acts[] = { "read", "write", "trim", "sync", "datasync", "wait" };
	int a = -1;
	for (int k = 0; k < 6; k++)
		if (strcmp(act, acts[k]) == 0)
			a = k;
	if (a < 0)
		return nm_errf(err, errlen, "%s: not an I/O action (read, write, trim, sync, datasync, wait)",
			       fio_q(act, qa, sizeof qa));
	if (a == IO_REPLAY_WAIT) {
		if (s->version == 3 || s->j->iolog.no_stall) /* fio: not in v3; replay_no_stall drops it */
			return 0;
		s->waits++;
		struct io_replay_entry *e = fio_log_push(s);
		e->act = IO_REPLAY_WAIT;
		e->offset = off;
		return 0;
	}
	int fi = fio_log_file_index(s, name);
	if (fi < 0)
		return nm_errf(err, errlen, "%s: an I/O before the file was added", fio_q(name, qn, sizeof qn));
	if (a <= IO_REPLAY_TRIM && len == 0)
		return nm_errf(err, errlen, "a %s of 0 bytes", act);
	if (len > (256u << 20))
		return nm_errf(err, errlen, "a %s of %" PRIu64 " bytes: at most 256 MiB", act, len);
	if (s->j->iolog.scale)
		off /= s->j->iolog.scale;
	if (s->j->iolog.align)
		off &= ~(s->j->iolog.align - 1);
	struct io_replay_entry *e = fio_log_push(s);
	e->act = (uint8_t)a;
	e->file = (uint16_t)fi;
	e->offset = off;
	e->len = (uint32_t)len;
	e->delay_us = delay;
	if (a <= IO_REPLAY_TRIM) {
		fio_log_count_io(s, a, off, len, (unsigned)fi);
	} else {
		s->syncs++;
	}
	return 0;
}

static int parse_log(struct fio_log_state *s, char *text, size_t len, char *err, size_t errlen)
{
	if (fio_blktrace_is((const unsigned char *)text, len)) /* fio knows one by its magic */
		return fio_blktrace_read(s, (const unsigned char *)text, len, err, errlen);
	char *nl = strchr(text, '\n');
	size_t first = nl ? (size_t)(nl - text) : len;
	if (first >= 19 && strncmp(text, "fio version 2 iolog", 19) == 0)
		s->version = 2;
	else if (first >= 19 && strncmp(text, "fio version 3 iolog", 19) == 0)
		s->version = 3;
	else
		return nm_errf(err, errlen, "not a fio iolog: the first line is not \"fio version 2 iolog\" or "
			       "\"fio version 3 iolog\" (fio no longer reads version 1 either)");
	unsigned lineno = 1;
	for (char *line = nl ? nl + 1 : text + len; *line;) {
		lineno++;
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		if (!end && memchr(line, '\0', (size_t)(text + len - line))) /* strchr stopped at it */
			return nm_errf(err, errlen, "line %u: a NUL byte", lineno); /* a binary file */
		char msg[320];
		if (parse_line(s, line, msg, sizeof msg) < 0)
			return nm_errf(err, errlen, "line %u: %s", lineno, msg);
		if (!end)
			break;
		line = end + 1;
	}
	return 0;
}

/* The log's I/O onto the job: targets, directions, sizes, the region. */
static int apply_log(struct fio_plan *p, struct fio_job *j, struct fio_log_state *s, char *err, size_t errlen)
{
	struct io_job *io = &j->io;
	int reads = s->ios[DIR_READ] > 0, writes = s->ios[DIR_WRITE] > 0, trims = s->ios[DIR_TRIM] > 0;
	if (!reads && !writes && !trims && !s->waits)
		return nm_errf(err, errlen, "no I/O in the log");
	if (trims && reads)
		return nm_errf(err, errlen, "a log that both trims and reads is not replayed by nodemark");
	if ((writes || trims) && p->readonly)
		return nm_errf(err, errlen, "--readonly: the log writes");
	if (!s->nfiles)
		return nm_errf(err, errlen, "no file added in the log");
	io->rw = trims ? (writes ? IO_TRIMWRITE : IO_TRIM) : reads && writes ? IO_RW : writes ? IO_WRITE : IO_READ;
	io->rwmix_read = 50;
	if (s->bt_depth && !j->iodepth_given) /* fio: a blktrace's probed depth, unless iodepth= was set */
		io->iodepth = s->bt_depth;
	for (int d = 0; d < DIR_COUNT; d++)
		if (s->maxlen[d])
			io->bs[d] = s->maxlen[d];
	io->offset = 0;
	io->nrfiles = 1;
	io->filesize = 0;
	for (unsigned i = 0; i < s->nfiles; i++)
		if (s->extent[i] > io->filesize)
			io->filesize = s->extent[i];
	if (!io->filesize) /* waits alone */
		io->filesize = io->bs[DIR_READ];
	io->ntargets = 0;
	for (unsigned i = 0; i < s->nfiles; i++) {
		fio_strv_push(&j->strs, &j->nstrs, s->files[i]);
		io->targets[io->ntargets++] = s->files[i];
		s->files[i] = NULL;
	}
	io->files.all_targets = io->ntargets > 1;
	/* the region of every file, which a new file is laid out to (not the bytes the log moves:
	 * a log that writes one block a million times needs one block) */
	io->size = io->filesize * io->ntargets;
	j->dir_targets = j->default_target = 0;
	io->replay.entries = s->e;
	io->replay.n = s->n;
	j->iolog.entries = s->e;
	s->e = NULL;
	return 0;
}

/* A log's own files must be there (replay_redirect's, named by the user, may be new): a log
 * from elsewhere does not make files wherever it says. */
static int files_exist(const struct fio_job *j, char *err, size_t errlen)
{
	struct stat st;
	char qn[256];
	for (unsigned i = 0; i < j->io.ntargets && !j->iolog.redirect; i++)
		if (stat(j->io.targets[i], &st) < 0)
			return nm_errf(err, errlen, "%s: %s (the log's files must exist; replay_redirect names one "
				       "that may be new)", fio_q(j->io.targets[i], qn, sizeof qn), strerror(errno));
	return 0;
}

/* The logs' texts onto job j, one after another into one set of entries: the logs' files are
 * one list of targets, their directions and sizes taken together; thread t replays log t % n.
 * On failure, *bad is the log that failed. */
static int parse_logs(struct fio_plan *p, struct fio_job *j, char **texts, const size_t *lens, unsigned n,
		      unsigned *bad, char *err, size_t errlen)
{
	if (j->io.verify.kind != IO_VERIFY_NONE)
		return nm_errf(err, errlen, "verify= is not replayed");
	struct fio_log_state s = { .j = j };
	size_t *start = xcalloc(n + 1, sizeof *start);
	int rc = 0;
	for (unsigned k = 0; k < n && rc == 0; k++) {
		*bad = k;
		s.version = 0;
		s.last_us = 0;
		memset(s.added, 0, sizeof s.added);
		start[k] = s.n;
		rc = parse_log(&s, texts[k], lens[k], err, errlen);
	}
	start[n] = s.n;
	if (rc == 0)
		rc = apply_log(p, j, &s, err, errlen);
	if (rc == 0 && n > 1) {
		struct io_replay_log *logs = xcalloc(n, sizeof *logs);
		for (unsigned k = 0; k < n; k++)
			logs[k] = (struct io_replay_log){ j->iolog.entries + start[k], start[k + 1] - start[k] };
		free(j->iolog.logs);
		j->iolog.logs = logs;
		j->io.replay.logs = logs;
		j->io.replay.nlogs = n;
	}
	free(start);
	for (unsigned i = 0; i < s.nfiles; i++)
		free(s.files[i]);
	free(s.e);
	return rc;
}

int fio_iolog_parse(struct fio_plan *p, struct fio_job *j, char *text, size_t len, char *err, size_t errlen)
{
	unsigned bad;
	return parse_logs(p, j, &text, &len, 1, &bad, err, errlen);
}

/* Job j's logs: the names of read_iolog= its numjobs threads replay (fio's modulo), read and
 * parsed. 0, or -1 with one line naming the log. */
static int load_logs(struct fio_plan *p, struct fio_job *j, char *err, size_t errlen)
{
	char name[4096];
	unsigned n = log_name(j->iolog.read, 0, name, sizeof name);
	if (n > j->io.numjobs)
		n = j->io.numjobs; /* the names past the threads are never read */
	char **texts = xcalloc(n, sizeof *texts);
	size_t *lens = xcalloc(n, sizeof *lens);
	int rc = 0;
	unsigned bad = 0;
	char msg[512];
	for (unsigned k = 0; k < n && rc == 0; k++) {
		bad = k;
		log_name(j->iolog.read, k, name, sizeof name);
		rc = read_log(name, &texts[k], &lens[k], msg, sizeof msg);
	}
	if (rc == 0)
		rc = parse_logs(p, j, texts, lens, n, &bad, msg, sizeof msg);
	if (rc == 0)
		rc = files_exist(j, msg, sizeof msg);
	if (rc < 0) {
		log_name(j->iolog.read, bad, name, sizeof name);
		nm_errf(err, errlen, "read_iolog %s: %s", name, msg);
	}
	for (unsigned k = 0; k < n; k++)
		free(texts[k]);
	free(texts);
	free(lens);
	return rc;
}

int fio_iologs_load(struct fio_plan *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_job *j = &p->jobs[i];
		char msg[1024], qb[64];
		if (j->iolog.read && load_logs(p, j, msg, sizeof msg) < 0)
			return nm_errf(err, errlen, "job '%s': %s", fio_q(j->name, qb, sizeof qb), msg);
	}
	return 0;
}

/* --- the record's file -------------------------------------------------------------------- */

/* A file for thread lines until the end: unnamed, beside the record (its file system, whose
 * reserve the worker keeps), or in memory where that directory takes none. */
static int thread_record_fd(const struct atomic_file *af)
{
	if (af->is_direct) /* a FIFO or device: no directory to use */
		return memfd_create("nodemark-iolog", MFD_CLOEXEC);
	const char *path = af->path;
	char dir[4096];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	return fd >= 0 ? fd : memfd_create("nodemark-iolog", MFD_CLOEXEC);
}

/* numjobs > 1: the threads after the first get files of their own; -2 ends the list. */
static int open_thread_records(struct fio_job *j, char *err, size_t errlen)
{
	unsigned n = j->io.numjobs;
	int *fds = xcalloc(n + 1, sizeof *fds);
	fds[0] = j->iolog.out->fd;
	fds[n] = -2;
	j->iolog.record_fds = fds;
	for (unsigned t = 1; t < n; t++)
		fds[t] = -1;
	for (unsigned t = 1; t < n; t++)
		if ((fds[t] = thread_record_fd(j->iolog.out)) < 0)
			return nm_errf(err, errlen, "write_iolog %s: a file for thread %u: %s", j->iolog.write, t,
				       strerror(errno));
	j->io.replay.record_fds = fds;
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t k = write(fd, buf, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return -1;
		}
		buf += k;
		len -= (size_t)k;
	}
	return 0;
}

/* The threads' lines after the first's, in thread order (fio's threads append theirs as each ends). */
static int append_thread_records(struct fio_job *j, char *err, size_t errlen)
{
	char buf[65536];
	for (unsigned t = 1; j->iolog.record_fds[t] != -2; t++) {
		int fd = j->iolog.record_fds[t];
		if (lseek(fd, 0, SEEK_SET) < 0)
			return nm_errf(err, errlen, "write_iolog %s: %s", j->iolog.write, strerror(errno));
		for (ssize_t k; (k = read(fd, buf, sizeof buf)) != 0;) {
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0 || write_all(j->iolog.out->fd, buf, (size_t)k) < 0)
				return nm_errf(err, errlen, "write_iolog %s: %s", j->iolog.write, strerror(errno));
		}
	}
	return 0;
}

int fio_iologs_open(struct fio_plan *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_job *j = &p->jobs[i];
		if (!j->iolog.write)
			continue;
		char msg[512];
		struct atomic_file *af = xcalloc(1, sizeof *af);
		FILE *f = afile_open(af, j->iolog.write, msg, sizeof msg);
		if (!f) {
			free(af);
			return nm_errf(err, errlen, "write_iolog: %s", msg);
		}
		fflush(f);
		j->iolog.out = af;
		j->io.replay.record = 1;
		j->io.replay.record_fd = af->fd; /* f is a cookie stream: no fileno */
		j->io.replay.record_name = j->iolog.write;
		if (j->io.numjobs > 1 && open_thread_records(j, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int fio_iologs_close(struct fio_plan *p, int commit, char *err, size_t errlen)
{
	int rc = 0;
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_job *j = &p->jobs[i];
		if (!j->iolog.out)
			continue;
		char msg[512];
		if (commit && rc == 0 && j->iolog.record_fds && append_thread_records(j, err, errlen) < 0)
			rc = -1;
		if (commit && rc == 0 && afile_commit(j->iolog.out, msg, sizeof msg) < 0)
			rc = nm_errf(err, errlen, "write_iolog: %s", msg);
		else if (!commit || rc)
			afile_abort(j->iolog.out);
		free(j->iolog.out);
		j->iolog.out = NULL;
		close_thread_records(&j->iolog);
		j->io.replay.record = 0;
		j->io.replay.record_fds = NULL;
	}
	return rc;
}
