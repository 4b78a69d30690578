/* What changed between two inventories (two saved runs' `nodemark info` objects): kernel and
 * OS, firmware, CPU governor and mitigations, memory speed, mount options, file system and ZFS
 * properties, every other fact too, and nothing that changes by itself from run to run (free
 * space, a resync's progress, the run's directory, where a fact was read from). */
#ifndef NM_INVENTORY_DIFF_H
#define NM_INVENTORY_DIFF_H

#include <jansson.h>

/* The facts of an inventory as one flat object, "os.kernel" -> "6.5.0-9-generic",
 * "storage.devices[nvme0n1].firmware" -> "4B2QJXD7" (arrays of named objects keyed by name,
 * others by index, lists of words joined), without the facts that are no settings (see
 * above).  Keys are util/keypath.h's: a name that would read as a path is quoted
 * (disks."sda.1".model, devices["1"]), so a name never reads as a nesting
 * or an index (only two items of one name share theirs).  Never NULL. */
json_t *inventory_flatten(const json_t *inv);

/* The differences between two inventories, in a's order then b's new facts:
 * [{"key": "os.kernel", "what": "kernel", "a": "5.15.0-91-generic", "b": "6.5.0-9-generic"}];
 * a fact one side lacks is null there.  Pure: no I/O.  Never NULL. */
json_t *inventory_diff(const json_t *a, const json_t *b);

/* 1 when the fact at a flattened key, whose last name is leaf, is no setting (changes by
 * itself, or repeats another fact): neither it nor anything under it is compared. */
int inventory_diff_is_noise(const char *key, const char *leaf);

/* A people's name for a flattened key: "os.kernel" -> "kernel",
 * "storage.devices[nvme0n1].firmware" -> "nvme0n1 firmware"; the key itself otherwise. */
void inventory_diff_label(const char *key, char *out, size_t len);

#endif
