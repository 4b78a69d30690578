/* A record as JSON: the export/import format (docs/schema.md), one object per run.
 *
 *   { "format": "nodemark-record", "format_version": 1, "id", "time_ms", "time", "host",
 *     "version", "command", "cmdline", "label", "tags": {k: v}, "inventory", "extra",
 *     "benches": [ { "name", "settings", "metrics": [ { "name", "unit", "direction",
 *     "samples": [..] } ], "series": [ { "name", "x_unit", "y_unit", "x": [..], "y": [..] } ],
 *     "hists": [ { "name", "value_ns": [..], "count": [..] } ] } ] }
 *
 * The reader is strict: anything missing, mistyped or inconsistent is refused with a message
 * that names the field, so a bad file never turns into a half-right run. */
#ifndef NM_RESULTS_RECORD_JSON_H
#define NM_RESULTS_RECORD_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "results/record.h"

#define RECORD_FORMAT "nodemark-record"
#define RECORD_FORMAT_VERSION 1

/* A new reference. Non-finite samples are written as null. */
json_t *record_to_json(const struct record *r);

/* NULL with a message ("benches[2].metrics[0].samples[3]: expected a number"). */
struct record *record_from_json(const json_t *j, char *err, size_t errlen);

/* Parse text holding one record, an array of records, or several records one after another
 * (as `export` writes them).  Returns the count (>= 0) and a malloc'd array in *out, or -1
 * with a message (and nothing in *out). */
long records_parse(const char *text, size_t len, struct record ***out, char *err, size_t errlen);
void records_free(struct record **v, size_t n);

/* A run id is 1 to 23 lower-case hex digits. */
int record_id_valid(const char *id);

#endif
