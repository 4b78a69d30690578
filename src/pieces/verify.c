/* pieces verify: check every committed piece of a store left on disk (a --keep run, or one
 * killed mid-run), report corrupt pieces and leftovers of unfinished writes; repair removes
 * the leftovers (temp files, uncommitted log tails).  Never trusts what it reads: every field
 * goes through the decoders in format.c, and never follows a link out of the store
 * (verify_internal.h).  This file: the walk, the marker, the files backend; verify_log.c: the log. */
#include "pieces/verify_internal.h"
#include "util/cleanup.h"
#include "util/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int verify_stopping(struct verifier *v)
{
	if (!v->stopped && cleanup_interrupted())
		v->stopped = 1;
	return v->stopped;
}

void verify_note(struct verifier *v, enum pieces_finding kind, const char *path, const char *why)
{
	if (kind == PIECES_LEFT_ALONE)
		v->rep->left_alone++;
	if (v->fn)
		v->fn(v->arg, kind, path, why);
}

void verify_corrupt(struct verifier *v, const char *path, const char *why)
{
	v->rep->corrupt++;
	verify_note(v, PIECES_CORRUPT, path, why);
}

int pieces_verify_sound(const struct pieces_verify_report *rep)
{
	return !rep->corrupt && !rep->missing && !rep->left_alone && !rep->no_marker && !rep->duplicates &&
	       rep->index_damaged == rep->index_rebuilt;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

int verify_open_dir(struct verifier *v, int dfd, const char *dirpath, const char *name)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return -2;
		verify_note(v, PIECES_LEFT_ALONE, path,
			    errno == ELOOP || errno == ENOTDIR ? "not a directory (a symbolic link or a file), not followed"
							       : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_dev != v->dev) {
		close(fd);
		verify_note(v, PIECES_LEFT_ALONE, path, "on another file system, not entered");
		return -1;
	}
	return fd;
}

int verify_open_file(struct verifier *v, int dfd, const char *dirpath, const char *name, int flags,
		     struct stat *st)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	/* O_NONBLOCK: a FIFO planted in the store must not hang the open. */
	int fd = openat(dfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return -2;
		verify_note(v, errno == ELOOP ? PIECES_LEFT_ALONE : PIECES_CORRUPT, path,
			    errno == ELOOP ? "a symbolic link, not followed" : strerror(errno));
		if (errno != ELOOP)
			v->rep->corrupt++;
		return -1;
	}
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) || st->st_dev != v->dev) {
		close(fd);
		verify_note(v, PIECES_LEFT_ALONE, path, "not a regular file of the store, left alone");
		return -1;
	}
	return fd;
}

int verify_each(struct verifier *v, int dfd, const char *dirpath, verify_entry_fn fn, void *ctx)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return nm_errf(v->err, v->errlen, "%s: cannot read: %s", dirpath, strerror(errno));
	}
	rewinddir(d);
	for (struct dirent *e; !verify_stopping(v) && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		fn(v, dfd, dirpath, e->d_name, ctx);
	}
	closedir(d);
	return 0;
}

const char *verify_data(struct verifier *v, int fd, uint64_t off, uint64_t size, enum hash_algo algo,
			const uint8_t want[HASH_MAX_DIGEST], int *unverified)
{
	uint8_t digest[HASH_MAX_DIGEST];
	*unverified = 0;
	if (algo == HASH_NONE) {
		*unverified = 1;
		return NULL;
	}
	int h = pieces_hash_range(fd, off, size, algo, &v->hash, v->buf, VERIFY_BUF, digest);
	if (h == -3) { /* stopped inside the piece: no verdict on it */
		v->stopped = 1;
		*unverified = 1;
		return NULL;
	}
	return h == -1 ? strerror(errno) : h == -2 ? "the file ends inside the piece"
		: memcmp(digest, want, HASH_MAX_DIGEST) ? "hash mismatch" : NULL;
}

/* The marker root/PIECES: the backend (-1 when root is not a store) and the committed count
 * a finished run wrote (-1 when absent). */
static int store_backend(int rfd, int64_t *committed)
{
	char text[256];
	struct stat st;
	*committed = -1;
	int fd = openat(rfd, "PIECES", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? pread_full(fd, text, sizeof text - 1, 0) : -1;
	close(fd);
	if (n < 0)
		return -1;
	text[n] = 0;
	if (strncmp(text, "nodemark piece store\n", 21) != 0)
		return -1;
	const char *c = strstr(text, "\ncommitted ");
	long long k;
	if (c && sscanf(c + 11, "%lld", &k) == 1 && k >= 0)
		*committed = k;
	if (strstr(text, "\nbackend files\n"))
		return PIECES_FILES;
	if (strstr(text, "\nbackend log\n"))
		return PIECES_LOG;
	return -1;
}

/* A .nodemark-* directory whose PIECES marker is gone (deleted, or lost with a power cut
 * before it was written): a store all the same when it has blobs/ or log/, checked as such
 * (its committed count unknown) and reported; -1 when it has neither. */
static int store_without_marker(struct verifier *v, int rfd, const char *root)
{
	struct stat st;
	int backend = fstatat(rfd, "blobs", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) ? PIECES_FILES
		: fstatat(rfd, "log", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)    ? PIECES_LOG
											     : -1;
	if (backend >= 0 && faccessat(rfd, "PIECES", F_OK, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT) {
		v->rep->no_marker++;
		verify_note(v, PIECES_DAMAGED, root,
			    backend == PIECES_LOG ? "the PIECES marker is missing: checked as a log store"
						  : "the PIECES marker is missing: checked as a files store");
	} else
		backend = -1;
	return backend;
}

static int is_workdir_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!*base && base > path) { /* a trailing '/' */
		const char *end = base - 1;
		while (end > path && end[-1] != '/')
			end--;
		base = end;
	}
	return strncmp(base, ".nodemark-", 10) == 0;
}

static void check_blob(struct verifier *v, int dfd, const char *dirpath, const char *two, const char *name)
{
	char id32[PIECE_ID_B32_LEN + 8], path[4200];
	uint8_t id[PIECE_ID_LEN], header[PIECE_HEADER_SIZE];
	struct piece_info pi;
	struct stat st;
	const char *why = NULL;
	int unverified = 0;

	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	uint64_t corrupt = v->rep->corrupt;
	int fd = verify_open_file(v, dfd, dirpath, name, O_RDONLY, &st);
	if (fd < 0) {
		/* A piece that cannot be opened is corrupt; a link in its place is left alone. */
		v->rep->pieces += v->rep->corrupt > corrupt;
		return;
	}
	v->rep->pieces++;
	snprintf(id32, sizeof id32, "%s%s", two, name);
	id32[strlen(id32) - 4] = 0; /* ".sj1" */
	int n = pread_full(fd, header, sizeof header, 0);
	if (strlen(id32) != PIECE_ID_B32_LEN || base32_decode(id32, PIECE_ID_B32_LEN, id, sizeof id) != PIECE_ID_LEN)
		why = "name is not a base32 piece id";
	else if (n < 0)
		why = strerror(errno);
	else if (piece_header_decode(header, (size_t)n, &pi, &why) < 0)
		;
	else if (pi.has_id && memcmp(pi.id, id, PIECE_ID_LEN))
		why = "its name is not the piece id in its header (renamed, or swapped with another piece)";
	else if ((uint64_t)st.st_size != PIECE_HEADER_SIZE + pi.size)
		why = "file size does not match the header";
	else
		why = verify_data(v, fd, PIECE_HEADER_SIZE, pi.size, pi.algo, pi.hash, &unverified);
	close(fd);
	if (why)
		return verify_corrupt(v, path, why);
	if (unverified)
		v->rep->unverified++;
	else
		v->rep->ok++;
}

static void on_temp(struct verifier *v, int dfd, const char *dirpath, const char *name, void *ctx)
{
	char path[4200];
	struct stat st;
	(void)ctx;
	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!S_ISREG(st.st_mode) || strncmp(name, "blob-", 5) != 0 || !ends_with(name, ".partial"))
		return verify_note(v, PIECES_LEFT_ALONE, path, "not a temp file nodemark writes, left alone");
	v->rep->temp_files++;
	/* unlinkat removes the entry itself: never what a link would point at. */
	if (v->repair && unlinkat(dfd, name, 0) == 0)
		v->rep->removed++;
}

static void on_blob(struct verifier *v, int dfd, const char *dirpath, const char *name, void *ctx)
{
	char path[4200];
	if (ends_with(name, ".sj1"))
		return check_blob(v, dfd, dirpath, ctx, name);
	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	verify_note(v, PIECES_LEFT_ALONE, path, "not a piece file, left alone");
}

static void each_in_dir(struct verifier *v, int dfd, const char *dirpath, const char *name,
			verify_entry_fn fn, void *ctx)
{
	char path[4200];
	int fd = verify_open_dir(v, dfd, dirpath, name);
	if (fd < 0)
		return;
	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	verify_each(v, fd, path, fn, ctx);
	close(fd);
}

static void on_two(struct verifier *v, int dfd, const char *dirpath, const char *name, void *ctx)
{
	char path[4200];
	(void)ctx;
	if (strlen(name) == 2)
		return each_in_dir(v, dfd, dirpath, name, on_blob, (void *)name);
	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	verify_note(v, PIECES_LEFT_ALONE, path, "not a piece directory, left alone");
}

static void on_namespace(struct verifier *v, int dfd, const char *dirpath, const char *name, void *ctx)
{
	(void)ctx;
	each_in_dir(v, dfd, dirpath, name, on_two, NULL);
}

static int verify_files(struct verifier *v, int rfd, const char *root)
{
	int fd = verify_open_dir(v, rfd, root, "temp");
	char path[4200];
	if (fd >= 0) {
		snprintf(path, sizeof path, "%s/temp", root);
		int rc = verify_each(v, fd, path, on_temp, NULL);
		close(fd);
		if (rc < 0)
			return -1;
	}
	fd = verify_open_dir(v, rfd, root, "blobs");
	if (fd < 0)
		return 0;
	snprintf(path, sizeof path, "%s/blobs", root);
	int rc = verify_each(v, fd, path, on_namespace, NULL);
	close(fd);
	return rc;
}

static int verify_store(struct verifier *v, int rfd, const char *root, int backend, int64_t committed)
{
	struct stat st;
	char why[200];
	if (fstat(rfd, &st) < 0)
		return nm_errf(v->err, v->errlen, "%s: %s", root, strerror(errno));
	v->dev = st.st_dev;
	v->rep->stores++;
	uint64_t before = v->rep->pieces;
	int rc = backend == PIECES_LOG ? verify_log_store(v, rfd, root, committed) : verify_files(v, rfd, root);
	uint64_t found = v->rep->pieces - before;
	if (v->stopped) {
		; /* what was not looked at is not missing */
	} else if (committed < 0) {
		v->rep->uncounted++;
	} else if (found < (uint64_t)committed) {
		v->rep->missing += (uint64_t)committed - found;
		snprintf(why, sizeof why, "%lld pieces were committed, %llu found: %llu missing (deleted?)",
			 (long long)committed, (unsigned long long)found,
			 (unsigned long long)((uint64_t)committed - found));
		verify_note(v, PIECES_DAMAGED, root, why);
	}
	return rc;
}

static void on_child(struct verifier *v, int dfd, const char *dirpath, const char *name, void *ctx)
{
	char path[4200];
	int64_t committed;
	if (strncmp(name, ".nodemark-", 10) != 0)
		return;
	/* Not verify_open_dir: other directories here are the user's, not reported. */
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	int backend = store_backend(fd, &committed);
	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	if (backend < 0)
		backend = store_without_marker(v, fd, path);
	if (backend >= 0 && verify_store(v, fd, path, backend, committed) < 0)
		*(int *)ctx = -1;
	close(fd);
}

int pieces_verify(const char *dir, int repair, struct pieces_verify_report *rep, pieces_verify_fn fn,
		  void *arg, char *err, size_t errlen)
{
	struct verifier v = { .repair = repair, .rep = rep, .fn = fn, .arg = arg, .err = err, .errlen = errlen };
	int64_t committed;
	int rc = 0;

	memset(rep, 0, sizeof *rep);
	/* DIR itself is the user's choice: followed if it is a link; nothing below it is. */
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return nm_errf(err, errlen, "%s: %s", dir, errno == ENOTDIR ? "not a directory" : strerror(errno)),
		       NM_EXIT_USAGE;
	if (!(v.buf = malloc(VERIFY_BUF))) {
		close(fd);
		return nm_errf(err, errlen, "out of memory"), NM_EXIT_FAILED;
	}
	int backend = store_backend(fd, &committed);
	if (backend < 0 && is_workdir_name(dir))
		backend = store_without_marker(&v, fd, dir);
	if (backend >= 0)
		rc = verify_store(&v, fd, dir, backend, committed);
	else if (verify_each(&v, fd, dir, on_child, &rc) < 0)
		rc = -1;
	close(fd);
	free(v.buf);
	hash_release(&v.hash);
	if (v.stopped)
		return nm_errf(err, errlen, "stopped by a signal after checking %llu pieces: no verdict%s",
			       (unsigned long long)rep->pieces,
			       !repair ? "" : rep->removed || rep->reindexed ? " (the repairs made before it are kept)"
									: ", nothing repaired"),
		       NM_EXIT_INTERRUPTED;
	if (rc < 0)
		return NM_EXIT_FAILED;
	if (!rep->stores)
		return nm_errf(err, errlen, "%s: not a piece store (no PIECES file in it or in a .nodemark-* "
					    "directory under it)", dir), NM_EXIT_USAGE;
	return 0;
}
