/* Reading a child's output or a log file line by line, fast: one large buffer, read(2) in big
 * chunks, memchr for the newlines, lines handed out in place (no copy).  Optionally every chunk
 * read is also written to another descriptor (track --tee) as it arrives. */
#ifndef NM_RUN_LINEREADER_H
#define NM_RUN_LINEREADER_H

#include <stddef.h>

#define LINE_MAX_LEN (1u << 20) /* a longer line is cut into pieces of this size */

struct line_reader {
	int fd;
	int tee_fd;             /* -1: none */
	char *buf;
	size_t cap, start, end;
	int eof;
	int follow;             /* keep a last line without '\n' until it is complete */
};

void lr_init(struct line_reader *lr, int fd, int tee_fd);
void lr_free(struct line_reader *lr);

/* The next line, without its '\n' (valid until the next call). Returns 1 with a line; 0 at end
 * of input (a last line without '\n' is returned first); -1 on a read error (errno set; EINTR
 * when a signal interrupted the read: call again).  After 0, a later call reads again (a
 * followed log that grew). */
int lr_next(struct line_reader *lr, const char **line, size_t *len);

#endif
