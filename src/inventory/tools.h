/* The few facts that only a tool can tell (ZFS properties, the dm table), read by running it.
 * Under a sysroot the tool is the fixture's own <root>/usr/sbin/<name> (a script that prints
 * what the real one would), never the machine's; without one, by $PATH. */
#ifndef NM_INVENTORY_TOOLS_H
#define NM_INVENTORY_TOOLS_H

#include <stddef.h>

/* Runs argv[0] with argv, stdin and stderr on /dev/null, and keeps up to len-1 bytes of its
 * standard output in out (NUL-terminated).  At most 5 s: a hung tool is killed.  0 when it ran
 * and exited 0, else -1 (not installed, failed, timed out). */
int tool_run(const char *root, char *const argv[], char *out, size_t len);

/* 1 when the facts behind the tools can be read here: a sysroot (its fake tools), or root. */
int tool_is_root(const char *root);

#endif
