/* fio's iologs in the worker (see replay.h): the record's lines and the replay's next I/O.
 * Called only for a job that asks (w->trace set), so nothing here costs a job that does not. */
#include "io/internal.h"
#include "io/loop.h"
#include "io/ticks.h"
#include "util/workdir.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define REC_BUF (128 * 1024)
#define REC_ROOM (4096 + 96) /* the longest line: a path and five numbers */

struct io_trace {
	const struct io_replay_entry *entries; /* this thread's log */
	size_t n;
	size_t next;            /* the replay's next entry */
	int record_fd;          /* this thread's record */
	uint64_t t_start;       /* ticks: the loop began */
	uint64_t t_last;        /* ticks: the last entry's time (its issue, or when it was due) */
	char *buf;              /* the record's lines not yet written */
	size_t nbuf;
	int failed;             /* the record could not be written: no more lines */
};

int io_trace_setup(struct io_worker *w)
{
	const struct io_replay_spec *s = &w->job->replay;
	if (!s->entries && !s->record)
		return 0;
	struct io_trace *t = calloc(1, sizeof *t);
	if (!t || (s->record && !(t->buf = malloc(REC_BUF)))) {
		free(t);
		snprintf(w->err, sizeof w->err, "out of memory");
		return -ENOMEM;
	}
	t->entries = s->entries;
	t->n = s->n;
	if (s->nlogs) {
		t->entries = s->logs[w->index % s->nlogs].entries;
		t->n = s->logs[w->index % s->nlogs].n;
	}
	t->record_fd = s->record_fds ? s->record_fds[w->index] : s->record_fd;
	w->trace = t;
	return 0;
}

void io_trace_cleanup(struct io_worker *w)
{
	if (!w->trace)
		return;
	free(w->trace->buf);
	free(w->trace);
	w->trace = NULL;
}

/* --- the record -------------------------------------------------------------------------- */

/* The buffered lines to the file; the file system keeps its reserve, as for test files. */
static int flush_record(struct io_worker *w)
{
	struct io_trace *t = w->trace;
	const struct io_replay_spec *s = &w->job->replay;
	struct statvfs fs;
	if (t->failed)
		return -1;
	if (!t->nbuf)
		return 0;
	if (fstatvfs(t->record_fd, &fs) == 0 && fs.f_blocks) {
		uint64_t total = (uint64_t)fs.f_blocks * fs.f_frsize, avail = (uint64_t)fs.f_bavail * fs.f_frsize;
		if (avail < t->nbuf + space_reserve(total)) {
			t->failed = 1;
			io_worker_failf(w, ENOSPC, "write_iolog %s: the file system would go below its free-space reserve",
					s->record_name);
			return -1;
		}
	}
	for (size_t off = 0; off < t->nbuf;) {
		ssize_t k = write(t->record_fd, t->buf + off, t->nbuf - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int e = k < 0 ? errno : EIO;
			t->failed = 1;
			io_worker_failf(w, e, "write_iolog %s: %s", s->record_name, strerror(e));
			return -1;
		}
		off += (size_t)k;
	}
	t->nbuf = 0;
	return 0;
}

static uint64_t usec_since_start(const struct io_trace *t)
{
	return ticks_to_ns(ticks_now() - t->t_start) / 1000;
}

/* One line: "TIME FILE ACTION[ OFFSET LENGTH]" (fio's v3 iolog). */
static int record_line(struct io_worker *w, const char *path, const char *act, int io, uint64_t off, uint64_t len)
{
	struct io_trace *t = w->trace;
	if (t->failed)
		return -1;
	if (REC_BUF - t->nbuf < REC_ROOM && flush_record(w) < 0)
		return -1;
	int n = io ? snprintf(t->buf + t->nbuf, REC_ROOM, "%" PRIu64 " %.4000s %s %" PRIu64 " %" PRIu64 "\n",
			      usec_since_start(t), path, act, off, len)
		   : snprintf(t->buf + t->nbuf, REC_ROOM, "%" PRIu64 " %.4000s %s\n", usec_since_start(t), path, act);
	t->nbuf += (size_t)n;
	return 0;
}

static const char *file_path(const struct io_worker *w, unsigned fi)
{
	return fi < w->nfiles ? w->files[fi].path : w->ops->name;
}

int io_trace_record_io(struct io_worker *w, const struct io_req *r)
{
	static const char *const what[DIR_COUNT] = { "read", "write", "trim" };
	return record_line(w, file_path(w, r->file), what[r->dir], 1, r->offset, r->len);
}

void io_trace_record_sync(struct io_worker *w, unsigned fi, int data_only)
{
	if (w->trace && w->job->replay.record)
		record_line(w, file_path(w, fi), data_only ? "datasync" : "sync", 1, 0, 0);
}

/* --- the replay -------------------------------------------------------------------------- */

/* Sleep until the tick due, in steps that see a stop or the deadline. 0, or 1 when stopping. */
static int sleep_until(struct io_worker *w, uint64_t due)
{
	for (;;) {
		if (io_worker_stopping(w))
			return 1;
		uint64_t now = ticks_now();
		if (now >= due)
			return 0;
		uint64_t ns = ticks_to_ns(due - now);
		struct timespec ts = { 0, (long)(ns < 50000000ull ? ns : 50000000ull) };
		nanosleep(&ts, NULL);
	}
}

/* fsync or fdatasync of the entry's file, timed as the loop's syncs are. */
static void replay_sync(struct io_worker *w, const struct io_replay_entry *e, int measuring)
{
	if (e->file >= w->nfiles || w->files[e->file].fd < 0)
		return;
	struct io_file *f = &w->files[e->file];
	int data_only = e->act == IO_REPLAY_DATASYNC;
	uint64_t t0 = ticks_now();
	if ((data_only ? fdatasync(f->fd) : fsync(f->fd)) < 0) {
		int err = errno;
		io_worker_failf(w, err, "%s: %s: %s", f->path, data_only ? "fdatasync" : "fsync", strerror(err));
		return;
	}
	if (measuring) {
		w->res->sync_ios++;
		hist_add(&w->res->sync_lat, ticks_to_ns(ticks_now() - t0));
	}
	io_trace_record_sync(w, e->file, data_only);
}

int io_trace_replay_next(struct io_worker *w, struct io_req *r, int measuring)
{
	struct io_trace *t = w->trace;
	while (t->next < t->n && w->status == IO_OK) {
		const struct io_replay_entry *e = &t->entries[t->next++];
		if (e->delay_us) { /* from the last entry's time: a late one does not delay the rest */
			uint64_t due = t->t_last + ticks_from_ns(e->delay_us * 1000);
			if (sleep_until(w, due))
				return 0;
			t->t_last = due;
		}
		if (e->act == IO_REPLAY_WAIT) {
			if (sleep_until(w, t->t_start + ticks_from_ns(e->offset * 1000000)))
				return 0;
			continue;
		}
		if (e->act == IO_REPLAY_FILE)
			continue;
		if (e->act == IO_REPLAY_SYNC || e->act == IO_REPLAY_DATASYNC) {
			replay_sync(w, e, measuring);
			continue;
		}
		if (!e->delay_us)
			t->t_last = ticks_now();
		r->dir = e->act;
		r->file = e->file < w->nfiles ? e->file : 0;
		r->offset = e->offset;
		r->len = e->len;
		r->prio = w->job->place.ioprio;
		if (e->act == DIR_WRITE && w->job->buf.refill_buffers && w->job->buf.fill != FILL_ZERO)
			io_refill_buffer(w, r->buf, e->len);
		return 1;
	}
	return 0;
}

/* --- both ------------------------------------------------------------------------------- */

void io_trace_begin(struct io_worker *w, uint64_t t_start)
{
	struct io_trace *t = w->trace;
	t->t_start = t->t_last = t_start;
	if (!w->job->replay.record)
		return;
	memcpy(t->buf, "fio version 3 iolog\n", 20);
	t->nbuf = 20;
	for (unsigned i = 0; i < w->nfiles; i++)
		record_line(w, file_path(w, i), "add", 0, 0, 0);
	for (unsigned i = 0; i < w->nfiles; i++)
		record_line(w, file_path(w, i), "open", 0, 0, 0);
}

void io_trace_end(struct io_worker *w)
{
	if (!w->job->replay.record || w->trace->failed)
		return;
	for (unsigned i = 0; i < w->nfiles; i++)
		record_line(w, file_path(w, i), "close", 0, 0, 0);
	flush_record(w);
}
