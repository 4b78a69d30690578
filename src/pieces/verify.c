/* pieces verify: check every committed piece of a store left on disk (a --keep run, or one
 * killed mid-run), report corrupt pieces and leftovers of unfinished writes; repair removes
 * the leftovers (temp files, unindexed log tails).  Never trusts what it reads: every field
 * goes through the decoders in format.c. */
#include "pieces/internal.h"
#include "util/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VERIFY_BUF (1u << 20)

struct verifier {
	int repair;
	struct pieces_verify_report *rep;
	pieces_verify_fn fn;
	void *arg;
	uint8_t *buf;
	struct hash_ctx hash;
	char *err;
	size_t errlen;
};

static void bad(struct verifier *v, const char *path, const char *why)
{
	v->rep->corrupt++;
	if (v->fn)
		v->fn(v->arg, path, why);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The backend named in root/PIECES, or -1 when root is not a store. */
static int store_backend(const char *root)
{
	char path[4200], text[256];
	snprintf(path, sizeof path, "%s/PIECES", root);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	if (strncmp(text, "nodemark piece store\n", 21) != 0)
		return -1;
	if (strstr(text, "\nbackend files\n"))
		return PIECES_FILES;
	if (strstr(text, "\nbackend log\n"))
		return PIECES_LOG;
	return -1;
}

static void check_blob(struct verifier *v, const char *path, const char *two, const char *name)
{
	char id32[PIECE_ID_B32_LEN + 8];
	uint8_t id[PIECE_ID_LEN], header[PIECE_HEADER_SIZE], digest[HASH_MAX_DIGEST];
	struct piece_info pi;
	struct stat st;
	const char *why;

	v->rep->pieces++;
	snprintf(id32, sizeof id32, "%s%s", two, name);
	id32[strlen(id32) - 4] = 0; /* ".sj1" */
	if (strlen(id32) != PIECE_ID_B32_LEN ||
	    base32_decode(id32, PIECE_ID_B32_LEN, id, sizeof id) != PIECE_ID_LEN)
		return bad(v, path, "name is not a base32 piece id");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return bad(v, path, strerror(errno));
	}
	int n = pread_full(fd, header, sizeof header, 0);
	if (n < 0)
		why = strerror(errno);
	else if (piece_header_decode(header, (size_t)n, &pi, &why) < 0)
		;
	else if ((uint64_t)st.st_size != PIECE_HEADER_SIZE + pi.size)
		why = "file size does not match the header";
	else {
		int h = pieces_hash_range(fd, PIECE_HEADER_SIZE, pi.size, pi.algo, &v->hash, v->buf,
					  VERIFY_BUF, digest);
		why = h == -1 ? strerror(errno) : h == -2 ? "shorter than its header says"
				: memcmp(digest, pi.hash, HASH_MAX_DIGEST) ? "hash mismatch" : NULL;
	}
	close(fd);
	if (why)
		return bad(v, path, why);
	v->rep->ok++;
}

/* Calls fn(v, path, name) for each entry of dir (not . and ..). Returns -1 when dir cannot be
 * opened (and it exists). */
static int each_entry(struct verifier *v, const char *dir, void (*fn)(struct verifier *, const char *,
								       const char *, void *), void *ctx)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4200];
	if (!d) {
		if (errno == ENOENT)
			return 0;
		return nm_errf(v->err, v->errlen, "%s: cannot read: %s", dir, strerror(errno));
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		fn(v, path, e->d_name, ctx);
	}
	closedir(d);
	return 0;
}

static void on_temp(struct verifier *v, const char *path, const char *name, void *ctx)
{
	(void)name;
	(void)ctx;
	v->rep->temp_files++;
	if (v->repair && unlink(path) == 0)
		v->rep->removed++;
}

static void on_blob(struct verifier *v, const char *path, const char *name, void *ctx)
{
	if (ends_with(name, ".sj1"))
		check_blob(v, path, ctx, name);
}

static void on_two(struct verifier *v, const char *path, const char *name, void *ctx)
{
	(void)ctx;
	if (strlen(name) == 2)
		each_entry(v, path, on_blob, (void *)name);
}

static void on_namespace(struct verifier *v, const char *path, const char *name, void *ctx)
{
	(void)name;
	(void)ctx;
	each_entry(v, path, on_two, NULL);
}

static int verify_files(struct verifier *v, const char *root)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/temp", root);
	if (each_entry(v, path, on_temp, NULL) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/blobs", root);
	return each_entry(v, path, on_namespace, NULL);
}

/* One log shard: its index, the pieces it points at, and the log tails past them. */
struct shard {
	const char *dir;
	uint64_t *end;          /* per log number: the end of its last indexed piece */
	uint32_t nlogs;
	int fd;
	uint32_t fd_no;
};

static void check_record(struct verifier *v, struct shard *sh, const struct index_record *r)
{
	char path[4200];
	uint8_t footer[LOG_FOOTER_SIZE], digest[HASH_MAX_DIGEST];
	struct piece_info pi;
	const char *why = NULL;

	v->rep->pieces++;
	snprintf(path, sizeof path, "%s/log-%08u.log", sh->dir, r->log_no);
	if (sh->fd < 0 || sh->fd_no != r->log_no) {
		if (sh->fd >= 0)
			close(sh->fd);
		sh->fd = open(path, O_RDONLY | O_CLOEXEC);
		sh->fd_no = r->log_no;
		if (sh->fd < 0)
			return bad(v, path, "indexed log file cannot be opened");
	}
	int n = pread_full(sh->fd, footer, sizeof footer, r->offset + r->size);
	if (n < 0)
		why = strerror(errno);
	else if (log_footer_decode(footer, (size_t)n, &pi, &why) < 0)
		;
	else if (pi.size != r->size || memcmp(pi.id, r->id, PIECE_ID_LEN))
		why = "footer does not match the index record";
	else {
		int h = pieces_hash_range(sh->fd, r->offset, pi.size, pi.algo, &v->hash, v->buf, VERIFY_BUF,
					  digest);
		why = h == -1 ? strerror(errno) : h == -2 ? "log ends inside the piece"
				: memcmp(digest, pi.hash, HASH_MAX_DIGEST) ? "hash mismatch" : NULL;
	}
	if (why) {
		char where[4300];
		snprintf(where, sizeof where, "%s@%llu", path, (unsigned long long)r->offset);
		return bad(v, where, why);
	}
	v->rep->ok++;
	if (r->log_no < sh->nlogs && r->offset + r->size + LOG_FOOTER_SIZE > sh->end[r->log_no])
		sh->end[r->log_no] = r->offset + r->size + LOG_FOOTER_SIZE;
}

static void on_log_file(struct verifier *v, const char *path, const char *name, void *ctx)
{
	struct shard *sh = ctx;
	unsigned no;
	struct stat st;
	if (sscanf(name, "log-%8u.log", &no) != 1 || !ends_with(name, ".log") || stat(path, &st) < 0)
		return;
	uint64_t end = no < sh->nlogs ? sh->end[no] : 0;
	if ((uint64_t)st.st_size > end) {
		v->rep->tail_bytes += (uint64_t)st.st_size - end;
		if (v->repair && truncate(path, (off_t)end) == 0)
			v->rep->removed++;
	}
}

static void count_log(struct verifier *v, const char *path, const char *name, void *ctx)
{
	unsigned no;
	(void)v;
	(void)path;
	if (sscanf(name, "log-%8u.log", &no) == 1 && no + 1 > *(uint32_t *)ctx)
		*(uint32_t *)ctx = no + 1;
}

static void on_shard(struct verifier *v, const char *dir, const char *name, void *ctx)
{
	char path[4200];
	uint8_t rec[INDEX_RECORD_SIZE];
	struct shard sh = { .dir = dir, .fd = -1 };
	struct index_record r;
	struct stat st;
	uint64_t nslots;
	const char *why;
	(void)ctx;

	if (name[0] != 'w')
		return;
	snprintf(path, sizeof path, "%s/index.tbl", dir);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* Killed before its index existed: no committed piece, only a log tail. */
		if (errno != ENOENT)
			bad(v, path, strerror(errno));
	} else {
		each_entry(v, dir, count_log, &sh.nlogs);
		sh.end = calloc(sh.nlogs ? sh.nlogs : 1, sizeof *sh.end);
		int n = pread_full(fd, rec, sizeof rec, 0);
		if (n < 0 || fstat(fd, &st) < 0)
			bad(v, path, strerror(errno));
		else if (index_header_decode(rec, (size_t)n, &nslots, &why) < 0)
			bad(v, path, why);
		else if ((uint64_t)st.st_size < (nslots + 1) * INDEX_RECORD_SIZE)
			bad(v, path, "index shorter than its slot count");
		else {
			size_t per = VERIFY_BUF / INDEX_RECORD_SIZE;
			uint8_t *tbl = malloc(VERIFY_BUF);
			for (uint64_t s = 0; tbl && s < nslots; s += per) {
				size_t k = nslots - s < per ? (size_t)(nslots - s) : per;
				n = pread_full(fd, tbl, k * INDEX_RECORD_SIZE, (s + 1) * INDEX_RECORD_SIZE);
				if (n < (int)(k * INDEX_RECORD_SIZE)) {
					bad(v, path, "index cannot be read");
					break;
				}
				for (size_t i = 0; i < k; i++) {
					int u = index_record_decode(tbl + i * INDEX_RECORD_SIZE, INDEX_RECORD_SIZE, &r, &why);
					if (u < 0) {
						char where[4300];
						snprintf(where, sizeof where, "%s slot %llu", path,
							 (unsigned long long)(s + i));
						v->rep->pieces++;
						bad(v, where, why);
					} else if (u > 0) {
						check_record(v, &sh, &r);
					}
				}
			}
			free(tbl);
		}
		close(fd);
	}
	if (sh.fd >= 0)
		close(sh.fd);
	each_entry(v, dir, on_log_file, &sh);
	free(sh.end);
}

static int verify_log(struct verifier *v, const char *root)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/log", root);
	return each_entry(v, path, on_shard, NULL);
}

static int verify_store(struct verifier *v, const char *root, int backend)
{
	v->rep->stores++;
	return backend == PIECES_LOG ? verify_log(v, root) : verify_files(v, root);
}

static void on_child(struct verifier *v, const char *path, const char *name, void *ctx)
{
	int backend;
	if (strncmp(name, ".nodemark-", 10) != 0 || (backend = store_backend(path)) < 0)
		return;
	if (verify_store(v, path, backend) < 0)
		*(int *)ctx = -1;
}

int pieces_verify(const char *dir, int repair, struct pieces_verify_report *rep, pieces_verify_fn fn,
		  void *arg, char *err, size_t errlen)
{
	struct verifier v = { .repair = repair, .rep = rep, .fn = fn, .arg = arg, .err = err, .errlen = errlen };
	struct stat st;
	int rc = 0;

	memset(rep, 0, sizeof *rep);
	if (stat(dir, &st) < 0)
		return nm_errf(err, errlen, "%s: %s", dir, strerror(errno)), NM_EXIT_USAGE;
	if (!S_ISDIR(st.st_mode))
		return nm_errf(err, errlen, "%s: not a directory", dir), NM_EXIT_USAGE;
	if (!(v.buf = malloc(VERIFY_BUF)))
		return nm_errf(err, errlen, "out of memory"), NM_EXIT_FAILED;
	int backend = store_backend(dir);
	if (backend >= 0)
		rc = verify_store(&v, dir, backend);
	else if (each_entry(&v, dir, on_child, &rc) < 0)
		rc = -1;
	free(v.buf);
	hash_release(&v.hash);
	if (rc < 0)
		return NM_EXIT_FAILED;
	if (!rep->stores)
		return nm_errf(err, errlen, "%s: not a piece store (no PIECES file in it or in a .nodemark-* "
					    "directory under it)", dir), NM_EXIT_USAGE;
	return 0;
}
