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

/* A random 64-bit value from getrandom(), for ids and names. */
uint64_t random_u64(void);

#endif
