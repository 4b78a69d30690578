/* The records behind fio's log files (see iolog.h). Called from the worker's completion path
 * only when its job asks for logs, so nothing here costs a job that does not. */
#include "io/iolog.h"
#include "io/ticks.h"
#include "stats/hist.h"
#include "util/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

static void chunks_init(struct io_log_chunks *c, size_t esz)
{
	memset(c, 0, sizeof *c);
	c->esz = esz;
}

static void chunks_free(struct io_log_chunks *c)
{
	for (size_t i = 0; i < c->nchunks; i++)
		free(c->chunk[i]);
	free(c->chunk);
	memset(c, 0, sizeof *c);
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* The full per-I/O chunks to the file, which then holds them: 0, or -1 (they stay in memory,
 * which grows as before), or -2 (the file system's reserve would go: the log stops). */
static int spill(struct io_log *l)
{
	struct io_log_chunks *c = &l->ios;
	size_t sz = IO_LOG_CHUNK * c->esz, bytes = c->nchunks * sz;
	struct statvfs fs;
	if (l->spill_fd == -1) {
		l->spill_fd = open(".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (l->spill_fd < 0) { /* a file system without O_TMPFILE: a name, at once unlinked */
			char name[] = ".nodemark-iolog-XXXXXX";
			l->spill_fd = mkostemp(name, O_CLOEXEC);
			if (l->spill_fd >= 0)
				unlink(name);
			else
				l->spill_fd = -2;
		}
	}
	if (l->spill_fd < 0)
		return -1;
	/* Room for these records, and for the lines all of them become at the end (a line of each
	 * of up to five files is about 20 bytes: 3x a 48-byte record is a generous bound). */
	if (fstatvfs(l->spill_fd, &fs) == 0) {
		uint64_t total = (uint64_t)fs.f_blocks * fs.f_frsize, avail = (uint64_t)fs.f_bavail * fs.f_frsize;
		uint64_t lines = 3 * (l->spilled + c->n) * c->esz;
		if (avail < bytes + lines + space_reserve(total))
			return -2;
	}
	for (size_t i = 0; i < c->nchunks; i++)
		if (write_all(l->spill_fd, c->chunk[i], sz) < 0)
			return errno == ENOSPC || errno == EDQUOT ? -2 : -1;
	l->spilled += c->n;
	c->n = 0;
	return 0;
}

/* Room for one more record of c, or NULL (the log is then truncated). */
static void *chunks_push(struct io_log *l, struct io_log_chunks *c)
{
	if (c == &l->ios && c->n == IO_LOG_SPILL_CHUNKS * IO_LOG_CHUNK && c->nchunks == IO_LOG_SPILL_CHUNKS &&
	    !l->truncated) {
		int st = spill(l);
		if (st == -2) {
			l->nospace = 1;
			goto full;
		}
	}
	if (c->n == c->nchunks * IO_LOG_CHUNK) {
		size_t sz = IO_LOG_CHUNK * c->esz;
		if (l->truncated || l->bytes + sz > IO_LOG_MAX_BYTES)
			goto full;
		if (c->nchunks == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 16;
			char **p = realloc(c->chunk, cap * sizeof *p);
			if (!p)
				goto full;
			c->chunk = p;
			c->cap = cap;
		}
		if (!(c->chunk[c->nchunks] = malloc(sz)))
			goto full;
		c->nchunks++;
		l->bytes += sz;
	}
	return io_log_chunks_at(c, c->n++);
full:
	l->truncated = 1;
	return NULL;
}

struct io_log *io_log_new(const struct io_log_spec *spec)
{
	if (!spec->ios && !spec->hist_ns)
		return NULL;
	struct io_log *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->spec = *spec;
	l->spill_fd = -1;
	chunks_init(&l->ios, sizeof(struct io_log_io));
	chunks_init(&l->windows, sizeof(struct io_log_window));
	chunks_init(&l->hists, sizeof(struct io_log_hist));
	chunks_init(&l->bins, sizeof(struct io_log_bin));
	for (int d = 0; d < DIR_COUNT && spec->hist_ns; d++)
		if (!(l->hist_cur[d] = calloc(HIST_NR, sizeof *l->hist_cur[d]))) {
			io_log_free(l);
			return NULL;
		}
	return l;
}

void io_log_free(struct io_log *l)
{
	if (!l)
		return;
	chunks_free(&l->ios);
	chunks_free(&l->windows);
	chunks_free(&l->hists);
	chunks_free(&l->bins);
	for (int d = 0; d < DIR_COUNT; d++)
		free(l->hist_cur[d]);
	if (l->spill_fd >= 0)
		close(l->spill_fd);
	free(l);
}

int io_log_each_io(const struct io_log *l, void (*fn)(const struct io_log_io *e, void *arg), void *arg)
{
	const struct io_log_chunks *c = &l->ios;
	if (l->spilled) {
		size_t per = IO_LOG_CHUNK, esz = c->esz;
		char *buf = malloc(per * esz);
		if (!buf)
			return -1;
		for (uint64_t i = 0; i < l->spilled;) {
			size_t k = l->spilled - i < per ? (size_t)(l->spilled - i) : per;
			ssize_t n = pread(l->spill_fd, buf, k * esz, (off_t)(i * esz));
			if (n != (ssize_t)(k * esz)) {
				free(buf);
				if (n >= 0)
					errno = EIO;
				return -1;
			}
			for (size_t r = 0; r < k; r++)
				fn((const struct io_log_io *)(buf + r * esz), arg);
			i += k;
		}
		free(buf);
	}
	for (size_t i = 0; i < c->n; i++)
		fn(io_log_chunks_at(c, i), arg);
	return 0;
}

void io_log_start(struct io_log *l, uint64_t t0)
{
	l->t0 = t0;
	memset(l->cur, 0, sizeof l->cur);
	l->win_end = l->spec.window_ns;
	for (int d = 0; d < DIR_COUNT; d++) {
		if (l->hist_cur[d])
			memset(l->hist_cur[d], 0, HIST_NR * sizeof *l->hist_cur[d]);
		l->hist_n[d] = 0;
		l->hist_end[d] = l->spec.hist_ns;
	}
	/* a ramp's records (a stop during it restarts here) are not the measured part's */
	l->ios.n = l->windows.n = l->hists.n = l->bins.n = 0;
	l->spilled = 0;
	if (l->spill_fd >= 0 && (ftruncate(l->spill_fd, 0) < 0 || lseek(l->spill_fd, 0, SEEK_SET) < 0)) {
		close(l->spill_fd);
		l->spill_fd = -2;
	}
}

static void emit_window(struct io_log *l, int d, uint64_t t, uint64_t len, int last)
{
	struct io_log_window *w = chunks_push(l, &l->windows);
	if (w) {
		*w = l->cur[d];
		w->t_ns = t;
		w->len_ns = len;
		w->dir = (uint8_t)d;
		w->last = (uint8_t)last;
	}
	memset(&l->cur[d], 0, sizeof l->cur[d]);
}

/* t is past the current window: record it (each direction that had I/O) and move to the
 * window t falls in; the windows between had no I/O and have no record, as in fio. */
static void close_windows(struct io_log *l, uint64_t t)
{
	for (int d = 0; d < DIR_COUNT; d++)
		if (l->cur[d].ios)
			emit_window(l, d, l->win_end, l->spec.window_ns, 0);
	l->win_end = (t / l->spec.window_ns + 1) * l->spec.window_ns;
}

static void add_to_window(struct io_log_window *w, uint32_t bs, uint64_t clat, uint64_t lat, uint64_t slat)
{
	w->ios++;
	w->bytes += bs;
	w->clat_sum += (double)clat;
	w->lat_sum += (double)lat;
	if (clat > w->clat_max)
		w->clat_max = clat;
	if (lat > w->lat_max)
		w->lat_max = lat;
	if (slat != IO_LOG_NO_SLAT) {
		w->nslat++;
		w->slat_sum += (double)slat;
		if (slat > w->slat_max)
			w->slat_max = slat;
	}
}

/* The open histogram window of d as a record of its non-empty buckets, then emptied. */
static void close_hist(struct io_log *l, int d)
{
	struct io_log_hist *h = chunks_push(l, &l->hists);
	uint64_t *cnt = l->hist_cur[d];
	if (h) {
		h->t_ns = l->hist_end[d];
		h->dir = (uint8_t)d;
		h->bs = l->hist_bs[d];
		h->first = l->bins.n;
		h->n = 0;
	}
	for (unsigned i = 0; i < HIST_NR; i++) {
		if (!cnt[i])
			continue;
		struct io_log_bin *b = h ? chunks_push(l, &l->bins) : NULL;
		if (b) {
			b->idx = i;
			b->count = cnt[i];
			h->n++;
		}
		cnt[i] = 0;
	}
	l->hist_n[d] = 0;
}

static void hist_io(struct io_log *l, int d, uint32_t bs, uint64_t clat, uint64_t t)
{
	uint64_t w = l->spec.hist_ns;
	if (t >= l->hist_end[d]) {
		if (l->hist_n[d])
			close_hist(l, d);
		l->hist_end[d] = (t / w + 1) * w;
	}
	l->hist_cur[d][hist_index(clat)]++;
	l->hist_n[d]++;
	l->hist_bs[d] = bs;
}

void io_log_io(struct io_log *l, uint8_t dir, uint32_t bs, uint64_t offset, uint16_t prio, uint64_t start,
	       uint64_t issue, uint64_t done, int async)
{
	uint64_t t = done > l->t0 ? ticks_to_ns(done - l->t0) : 0;
	uint64_t clat = done > issue ? ticks_to_ns(done - issue) : 0;
	uint64_t lat = async && done > start ? ticks_to_ns(done - start) : clat;
	uint64_t slat = !async ? IO_LOG_NO_SLAT : issue > start ? ticks_to_ns(issue - start) : 0;
	if (l->spec.ios && !l->spec.window_ns) {
		struct io_log_io *e = chunks_push(l, &l->ios);
		if (e) {
			e->t_ns = t;
			e->offset = offset;
			e->clat_ns = clat;
			e->lat_ns = lat;
			e->slat_ns = slat;
			e->bs = bs;
			e->dir = dir;
			e->prio = prio;
		}
	} else if (l->spec.ios) {
		if (t >= l->win_end)
			close_windows(l, t);
		add_to_window(&l->cur[dir], bs, clat, lat, slat);
	}
	if (l->spec.hist_ns)
		hist_io(l, dir, bs, clat, t);
}

void io_log_end(struct io_log *l, uint64_t end_ns)
{
	if (!l->spec.ios || !l->spec.window_ns)
		return;
	/* the last window, cut short by the end of the run (marked: fio logs its latencies only) */
	uint64_t w = l->spec.window_ns, start = l->win_end - w;
	for (int d = 0; d < DIR_COUNT; d++) {
		if (!l->cur[d].ios)
			continue;
		if (end_ns >= l->win_end)
			emit_window(l, d, l->win_end, w, 0);
		else
			emit_window(l, d, end_ns, end_ns > start ? end_ns - start : 1, 1);
	}
}
