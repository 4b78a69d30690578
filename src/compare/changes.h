/* "What changed" between two saved runs, a part of the comparison model (compare/model.h):
 * first the benchmarks' own settings that differ (a fio job option, a global one, disk's block
 * size, pieces' sync), then the nodemark version and the CPUs the run was allowed, then the machine (inventory/diff.h).  One
 * entry per fact: a setting that changed alike in every benchmark that has it is one entry,
 * not one per benchmark.  For compare, report, run and `info --diff`; export/changes.h renders
 * it. */
#ifndef NM_COMPARE_CHANGES_H
#define NM_COMPARE_CHANGES_H

#include "results/record.h"

#include <jansson.h>

/* [{"key", "what", "a", "b"}, ...] in that order: settings ("settings.bs", the same change in
 * every benchmark with the key; "settings[BENCH].job_options.bs", one benchmark's, or
 * "settings[3].bs" by its place in a when another bench of a has its name), then
 * "nodemark.version", "cpus_allowed" ("0-1" -> "0": taskset, a cpuset), then inventory facts
 * ("os.kernel"; a fact under a top-level inventory member named settings, nodemark,
 * cpus_allowed or inventory is keyed under "inventory.", "inventory.settings.bs", so no two
 * entries share a key).  Keys are written as util/keypath.h has them ("settings.\"a.b\"": a
 * setting named a.b).  "what" is the line's name: "bs", "[global] direct" (a fio global option),
 * "randw: bs" (one job's; "x #2: bs" for the second of two jobs named x).  A setting whose numbers carry a unit (a size, runtime_ns) also has
 * "unit" ("B", "ns", "s", "B/s": a and b stay raw numbers in it) and "name", the line's name
 * without the unit's suffix ("runtime"), for lines that show the unit with the value.  Pure: no
 * I/O, no printing.  Never NULL; empty when nothing differs. */
json_t *record_changes(const struct record *a, const struct record *b);

#endif
