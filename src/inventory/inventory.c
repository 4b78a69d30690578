/* Placeholder until the inventory lands (issue: foundation, nodemark info). */
#include "inventory/inventory.h"

#include <string.h>
#include <unistd.h>

json_t *inventory_collect(const struct inventory_opts *o)
{
	char host[256] = "unknown";
	(void)o;
	gethostname(host, sizeof host - 1);
	return json_pack("{s:s}", "hostname", host);
}

char *inventory_summary(const json_t *inv)
{
	(void)inv;
	return strdup("unknown machine");
}
