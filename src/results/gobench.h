/* The Go benchmark format (benchstat's input) read into a record.
 *
 *   goos: linux                                          a configuration line "key: value"
 *   BenchmarkEncode/format=json-48   690848   1726 ns/op   56 MB/s
 *
 * Each benchmark name (without "Benchmark") becomes a bench, each unit a metric (with benchstat's
 * tidying: ns/op -> sec/op, MB/s -> B/s), each line one sample.  Configuration lines become
 * tags (the first value of a key wins).  Other lines (PASS, ok, notes) are ignored.  A
 * benchmark line with an odd number of fields, a bad iteration count or a bad value is an
 * error naming the line. */
#ifndef NM_RESULTS_GOBENCH_H
#define NM_RESULTS_GOBENCH_H

#include <stddef.h>

#include "results/record.h"

/* NULL with a message ("line 12: ..."); a text without benchmark lines is an error too. */
struct record *gobench_parse(const char *text, size_t len, char *err, size_t errlen);


#endif
