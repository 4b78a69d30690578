/* numa_cpu_nodes: a job's threads on the CPUs of NUMA nodes.  fio asks libnuma; here the nodes'
 * CPU lists come from sysfs (/sys/devices/system/node/nodeN/cpulist) and become the job's CPU
 * set, as cpus_allowed's (the engine pins each thread to it). */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "io/target.h"
#include "util/error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODE 1023

/* Append node's CPU list to out (comma-separated).  0, or -1 when the node does not exist. */
static int add_node_cpus(unsigned node, char *out, size_t len)
{
	char line[4096];
	if (target_node_cpulist((int)node, line, sizeof line) < 0)
		return -1;
	if (line[0]) /* a node without CPUs (memory only) adds none */
		snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? "," : "", line);
	return 0;
}

FIO_APPLY(numa_cpu_nodes)
{
	char qb[64], cpus[8192] = "";
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (strcmp(v, "all") == 0) {
		for (unsigned n = 0; n <= MAX_NODE; n++)
			add_node_cpus(n, cpus, sizeof cpus);
	} else {
		for (const char *c = v; *c; c++)
			if (!isdigit((unsigned char)*c) && *c != ',' && *c != '-')
				return nm_errf(err, errlen, "\"%s\": expected node numbers like 0-1,3 or all",
					       fio_q(v, qb, sizeof qb));
		for (const char *s = v; *s;) {
			char *e;
			unsigned long lo = strtoul(s, &e, 10), hi = lo;
			if (e == s)
				return nm_errf(err, errlen, "\"%s\": expected node numbers like 0-1,3 or all",
					       fio_q(v, qb, sizeof qb));
			if (*e == '-') {
				const char *h = e + 1;
				hi = strtoul(h, &e, 10);
				if (e == h || hi < lo)
					return nm_errf(err, errlen, "\"%s\": a node range is LOW-HIGH", fio_q(v, qb, sizeof qb));
			}
			if (*e && *e != ',')
				return nm_errf(err, errlen, "\"%s\": expected node numbers like 0-1,3 or all",
					       fio_q(v, qb, sizeof qb));
			for (unsigned long n = lo; n <= hi; n++)
				if (n > MAX_NODE || add_node_cpus((unsigned)n, cpus, sizeof cpus) < 0)
					return nm_errf(err, errlen, "\"%s\": node %lu does not exist here (%s)",
						       fio_q(v, qb, sizeof qb), n, TARGET_NODE_DIR);
			s = *e ? e + 1 : e;
		}
	}
	if (!cpus[0])
		return nm_errf(err, errlen, "\"%s\": those nodes have no CPUs", fio_q(v, qb, sizeof qb));
	j->io.place.cpus = fio_job_strdup(j, cpus);
	return 0;
}
