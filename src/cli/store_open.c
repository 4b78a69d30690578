#include "cli/store_open.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct store *storecmd_open(const char *db)
{
	char err[512];
	struct store *s = store_open(db, err, sizeof err);
	if (!s)
		nm_error("results store %s", err);
	return s;
}

struct record *storecmd_load(struct store *s, const char *name)
{
	char err[512];
	struct record *r = store_load(s, name, err, sizeof err);
	if (!r)
		nm_error("%s", err);
	return r;
}

static const char *kind_of(mode_t m)
{
	return S_ISFIFO(m) ? "a named pipe" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) || S_ISBLK(m) ? "a device"
	       : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

char *storecmd_read_file(const char *path, size_t *len)
{
	int is_stdin = strcmp(path, "-") == 0;
	/* O_NONBLOCK: a FIFO with no writer must be refused, not waited on */
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		nm_error("%s: %s", path, strerror(errno));
		if (fd >= 0 && !is_stdin)
			close(fd);
		return NULL;
	}
	if (!is_stdin && (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > INPUT_MAX_BYTES)) {
		if (S_ISREG(st.st_mode))
			nm_error("%s: larger than %llu MiB, the most an input file may hold", path, INPUT_MAX_BYTES >> 20);
		else
			nm_error("%s: %s, not a file: inputs are read whole", path, kind_of(st.st_mode));
		close(fd);
		return NULL;
	}
	if (!is_stdin)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	struct strbuf sb;
	char buf[65536];
	ssize_t n;
	int failed = 0;
	sb_init(&sb);
	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			failed = errno;
			break;
		}
		if (sb.len + (size_t)n > INPUT_MAX_BYTES) { /* standard input, or a file that grew */
			nm_error("%s: more than %llu MiB, the most an input may hold", path, INPUT_MAX_BYTES >> 20);
			failed = -1;
			break;
		}
		sb_add(&sb, buf, (size_t)n);
	}
	if (!is_stdin)
		close(fd);
	if (failed) {
		if (failed > 0)
			nm_error("%s: read error: %s", path, strerror(failed));
		sb_free(&sb);
		return NULL;
	}
	*len = sb.len;
	return sb_detach(&sb);
}
