/* Filling buffers with incompressible bytes fast (xorshift64*, not for secrets): benchmark data
 * that no filesystem, SSD or hash can shortcut. */
#ifndef NM_UTIL_RANDFILL_H
#define NM_UTIL_RANDFILL_H

#include <stddef.h>
#include <stdint.h>

void rand_fill(void *buf, size_t len, uint64_t seed);

#endif
