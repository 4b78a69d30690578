/* Formatting numbers for people: sizes, rates, durations. Each writes into buf and returns it. */
#ifndef NM_UTIL_UNITS_H
#define NM_UTIL_UNITS_H

#include <stddef.h>
#include <stdint.h>

const char *units_bytes_iec(uint64_t bytes, char *buf, size_t len);   /* "1.50 GiB", "512 B" */
const char *units_bytes_si(double bytes, char *buf, size_t len);      /* "1.61 GB" */
/* A size exactly, in the largest binary unit that divides it, with sep between number and
 * unit: "1GiB" (sep "", as one types it), "2 MiB", "4 KiB", "1000 B" (sep " "). */
const char *units_bytes_exact(uint64_t bytes, const char *sep, char *buf, size_t len);
const char *units_rate_si(double bytes_per_sec, char *buf, size_t len); /* "123.4 MB/s" */
const char *units_duration(uint64_t ns, char *buf, size_t len);       /* "850ns" "12.3µs" "1.25s" "36m22s" "8h03m12s" */
const char *units_count(double n, char *buf, size_t len);             /* "1.23M", "950k", "12" */

/* A measured figure of nodemark's own with its unit, by the one policy every output follows
 * (terminal, compare, report, Markdown; docs/report.md "Units"): throughput in decimal
 * "15.8 GB/s", sizes "1.61 GB", latencies and times "850 ns" "7.52 ms" "1.25 s" (and "5m46s"
 * past a minute), rates as plain counts with what is counted ("12345 pieces/s", "3080 /s"),
 * other units after a 4-digit value ("0.697 cycles/B"). The metric's name says what an "op/s"
 * counts (pieces_per_sec: pieces/s, iops: IOPS). */
const char *units_figure(double v, const char *metric, const char *unit, char *buf, size_t len);
/* The unit a figure of units_figure shows ("MB/s" of "22.2 MB/s", "µs" of "184 µs"), for the
 * header over it; NULL when it carries none apart ("1h07m13s", "-"). */
const char *units_shown(const char *figure);
/* A time in ns with its unit and a space: "850 ns", "12.3 µs", "7.52 ms", "1.25 s", "5m46s". */
const char *units_latency(double ns, char *buf, size_t len);

/* A ratio as the comparisons show it: "0.97x", "44.99x"; "1350x" from 100 up (the digits past
 * three say nothing a reader uses); "-" when it is not a number. */
const char *units_ratio(double ratio, char *buf, size_t len);

/* The one naming of a metric wherever its figures are shown (compare's tables, the report's
 * charts, the calls, run's and disk's tables): what it measures in words, "bandwidth"
 * (bytes_per_sec), "read mean completion latency" (read_clat_mean_ns), "IOPS"; another
 * metric's name in words without its unit's suffix ("major faults"). */
const char *units_metric_words(const char *metric, char *buf, size_t len);
/* Its header: the words and the units its figures show, "bandwidth (GB/s)", "mean latency
 * (µs, ms)", "IOPS" (units NULL or "", or what the words end in: "IOPS", "CPU %"). */
const char *units_header(const char *metric, const char *units, char *buf, size_t len);
/* Adds the unit figure shows (units_shown) to the ", "-separated list in buf when it is not
 * there yet: the units of a header, gathered from the figures under it. */
void units_shown_add(char *buf, size_t len, const char *figure);

#endif
