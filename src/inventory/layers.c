/* The facts of each stack layer, from sysfs where it has them and from dmsetup where only the
 * dm table has them (root). */
#include "inventory/layers.h"
#include "inventory/sysfs.h"
#include "inventory/tools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int parse_luks_version(const char *uuid)
{
	if (strncmp(uuid, "CRYPT-LUKS", 10) != 0 || uuid[10] < '1' || uuid[10] > '9' || uuid[11] != '-')
		return 0;
	return uuid[10] - '0';
}

/* Copies up to the first lone "-" (a "--" is one "-" of the name); returns where it stopped. */
static const char *lvm_part(const char *s, char *out, size_t len)
{
	size_t n = 0;
	while (*s) {
		if (s[0] == '-' && s[1] == '-') {
			s += 2;
		} else if (s[0] == '-') {
			break;
		} else {
			s++;
		}
		if (n + 1 < len)
			out[n++] = s[-1];
	}
	out[n] = '\0';
	return s;
}

int parse_lvm_name(const char *dm_name, char *vg, size_t vglen, char *lv, size_t lvlen)
{
	if (!vglen || !lvlen)
		return -1;
	const char *s = lvm_part(dm_name, vg, vglen);
	if (*s != '-' || !vg[0])
		return -1;
	s = lvm_part(s + 1, lv, lvlen);
	return lv[0] && !*s ? 0 : -1; /* "vg-lv-cow" (a snapshot's hidden part) is no LV name */
}

int parse_dm_crypt_table(const char *line, char *cipher, size_t len, int *key_bits)
{
	char target[16], c[128], key[1024];
	unsigned long long start, count;
	if (sscanf(line, "%llu %llu %15s %127s %1023s", &start, &count, target, c, key) != 5 ||
	    strcmp(target, "crypt") != 0)
		return -1;
	sysfs_copy(cipher, len, c);
	*key_bits = 0;
	if (key[0] == ':') { /* ":64:logon:cryptsetup:..." a key in the kernel keyring, its bytes */
		long bytes = strtol(key + 1, NULL, 10);
		if (bytes > 0 && bytes <= 1024)
			*key_bits = (int)bytes * 8;
	} else if (key[0] != '-') {
		*key_bits = (int)(strlen(key) * 4); /* hex digits, shown as zeros without --showkeys */
	}
	return 0;
}

const char *md_state(const char *array_state, long long degraded, const char *sync_action)
{
	if (strcmp(array_state, "inactive") == 0 || strcmp(array_state, "clear") == 0)
		return "inactive";
	static const struct { const char *action, *state; } actions[] = {
		{ "resync", "resyncing" }, { "recover", "recovering" }, { "reshape", "reshaping" },
		{ "check", "checking" }, { "repair", "repairing" },
	};
	for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
		if (strcmp(sync_action, actions[i].action) == 0)
			return actions[i].state;
	if (degraded > 0)
		return "degraded";
	if (*array_state)
		return strcmp(array_state, "active") == 0 || strcmp(array_state, "active-idle") == 0 ||
				       strcmp(array_state, "write-pending") == 0
			       ? "clean"
			       : array_state;
	return "";
}

static void crypt_facts(const char *root, const char *dm_name, const char *uuid, json_t *node)
{
	int luks = parse_luks_version(uuid);
	if (luks)
		json_object_set_new(node, "luks_version", json_integer(luks));
	/* The cipher is in the dm table only, which needs root (an ioctl on /dev/mapper/control). */
	char out[4096], cipher[128];
	int bits = 0;
	char *argv[] = { "dmsetup", "table", (char *)dm_name, NULL };
	if (dm_name[0] && dm_name[0] != '-' && tool_is_root(root) && tool_run(root, argv, out, sizeof out) == 0 &&
	    parse_dm_crypt_table(out, cipher, sizeof cipher, &bits) == 0) {
		json_object_set_new(node, "cipher", json_string(cipher));
		if (bits)
			json_object_set_new(node, "key_bits", json_integer(bits));
		json_object_set_new(node, "cipher_source", json_string("dmsetup table"));
	} else {
		json_object_set_new(node, "cipher", json_null());
		/* a fixture without dmsetup's stand-in is a machine seen without root */
		json_object_set_new(node, "cipher_source",
				    json_string(!*root && geteuid() == 0 ? "unreadable: no dmsetup, or it failed"
									  : "needs root (the dm table)"));
	}
}

void layer_dm(const char *root, const char *name, const char *kind, const char *dm_name, const char *uuid,
	      json_t *node)
{
	(void)name;
	if (strcmp(kind, "crypt") == 0) {
		crypt_facts(root, dm_name, uuid, node);
	} else if (strcmp(kind, "lvm") == 0) {
		char vg[128], lv[128];
		if (parse_lvm_name(dm_name, vg, sizeof vg, lv, sizeof lv) == 0) {
			json_object_set_new(node, "vg", json_string(vg));
			json_object_set_new(node, "lv", json_string(lv));
		}
	}
}

void layer_md(const char *root, const char *name, json_t *node)
{
	char buf[256], array_state[64] = "", action[64] = "";
	long long v, degraded = 0;
	if (sysfs_str(root, buf, sizeof buf, "/sys/class/block/%s/md/level", name) == 0 && buf[0])
		json_object_set_new(node, "level", json_string(buf));
	if (sysfs_long(root, &v, "/sys/class/block/%s/md/chunk_size", name) == 0 && v > 0)
		json_object_set_new(node, "chunk", json_integer(v));
	if (sysfs_long(root, &v, "/sys/class/block/%s/md/raid_disks", name) == 0 && v > 0)
		json_object_set_new(node, "raid_disks", json_integer(v));
	sysfs_str(root, array_state, sizeof array_state, "/sys/class/block/%s/md/array_state", name);
	sysfs_str(root, action, sizeof action, "/sys/class/block/%s/md/sync_action", name);
	if (sysfs_long(root, &v, "/sys/class/block/%s/md/degraded", name) == 0 && v >= 0) {
		degraded = v;
		json_object_set_new(node, "degraded", json_integer(v));
	}
	const char *state = md_state(array_state, degraded, action);
	if (*state)
		json_object_set_new(node, "state", json_string(state));
	if (*action && strcmp(action, "idle") != 0 &&
	    sysfs_str(root, buf, sizeof buf, "/sys/class/block/%s/md/sync_completed", name) == 0 && buf[0])
		json_object_set_new(node, "sync_completed", json_string(buf)); /* "sectors done / total" */
}
