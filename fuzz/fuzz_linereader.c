/* libFuzzer harness: track's and time's line reader (src/proc/linereader.h) on a file holding
 * the input. Besides memory safety: no line holds a '\n', the lines and their separators add up
 * to the input exactly, and the reader ends. */
#include "fuzz_util.h"
#include "proc/linereader.h"

#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-lines", MFD_CLOEXEC);
	FUZZ_ASSERT(fd >= 0);
	FUZZ_ASSERT(size == 0 || write(fd, data, size) == (ssize_t)size);
	lseek(fd, 0, SEEK_SET);
	struct line_reader lr;
	lr_init(&lr, fd, -1);
	const char *line;
	size_t len, total = 0, lines = 0;
	int rc;
	while ((rc = lr_next(&lr, &line, &len)) == 1) {
		FUZZ_ASSERT(memchr(line, '\n', len) == NULL);
		FUZZ_ASSERT(total + len <= size && memcmp(line, data + total, len) == 0);
		total += len;
		if (total < size && data[total] == '\n')
			total++;
		FUZZ_ASSERT(++lines <= size + 1);
	}
	FUZZ_ASSERT(rc == 0);
	FUZZ_ASSERT(total == size);
	lr_free(&lr);
	close(fd);
	return 0;
}
