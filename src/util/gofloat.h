/* Floating-point numbers written as Go's fmt writes them with %v (benchstat's CSV cells and
 * warnings): the shortest digits that read back as the same double, in exponent form when the
 * decimal exponent is below -4 or 6 and more, as strconv's 'g' with the shortest precision
 * does ("1e+06", "2.253e-06", "0.95", "100"). */
#ifndef NM_UTIL_GOFLOAT_H
#define NM_UTIL_GOFLOAT_H

#include <stddef.h>

const char *go_float(double v, char *buf, size_t len);

#endif
