#include "util/fdio.h"

#include <errno.h>
#include <unistd.h>

ssize_t fd_read_upto(int fd, void *buf, size_t n)
{
	size_t len = 0;
	while (len < n) {
		ssize_t k = read(fd, (char *)buf + len, n - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		len += (size_t)k;
	}
	return (ssize_t)len;
}
