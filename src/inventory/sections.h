/* The sections of the inventory; each returns a JSON object with a "source" naming where
 * its facts came from.  root is a sysfs_root() ("" for the real machine). */
#ifndef NM_INVENTORY_SECTIONS_H
#define NM_INVENTORY_SECTIONS_H

#include <jansson.h>

json_t *cpu_collect(const char *root);
json_t *memory_collect(const char *root);
json_t *os_collect(const char *root, int hypervisor_flag);

/* The hw.sh-like overview (VENDOR, MEMORY, CPUs, DISKS tree) at the head of inventory_text. */
struct strbuf;
void overview_text(struct strbuf *sb, const json_t *inv);

#endif
