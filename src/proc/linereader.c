#include "proc/linereader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (256u << 10)

void lr_init(struct line_reader *lr, int fd, int tee_fd)
{
	memset(lr, 0, sizeof *lr);
	lr->fd = fd;
	lr->tee_fd = tee_fd;
	lr->cap = LINE_MAX_LEN + CHUNK;
	lr->buf = malloc(lr->cap);
	if (!lr->buf)
		abort();
}

void lr_free(struct line_reader *lr)
{
	free(lr->buf);
	lr->buf = NULL;
}

static void tee(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* a closed terminal must not stop the tracking */
		p += w;
		n -= (size_t)w;
	}
}

int lr_next(struct line_reader *lr, const char **line, size_t *len)
{
	for (;;) {
		char *s = lr->buf + lr->start;
		size_t have = lr->end - lr->start;
		char *nl = have ? memchr(s, '\n', have) : NULL;
		if (nl && (size_t)(nl - s) <= LINE_MAX_LEN) {
			*line = s;
			*len = (size_t)(nl - s);
			lr->start += *len + 1;
			return 1;
		}
		if (have >= LINE_MAX_LEN || (lr->eof && have && !lr->follow)) {
			/* A very long line comes in pieces; the last line may lack its newline. */
			*line = s;
			*len = have > LINE_MAX_LEN ? LINE_MAX_LEN : have;
			lr->start += *len;
			return 1;
		}
		if (lr->eof) {
			lr->eof = 0; /* a later call tries again: the file may grow */
			return 0;
		}
		if (lr->start > 0) {
			memmove(lr->buf, s, have);
			lr->start = 0;
			lr->end = have;
		}
		ssize_t n = read(lr->fd, lr->buf + lr->end, lr->cap - lr->end);
		if (n < 0)
			return -1;
		if (n == 0) {
			lr->eof = 1;
			continue;
		}
		if (lr->tee_fd >= 0)
			tee(lr->tee_fd, lr->buf + lr->end, (size_t)n);
		lr->end += (size_t)n;
	}
}
