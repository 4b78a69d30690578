/* The files backend: one file per piece, the storage node's layout.
 *
 *   temp/blob-<random>.partial   created O_EXCL; data at 512.., hashed as written
 *   header at 0, then fsync/fdatasync (--sync), then rename to
 *   blobs/<namespace>/<first 2 chars of the id>/<rest>.sj1, then fsync of that dir (--dirsync) */
#include "pieces/internal.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The 32 x 32 two-character directories this worker knows exist, so it asks mkdir only once
 * for each (another worker making it first only costs an EEXIST). */
struct files_state {
	uint8_t made[32 * 32];
};

static int mkdir_ok(const char *path)
{
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static int files_store_init(const char *root, const char *ns, char *err, size_t errlen)
{
	char path[4096];
	const char *sub[] = { "temp", "blobs", NULL };
	for (int i = 0; sub[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", root, sub[i]);
		if (mkdir_ok(path) < 0)
			return nm_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
	}
	snprintf(path, sizeof path, "%s/blobs/%s", root, ns);
	if (mkdir_ok(path) < 0)
		return nm_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

static int files_open(struct pieces_worker *w)
{
	if (!(w->state = calloc(1, sizeof(struct files_state)))) {
		nm_errf(w->err, sizeof w->err, "out of memory");
		return -1;
	}
	return 0;
}

static void blob_path(const struct pieces_worker *w, const uint8_t id[PIECE_ID_LEN], char *dir,
		      size_t dirlen, char *path, size_t pathlen)
{
	char b32[PIECE_ID_B32_LEN + 1];
	base32_encode(id, PIECE_ID_LEN, b32);
	snprintf(dir, dirlen, "%s/blobs/%s/%.2s", w->root, w->ns, b32);
	snprintf(path, pathlen, "%s/%s.sj1", dir, b32 + 2);
}

static unsigned b32_val(char c)
{
	return c >= 'a' && c <= 'z' ? (unsigned)(c - 'a') : (unsigned)(c - '2' + 26);
}

/* The blob's two-letter directory, made the first time a piece goes there; 0 or -1 (w->err). */
static int make_blob_dir(struct pieces_worker *w, char *dir)
{
	struct files_state *st = w->state;
	const char *two = strrchr(dir, '/') + 1;
	unsigned slot = b32_val(two[0]) * 32 + b32_val(two[1]);
	if (st->made[slot])
		return 0;
	if (mkdir_ok(dir) < 0)
		return nm_errf(w->err, sizeof w->err, "%s: cannot create: %s", dir, strerror(errno));
	/* With --dirsync the new directory's own entry must be durable too. */
	char *slash = strrchr(dir, '/');
	*slash = 0;
	int e = w->plan->dirsync ? fsync_dir(dir) : 0;
	*slash = '/';
	if (e < 0)
		return nm_errf(w->err, sizeof w->err, "%s: fsync of the directory: %s", dir, strerror(errno));
	st->made[slot] = 1;
	return 0;
}

static int files_write(struct pieces_worker *w, struct piece_loc *loc)
{
	const struct pieces_plan *p = w->plan;
	char tmp[4096], dir[4096], path[4200];
	uint8_t header[PIECE_HEADER_SIZE];
	struct piece_info pi = { .algo = p->hash, .size = p->size, .has_id = 1 };
	int fd, rc;

	snprintf(tmp, sizeof tmp, "%s/temp/blob-%016llx.partial", w->root, (unsigned long long)random_u64());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		nm_errf(w->err, sizeof w->err, "%s: cannot create: %s", tmp, strerror(errno));
		return -1;
	}
	uint64_t t_start = clock_now_ns();
	rc = pieces_stream_out(w, fd, PIECE_HEADER_SIZE, tmp, pi.hash);
	if (rc)
		goto cancel;

	uint64_t t_commit = clock_now_ns();
	pi.created_ns = (int64_t)clock_wall_ms() * 1000000;
	memcpy(pi.id, loc->id, PIECE_ID_LEN);
	piece_header_encode(&pi, header);
	if (pwrite_full(fd, header, sizeof header, 0) < 0) {
		nm_errf(w->err, sizeof w->err, "%s: write of the header: %s", tmp, strerror(errno));
		goto fail;
	}
	if (pieces_sync_fd(fd, p->sync) < 0) {
		nm_errf(w->err, sizeof w->err, "%s: %s: %s", tmp,
			p->sync == PIECES_FDATASYNC ? "fdatasync" : "fsync", strerror(errno));
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		nm_errf(w->err, sizeof w->err, "%s: close: %s", tmp, strerror(errno));
		goto fail;
	}
	fd = -1;

	blob_path(w, loc->id, dir, sizeof dir, path, sizeof path);
	if (make_blob_dir(w, dir) < 0)
		goto fail;
	if (rename(tmp, path) < 0) {
		nm_errf(w->err, sizeof w->err, "rename %s to %s: %s", tmp, path, strerror(errno));
		goto fail;
	}
	if (p->dirsync && fsync_dir(dir) < 0) {
		/* The piece is in place; only its directory entry may not be durable. */
		nm_errf(w->err, sizeof w->err, "%s: fsync of the directory: %s", dir, strerror(errno));
		return -1;
	}
	uint64_t t_end = clock_now_ns();
	hist_add(&w->commit_lat, t_end - t_commit);
	hist_add(&w->op_lat, t_end - t_start);
	memcpy(loc->hash, pi.hash, sizeof loc->hash);
	return 0;

fail:
	rc = -1;
cancel:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return rc;
}

static int files_finish(struct pieces_worker *w)
{
	(void)w;
	return 0;
}

static int corrupt(struct pieces_worker *w, const char *path, const char *why)
{
	if (!w->err[0])
		nm_errf(w->err, sizeof w->err, "%s: %s", path, why);
	return 1;
}

static int files_read(struct pieces_worker *w, const struct piece_loc *loc)
{
	const struct pieces_plan *p = w->plan;
	char dir[4096], path[4200];
	uint8_t header[PIECE_HEADER_SIZE], digest[HASH_MAX_DIGEST];
	struct piece_info pi;
	const char *why;
	int rc = 0;

	blob_path(w, loc->id, dir, sizeof dir, path, sizeof path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		nm_errf(w->err, sizeof w->err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	/* Synced pages are clean: drop them so the read comes from the disk, not the cache. */
	if (p->sync != PIECES_NOSYNC)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	int n = pread_full(fd, header, sizeof header, 0);
	if (n < 0) {
		nm_errf(w->err, sizeof w->err, "%s: read of the header: %s", path, strerror(errno));
		rc = -1;
	} else if (piece_header_decode(header, (size_t)n, &pi, &why) < 0) {
		rc = corrupt(w, path, why);
	} else if (pi.size != p->size || pi.algo != p->hash) {
		rc = corrupt(w, path, "header size or algorithm is not what was written");
	} else {
		int h = pieces_hash_range(fd, PIECE_HEADER_SIZE, pi.size, pi.algo, &w->hash, w->rbuf,
					  p->block, digest);
		if (h == -3) {
			; /* stopping: no verdict, and the read phase of a stopped run is not kept */
		} else if (h == -1) {
			nm_errf(w->err, sizeof w->err, "%s: read: %s", path, strerror(errno));
			rc = -1;
		} else if (h == -2) {
			rc = corrupt(w, path, "shorter than its header says");
		} else if (memcmp(digest, pi.hash, HASH_MAX_DIGEST) || memcmp(digest, loc->hash, HASH_MAX_DIGEST)) {
			rc = corrupt(w, path, "hash mismatch");
		}
	}
	close(fd);
	return rc;
}

static void files_close(struct pieces_worker *w)
{
	free(w->state);
	w->state = NULL;
}

const struct pieces_backend_ops pieces_files_ops = {
	.store_init = files_store_init,
	.open = files_open,
	.write = files_write,
	.finish = files_finish,
	.read = files_read,
	.close = files_close,
};
