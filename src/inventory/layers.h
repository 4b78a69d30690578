/* What each layer of a storage stack adds to its node in path.stack: dm-crypt (LUKS version,
 * cipher and key size), LVM (VG and LV), md (level, chunk, members, state), and the disk's own
 * facts at the leaves. */
#ifndef NM_INVENTORY_LAYERS_H
#define NM_INVENTORY_LAYERS_H

#include <jansson.h>

/* A device-mapper node of kind "crypt", "lvm", ...; dm_name and uuid as in sysfs (uuid "" when
 * unknown). */
void layer_dm(const char *root, const char *name, const char *kind, const char *dm_name, const char *uuid,
	      json_t *node);

/* An md array: level, chunk, raid_disks, state ("clean", "degraded", "resyncing", ...). */
void layer_md(const char *root, const char *name, json_t *node);

/* --- the parsers behind them (tested without a machine) ------------------------------- */

/* "CRYPT-LUKS2-<uuid>-<name>" -> 2, "CRYPT-LUKS1-..." -> 1; 0 for plain dm-crypt or unknown. */
int parse_luks_version(const char *dm_uuid);

/* LVM's dm name "vg--data-lv--root" -> VG "vg-data", LV "lv-root" (a "-" inside a name is
 * doubled); 0 or -1. */
int parse_lvm_name(const char *dm_name, char *vg, size_t vglen, char *lv, size_t lvlen);

/* One line of `dmsetup table` for a crypt target ("0 N crypt aes-xts-plain64 <key> ...") ->
 * the cipher and the key size in bits (a hidden key "000..." or a keyring reference ":64:logon:..."
 * still tells its length); 0 or -1. */
int parse_dm_crypt_table(const char *line, char *cipher, size_t len, int *key_bits);

/* md's state from array_state, degraded and sync_action: "clean", "active", "degraded",
 * "resyncing", "recovering", "reshaping", "checking", "inactive", ... */
const char *md_state(const char *array_state, long long degraded, const char *sync_action);

#endif
