/* The inventory: each section collected by its module, under one sysroot. */
#include "inventory/inventory.h"
#include "inventory/block.h"
#include "inventory/sections.h"
#include "inventory/stack.h"
#include "inventory/sysfs.h"

#include <stdlib.h>

json_t *inventory_collect(const struct inventory_opts *o)
{
	struct inventory_opts none = { 0 };
	if (!o)
		o = &none;
	const char *root = sysfs_root(o->sysroot);
	json_t *inv = json_object();
	char host[256];
	if (root[0])
		json_object_set_new(inv, "sysroot", json_string(root));
	if (sysfs_str(root, host, sizeof host, "/proc/sys/kernel/hostname") == 0 && host[0])
		json_object_set_new(inv, "hostname", json_string(host));

	json_t *cpu = cpu_collect(root);
	int hypervisor = json_is_true(json_object_get(cpu, "hypervisor_flag"));
	json_object_set_new(inv, "cpu", cpu);
	json_object_set_new(inv, "memory", memory_collect(root));
	json_object_set_new(inv, "os", os_collect(root, hypervisor));
	json_object_set_new(inv, "storage", block_collect(root, o->serials));
	json_object_set_new(inv, "path", stack_collect(root, o->path ? o->path : ".", o->serials));

	char *summary = inventory_summary(inv);
	json_object_set_new(inv, "summary", json_string(summary));
	free(summary);
	return inv;
}
