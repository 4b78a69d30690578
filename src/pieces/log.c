/* The log backend, the newer append-only design: each worker appends whole pieces (data, then
 * a footer with the header fields) to its own log files, rotated past plan->log_limit, and
 * indexes them in an on-disk open-addressing hash table of 64-byte records.
 *
 * Commit order makes a crash safe: a piece's data and footer are written (and synced, with
 * --sync) before its index record is written (and the index synced).  With --sync-batch N the
 * syncs happen once per N pieces: group commit.  verify trusts only indexed pieces. */
#include "pieces/internal.h"
#include "util/clock.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct pending {
	struct index_record rec;
	uint64_t t_done;                /* data and footer written: the commit starts */
	uint64_t t_start;
};

struct log_state {
	char dir[4096];
	char log_path[4200];
	char idx_path[4200];
	int log_fd, idx_fd;
	uint32_t log_no;
	uint64_t log_off;
	uint64_t nslots;
	uint8_t *used;                  /* slot occupancy, so inserts never read the table back */
	struct pending *pend;
	unsigned npend, batch;
};

static int log_store_init(const char *root, const char *ns, char *err, size_t errlen)
{
	char path[4096];
	(void)ns;
	snprintf(path, sizeof path, "%s/log", root);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return nm_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

static int open_log(struct pieces_worker *w, struct log_state *st)
{
	snprintf(st->log_path, sizeof st->log_path, "%s/log-%08u.log", st->dir, st->log_no);
	st->log_fd = open(st->log_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (st->log_fd < 0)
		return nm_errf(w->err, sizeof w->err, "%s: cannot create: %s", st->log_path, strerror(errno));
	st->log_off = 0;
	/* A synced piece in a log whose directory entry is not durable would be lost with it. */
	if (w->plan->sync != PIECES_NOSYNC && fsync_dir(st->dir) < 0)
		return nm_errf(w->err, sizeof w->err, "%s: fsync of the directory: %s", st->dir, strerror(errno));
	return 0;
}

static int log_open(struct pieces_worker *w)
{
	const struct pieces_plan *p = w->plan;
	struct log_state *st = calloc(1, sizeof *st);
	uint8_t hdr[INDEX_RECORD_SIZE];
	if (!st)
		return nm_errf(w->err, sizeof w->err, "out of memory");
	w->state = st;
	st->log_fd = st->idx_fd = -1;
	st->batch = p->sync == PIECES_NOSYNC ? 1 : p->sync_batch ? p->sync_batch : 1;
	/* At most half full, so probes stay short. */
	st->nslots = 64;
	while (st->nslots < 2 * w->npieces)
		st->nslots *= 2;
	st->used = calloc(st->nslots, 1);
	st->pend = calloc(st->batch, sizeof *st->pend);
	if (!st->used || !st->pend)
		return nm_errf(w->err, sizeof w->err, "out of memory");

	snprintf(st->dir, sizeof st->dir, "%s/log/w%03u", w->root, w->index);
	if (mkdir(st->dir, 0755) < 0)
		return nm_errf(w->err, sizeof w->err, "%s: cannot create: %s", st->dir, strerror(errno));
	if (p->sync != PIECES_NOSYNC && pieces_sync_tree(w->root) < 0)
		return nm_errf(w->err, sizeof w->err, "%s: fsync of the directories: %s", w->root, strerror(errno));
	snprintf(st->idx_path, sizeof st->idx_path, "%s/index.tbl", st->dir);
	st->idx_fd = open(st->idx_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (st->idx_fd < 0)
		return nm_errf(w->err, sizeof w->err, "%s: cannot create: %s", st->idx_path, strerror(errno));
	index_header_encode(st->nslots, hdr);
	if (ftruncate(st->idx_fd, (off_t)((st->nslots + 1) * INDEX_RECORD_SIZE)) < 0 ||
	    pwrite_full(st->idx_fd, hdr, sizeof hdr, 0) < 0 || pieces_sync_fd(st->idx_fd, p->sync) < 0)
		return nm_errf(w->err, sizeof w->err, "%s: cannot size or write the index: %s", st->idx_path,
			       strerror(errno));
	return open_log(w, st);
}

static int index_put(struct pieces_worker *w, struct log_state *st, const struct index_record *r)
{
	uint8_t rec[INDEX_RECORD_SIZE];
	uint64_t slot = index_slot(r->id, st->nslots);
	while (st->used[slot])
		slot = (slot + 1) & (st->nslots - 1);
	st->used[slot] = 1;
	index_record_encode(r, rec);
	if (pwrite_full(st->idx_fd, rec, sizeof rec, (slot + 1) * INDEX_RECORD_SIZE) < 0)
		return nm_errf(w->err, sizeof w->err, "%s: write of slot %llu: %s", st->idx_path,
			       (unsigned long long)slot, strerror(errno));
	return 0;
}

/* Group commit: make the pending pieces durable, then index them, then make the index durable. */
static int commit_pending(struct pieces_worker *w, struct log_state *st)
{
	const struct pieces_plan *p = w->plan;
	if (!st->npend)
		return 0;
	if (pieces_sync_fd(st->log_fd, p->sync) < 0)
		return nm_errf(w->err, sizeof w->err, "%s: %s: %s", st->log_path,
			       p->sync == PIECES_FDATASYNC ? "fdatasync" : "fsync", strerror(errno));
	for (unsigned i = 0; i < st->npend; i++)
		if (index_put(w, st, &st->pend[i].rec) < 0)
			return -1;
	if (pieces_sync_fd(st->idx_fd, p->sync) < 0)
		return nm_errf(w->err, sizeof w->err, "%s: %s: %s", st->idx_path,
			       p->sync == PIECES_FDATASYNC ? "fdatasync" : "fsync", strerror(errno));
	uint64_t now = clock_now_ns();
	for (unsigned i = 0; i < st->npend; i++) {
		hist_add(&w->commit_lat, now - st->pend[i].t_done);
		hist_add(&w->op_lat, now - st->pend[i].t_start);
	}
	st->npend = 0;
	return 0;
}

static int log_write(struct pieces_worker *w, struct piece_loc *loc)
{
	const struct pieces_plan *p = w->plan;
	struct log_state *st = w->state;
	uint8_t footer[LOG_FOOTER_SIZE];
	struct piece_info pi = { .algo = p->hash, .size = p->size };

	uint64_t t_start = clock_now_ns();
	if (st->log_off && st->log_off + p->size + LOG_FOOTER_SIZE > p->log_limit) {
		/* A log is closed only when everything in it is committed. */
		if (commit_pending(w, st) < 0)
			return -1;
		close(st->log_fd);
		st->log_fd = -1;
		st->log_no++;
		if (open_log(w, st) < 0)
			return -1;
	}
	uint64_t off = st->log_off;
	int rc = pieces_stream_out(w, st->log_fd, off, st->log_path, pi.hash);
	if (rc == 0) {
		pi.created_ns = (int64_t)clock_wall_ms() * 1000000;
		memcpy(pi.id, loc->id, PIECE_ID_LEN);
		log_footer_encode(&pi, footer);
		if (pwrite_full(st->log_fd, footer, sizeof footer, off + p->size) < 0) {
			nm_errf(w->err, sizeof w->err, "%s: write of the footer at offset %llu: %s", st->log_path,
				(unsigned long long)(off + p->size), strerror(errno));
			rc = -1;
		}
	}
	if (rc) {
		/* Cut the unfinished piece off the log, as the files backend removes its temp file. */
		if (ftruncate(st->log_fd, (off_t)off) < 0 && rc == 1)
			nm_errf(w->err, sizeof w->err, "%s: truncate: %s", st->log_path, strerror(errno));
		return rc;
	}
	st->log_off = off + p->size + LOG_FOOTER_SIZE;

	struct pending *pd = &st->pend[st->npend++];
	memcpy(pd->rec.id, loc->id, PIECE_ID_LEN);
	pd->rec.log_no = st->log_no;
	pd->rec.flags = INDEX_USED;
	pd->rec.offset = off;
	pd->rec.size = p->size;
	pd->rec.created_s = (uint32_t)(pi.created_ns / 1000000000);
	pd->t_start = t_start;
	pd->t_done = clock_now_ns();
	memcpy(loc->hash, pi.hash, sizeof loc->hash);
	loc->log_no = st->log_no;
	loc->offset = off;
	if (st->npend == st->batch)
		return commit_pending(w, st);
	return 0;
}

static int log_finish(struct pieces_worker *w)
{
	return commit_pending(w, w->state);
}

static int log_read(struct pieces_worker *w, const struct piece_loc *loc)
{
	const struct pieces_plan *p = w->plan;
	struct log_state *st = w->state;
	char path[4200];
	uint8_t footer[LOG_FOOTER_SIZE], digest[HASH_MAX_DIGEST];
	struct piece_info pi;
	const char *why = NULL;
	int rc = 0;

	snprintf(path, sizeof path, "%s/log-%08u.log", st->dir, loc->log_no);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return nm_errf(w->err, sizeof w->err, "%s: cannot open: %s", path, strerror(errno));
	if (p->sync != PIECES_NOSYNC)
		posix_fadvise(fd, (off_t)loc->offset, (off_t)(p->size + LOG_FOOTER_SIZE), POSIX_FADV_DONTNEED);
	int n = pread_full(fd, footer, sizeof footer, loc->offset + p->size);
	if (n < 0) {
		rc = nm_errf(w->err, sizeof w->err, "%s: read of the footer: %s", path, strerror(errno));
	} else if (log_footer_decode(footer, (size_t)n, &pi, &why) < 0) {
		rc = 1;
	} else if (pi.size != p->size || memcmp(pi.id, loc->id, PIECE_ID_LEN)) {
		why = "footer does not match the piece";
		rc = 1;
	} else {
		int h = pieces_hash_range(fd, loc->offset, pi.size, pi.algo, &w->hash, w->rbuf, p->block, digest);
		if (h == -3)
			; /* stopping: no verdict, and the read phase of a stopped run is not kept */
		else if (h == -1)
			rc = nm_errf(w->err, sizeof w->err, "%s: read: %s", path, strerror(errno));
		else if (h == -2 || memcmp(digest, pi.hash, HASH_MAX_DIGEST) ||
			 memcmp(digest, loc->hash, HASH_MAX_DIGEST)) {
			why = h == -2 ? "log ends inside the piece" : "hash mismatch";
			rc = 1;
		}
	}
	if (rc == 1 && !w->err[0])
		nm_errf(w->err, sizeof w->err, "%s at offset %llu: %s", path, (unsigned long long)loc->offset, why);
	close(fd);
	return rc;
}

static void log_close(struct pieces_worker *w)
{
	struct log_state *st = w->state;
	if (!st)
		return;
	if (st->log_fd >= 0)
		close(st->log_fd);
	if (st->idx_fd >= 0)
		close(st->idx_fd);
	free(st->used);
	free(st->pend);
	free(st);
	w->state = NULL;
}

const struct pieces_backend_ops pieces_log_ops = {
	.store_init = log_store_init,
	.open = log_open,
	.write = log_write,
	.finish = log_finish,
	.read = log_read,
	.close = log_close,
};
