/* Formatting numbers for people: sizes, rates, durations. Each writes into buf and returns it. */
#ifndef NM_UTIL_UNITS_H
#define NM_UTIL_UNITS_H

#include <stddef.h>
#include <stdint.h>

const char *units_bytes_iec(uint64_t bytes, char *buf, size_t len);   /* "1.50 GiB", "512 B" */
const char *units_bytes_si(double bytes, char *buf, size_t len);      /* "1.61 GB" */
const char *units_rate_si(double bytes_per_sec, char *buf, size_t len); /* "123.4 MB/s" */
const char *units_duration(uint64_t ns, char *buf, size_t len);       /* "850ns" "12.3µs" "1.25s" "36m22s" "8h03m12s" */
const char *units_count(double n, char *buf, size_t len);             /* "1.23M", "950k", "12" */

#endif
