/* The private directory a command writes in, and the free-space rule.
 *
 * nodemark writes only inside "<parent>/.nodemark-<id>" directories it creates itself (mode 0700,
 * O_EXCL semantics through mkdir), registered with cleanup so they go away on exit and signals. */
#ifndef NM_UTIL_WORKDIR_H
#define NM_UTIL_WORKDIR_H

#include <stddef.h>
#include <stdint.h>

/* Create it; out receives the path. Returns 0, or -1 with a message naming parent. The new
 * directory is locked (flock) for the life of the process and holds an OWNER record (pid,
 * host, command, start); work directories in parent that no process holds any more (a run
 * killed with SIGKILL) are reported, each in one warning line with how to remove it, and
 * left alone. */
int workdir_create(const char *parent, char *out, size_t outlen, char *err, size_t errlen);

/* A work directory kept on purpose (pieces --keep): not removed at exit, not reported. */
void workdir_keep(const char *dir);

/* The space that must stay free on a filesystem of total_bytes: 5% of it, at most 1 GiB. */
uint64_t space_reserve(uint64_t total_bytes);

/* Refuse (-1 and a message saying how much is needed and free) when writing need bytes
 * under dir would leave less than space_reserve() free. */
int space_check(const char *dir, uint64_t need, char *err, size_t errlen);

/* nodemark's mark on a file it created outside its private directories (fio's kept files, unlink=0):
 * the user extended attribute user.nodemark. A later run may rewrite a marked file, and only a
 * marked one, without --allow-write: the mark goes with the file (rename, cp -a) and goes away
 * when the file is removed, so a file the user makes at the same path later is never taken for
 * nodemark's, and no user sets it by accident. Where the filesystem has no user attributes
 * (tmpfs before Linux 6.6, some network filesystems) the file stays unmarked, so protected. */
#define NM_FILE_MARK "user.nodemark"
/* Mark the open file fd. 0, or -1 (errno) when the filesystem refuses: the file then stays unmarked. */
int file_mark(int fd);
/* 1: path is a regular file that carries the mark; 0 otherwise (no mark, no attributes, missing). */
int file_marked(const char *path);

/* A random 64-bit value from getrandom(), for ids and names. */
uint64_t random_u64(void);

#endif
