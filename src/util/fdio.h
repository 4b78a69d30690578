/* Whole reads from a file descriptor, past short reads and EINTR. */
#ifndef NM_UTIL_FDIO_H
#define NM_UTIL_FDIO_H

#include <stddef.h>
#include <sys/types.h>

/* Reads up to n bytes into buf: fewer only at the file's end (a file that shrank gives what
 * is there).  Returns the bytes read, or -1 with errno set. */
ssize_t fd_read_upto(int fd, void *buf, size_t n);

#endif
