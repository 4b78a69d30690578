/* Files written for the user (JSON, reports, exports): written to a temp file beside the
 * target, synced, then renamed over it, so a crash never leaves half a file.
 * The path "-" means standard output (written directly), and so is an existing character
 * device or FIFO (/dev/null, a named pipe): renaming over those would replace them. */
#ifndef NM_UTIL_ATOMICFILE_H
#define NM_UTIL_ATOMICFILE_H

#include <stdio.h>
#include <stddef.h>

/* Once open, an atomic_file stays where it is until commit or abort: fp writes through it. */
struct atomic_file {
	FILE *fp;
	char path[4096];
	char tmp[4096];
	int is_stdout;
	int is_direct; /* a character device or FIFO, written in place */
	int fd;
	int write_errno; /* the first failed write's errno: ENOSPC is named, not "I/O error" */
};

/* Can `path` be written later? Checked while parsing options, so that an output file in a
 * missing or read-only directory is refused before minutes of measuring, not after:
 * the directory exists, is a directory and is writable; the path is not a directory or a
 * block device. "-" always passes. Returns 0, or -1 with a message that starts with the
 * quoted path (callers put the option's name in front). */
int afile_check(const char *path, char *err, size_t errlen);

/* Returns af->fp, or NULL with a message naming the file. A FIFO that no one reads is refused
 * (opened without blocking), not waited on forever. */
FILE *afile_open(struct atomic_file *af, const char *path, char *err, size_t errlen);
/* As afile_open, but the new file starts with what `path` holds (an existing regular file's
 * bytes copied first), so the commit appends atomically: the old content is never truncated,
 * and a failure leaves it as it was. A symbolic link at `path` is refused (never followed);
 * a character device or FIFO is written in place, as by afile_open. */
FILE *afile_open_append(struct atomic_file *af, const char *path, char *err, size_t errlen);
/* Flush, fsync, rename into place, fsync the directory. Returns 0 or -1 with a message. */
int afile_commit(struct atomic_file *af, char *err, size_t errlen);
/* Throw the temp file away. */
void afile_abort(struct atomic_file *af);

/* Convenience: write a whole buffer atomically. */
int afile_write_all(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif
