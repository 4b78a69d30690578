/* ZFS facts from `zfs get`, `zpool get` and `zpool status` (or the fixtures' stand-ins for
 * them), else from /proc/spl. */
#include "inventory/zfs.h"
#include "inventory/sysfs.h"
#include "inventory/tools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZFS_OUT_MAX (64 * 1024)

static const char *const dataset_props = "recordsize,compression,atime,sync,primarycache";

/* "prop\tvalue" lines into o; numbers stay numbers (-p prints bytes). */
static int props_into(const char *text, json_t *o)
{
	int n = 0;
	for (const char *l = text; *l;) {
		size_t len = strcspn(l, "\n");
		char line[512], *tab;
		sysfs_copy(line, len + 1 < sizeof line ? len + 1 : sizeof line, l);
		if ((tab = strchr(line, '\t'))) {
			*tab = '\0';
			char *end, *v = tab + 1;
			sysfs_clean(v);
			long long num = strtoll(v, &end, 10);
			if (*v && !*end && end != v)
				json_object_set_new(o, line, json_integer(num));
			else if (*v && strcmp(v, "-") != 0)
				json_object_set_new(o, line, json_string(v));
			n++;
		}
		l += len + (l[len] == '\n');
	}
	return n;
}

json_t *parse_zpool_status(const char *text)
{
	json_t *vdevs = json_array();
	const char *cfg = strstr(text, "\nconfig:");
	if (!cfg)
		return vdevs;
	const char *cls = "data";
	json_t *group = NULL;
	int seen_pool = 0;
	for (const char *l = strchr(cfg + 1, '\n'); l && *l;) {
		l++;
		size_t len = strcspn(l, "\n");
		char line[512], name[256];
		sysfs_copy(line, len + 1 < sizeof line ? len + 1 : sizeof line, l);
		l += len;
		if (strncmp(line, "errors:", 7) == 0)
			break;
		if (line[0] != '\t' || sscanf(line + 1, "%255s", name) != 1 || strcmp(name, "NAME") == 0)
			continue;
		int indent = (int)strspn(line + 1, " ");
		if (indent == 0) { /* the pool, or a class: logs, cache, spares, special, dedup */
			cls = seen_pool ? (strcmp(name, "logs") == 0 ? "logs" : strcmp(name, "cache") == 0 ? "cache"
					   : strcmp(name, "spares") == 0 ? "spares" : strcmp(name, "special") == 0
					   ? "special" : strcmp(name, "dedup") == 0 ? "dedup" : "other") : "data";
			seen_pool = 1;
			group = NULL;
		} else if (indent == 2) {
			char type[64];
			sysfs_copy(type, sizeof type, name);
			char *dash = strrchr(type, '-');
			int is_group = dash && (strncmp(type, "mirror", 6) == 0 || strncmp(type, "raidz", 5) == 0 ||
						strncmp(type, "draid", 5) == 0 || strncmp(type, "replacing", 9) == 0 ||
						strncmp(type, "spare", 5) == 0);
			if (is_group)
				*dash = '\0';
			char *colon = strchr(type, ':'); /* "draid2:4d:6c:0s-0" */
			if (is_group && colon)
				*colon = '\0';
			json_t *v = json_pack("{s:s,s:s,s:[]}", "type", is_group ? type : "disk", "class", cls, "members");
			if (!is_group)
				json_array_append_new(json_object_get(v, "members"), json_string(name));
			json_array_append_new(vdevs, v);
			group = is_group ? v : NULL;
		} else if (group) {
			json_array_append_new(json_object_get(group, "members"), json_string(name));
		}
		if (json_array_size(vdevs) > 256)
			break;
	}
	return vdevs;
}

void zfs_layout(const json_t *vdevs, char *out, size_t len)
{
	size_t i, data = 0, disks = 0;
	const char *type = NULL;
	int same = 1;
	json_t *v;
	out[0] = '\0';
	json_array_foreach(vdevs, i, v) {
		const char *cls = json_string_value(json_object_get(v, "class"));
		if (!cls || strcmp(cls, "data") != 0)
			continue;
		const char *t = json_string_value(json_object_get(v, "type"));
		if (!t)
			continue;
		if (type && strcmp(type, t) != 0)
			same = 0;
		type = t;
		data++;
		disks += json_array_size(json_object_get(v, "members"));
	}
	if (!data)
		return;
	if (!same)
		snprintf(out, len, "%zu vdevs of mixed types, %zu disks", data, disks);
	else if (strcmp(type, "disk") == 0)
		snprintf(out, len, disks == 1 ? "1 disk" : "%zu disks striped", disks);
	else if (data == 1)
		snprintf(out, len, "%s of %zu", type, disks);
	else
		snprintf(out, len, "%zu x %s of %zu", data, type, disks / data);
}

static void pool_from_tools(const char *root, const char *pool, json_t *o, char *out)
{
	char *get[] = { "zpool", "get", "-Hp", "-o", "property,value", "health,ashift,size,allocated,free",
			(char *)pool, NULL };
	json_t *p = json_object();
	if (tool_run(root, get, out, ZFS_OUT_MAX) == 0 && props_into(out, p) > 0) {
		const char *keys[][2] = { { "health", "pool_health" }, { "size", "pool_size" },
					  { "allocated", "pool_allocated" }, { "free", "pool_free" } };
		for (size_t i = 0; i < 4; i++)
			if (json_object_get(p, keys[i][0]))
				json_object_set(o, keys[i][1], json_object_get(p, keys[i][0]));
		json_int_t ashift = json_integer_value(json_object_get(p, "ashift"));
		/* 0: chosen per vdev when it was added; that value is only in the labels (zdb, root) */
		json_object_set_new(o, "ashift", ashift > 0 ? json_integer(ashift) : json_null());
	}
	json_decref(p);
	char *status[] = { "zpool", "status", "-P", (char *)pool, NULL };
	if (tool_run(root, status, out, ZFS_OUT_MAX) == 0) {
		json_t *vdevs = parse_zpool_status(out);
		char layout[128];
		zfs_layout(vdevs, layout, sizeof layout);
		if (layout[0])
			json_object_set_new(o, "layout", json_string(layout));
		json_object_set_new(o, "vdevs", vdevs);
	}
}

json_t *zfs_collect(const char *root, const char *dataset)
{
	json_t *o = json_object();
	char pool[256];
	sysfs_copy(pool, sizeof pool, dataset);
	pool[strcspn(pool, "/@")] = '\0';
	json_object_set_new(o, "dataset", json_string(dataset));
	json_object_set_new(o, "pool", json_string(pool));
	if (dataset[0] == '-' || !pool[0])
		return o;
	char *out = malloc(ZFS_OUT_MAX);
	if (!out)
		return o;
	char *get[] = { "zfs", "get", "-Hp", "-o", "property,value", (char *)dataset_props, (char *)dataset, NULL };
	if (tool_run(root, get, out, ZFS_OUT_MAX) == 0 && props_into(out, o) > 0) {
		json_object_set_new(o, "properties_source", json_string("zfs get"));
		pool_from_tools(root, pool, o, out);
		json_object_set_new(o, "source", json_string("zfs get, zpool get, zpool status -P"));
	} else {
		json_object_set_new(o, "properties_source",
				    json_string("unreadable: not in /proc or /sys, and no zfs tool"));
		char state[64];
		if (sysfs_str(root, state, sizeof state, "/proc/spl/kstat/zfs/%s/state", pool) == 0 && state[0])
			json_object_set_new(o, "pool_health", json_string(state));
		json_object_set_new(o, "source", json_string("/proc/spl/kstat/zfs"));
	}
	free(out);
	return o;
}
