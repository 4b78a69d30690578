/* Helpers the backends share: streaming a piece out while hashing it, hashing a range back. */
#include "pieces/internal.h"
#include "util/cleanup.h"
#include "util/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;
	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(fd, p + got, len - got, (off_t)(off + got));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (int)got;
}

int pieces_sync_fd(int fd, enum pieces_sync s)
{
	switch (s) {
	case PIECES_FSYNC:
		return fsync(fd);
	case PIECES_FDATASYNC:
		return fdatasync(fd);
	case PIECES_NOSYNC:
		break;
	}
	return 0;
}

int fsync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* fsync dfd and every directory below it (never through a symbolic link), deepest first. */
static int sync_tree_at(int dfd, int depth)
{
	int rc = 0, e = 0;
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (struct dirent *ent; depth < 8 && (ent = readdir(d));) {
		if (ent->d_type != DT_DIR || !strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
			continue;
		int sub = openat(dfd, ent->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || sync_tree_at(sub, depth + 1) < 0) {
			rc = -1;
			e = errno;
		}
		if (sub >= 0)
			close(sub);
	}
	closedir(d);
	if (fsync(dfd) < 0) {
		rc = -1;
		e = errno;
	}
	errno = e;
	return rc;
}

int pieces_sync_tree(const char *root)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = sync_tree_at(fd, 0);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

int pieces_stream_out(struct pieces_worker *w, int fd, uint64_t off, const char *path,
		      uint8_t hash[HASH_MAX_DIGEST])
{
	const struct pieces_plan *p = w->plan;
	uint64_t left = p->size;
	size_t pos = 0;

	if (hash_init(&w->hash, p->hash) < 0) {
		nm_errf(w->err, sizeof w->err, "%s: OpenSSL could not start the digest", hash_algo_name(p->hash));
		return -1;
	}
	while (left) {
		if (__atomic_load_n(w->stop, __ATOMIC_RELAXED))
			return 1;
		size_t n = p->block;
		if (n > w->data_len - pos)
			n = w->data_len - pos;
		if (n > left)
			n = (size_t)left;
		hash_update(&w->hash, w->data + pos, n);
		if (pwrite_full(fd, w->data + pos, n, off) < 0) {
			nm_errf(w->err, sizeof w->err, "%s: write of %zu bytes at offset %llu: %s", path, n,
				(unsigned long long)off, strerror(errno));
			return -1;
		}
		off += n;
		left -= n;
		pos += n;
		if (pos == w->data_len)
			pos = 0;
	}
	hash_final(&w->hash, hash);
	return 0;
}

int pieces_hash_range(int fd, uint64_t off, uint64_t size, enum hash_algo algo, struct hash_ctx *h,
		      uint8_t *buf, size_t buflen, uint8_t out[HASH_MAX_DIGEST])
{
	if (hash_init(h, algo) < 0) {
		errno = ENOMEM;
		return -1;
	}
	while (size) {
		if (cleanup_interrupted())
			return -3; /* a piece may be up to 1 TiB: a signal must not wait for its end */
		size_t want = size < buflen ? (size_t)size : buflen;
		int n = pread_full(fd, buf, want, off);
		if (n < 0)
			return -1;
		if ((size_t)n < want)
			return -2;
		hash_update(h, buf, want);
		off += want;
		size -= want;
	}
	hash_final(h, out);
	return 0;
}
