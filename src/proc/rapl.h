/* CPU package energy from Intel/AMD RAPL (powercap), when this user may read it.
 * Since 2020 kernels make energy_uj readable by root only (a side channel), so most runs
 * say "not readable" rather than fail. */
#ifndef NM_RUN_RAPL_H
#define NM_RUN_RAPL_H

#include <stddef.h>

struct rapl;

/* NULL when no package counter is readable; why (for the user) goes to why. */
struct rapl *rapl_open(char *why, size_t whylen);
void rapl_close(struct rapl *r);

/* Joules used by all packages since an arbitrary origin (counter wraps are handled between
 * two calls of rapl_delta_j). */
double rapl_read_j(struct rapl *r);
double rapl_delta_j(struct rapl *r, double before_j, double after_j);

#endif
