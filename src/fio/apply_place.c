/* Where a job's threads run and at what priority, onto io_job.place: NUMA nodes' CPUs and
 * memory policy, and fio's process and per-I/O priorities. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "io/engine.h"
#include "io/target.h"
#include "util/error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fio's NUMA options.  fio asks libnuma; here the nodes and their CPU lists come from sysfs
 * (/sys/devices/system/node/nodeN/cpulist) and the memory policy is the engine's own
 * set_mempolicy call. */

#define NODE_BITS (8 * sizeof(unsigned long))

static int node_exists(unsigned node)
{
	char line[4096];
	return target_node_cpulist((int)node, line, sizeof line) == 0;
}

/* A node list as libnuma reads its plain forms: all (the nodes here), or N and LOW-HIGH joined
 * by commas, each node one that exists here.  Into mask, a bit per node; 0 or -1. */
static int parse_nodes(const char *v, unsigned long mask[IO_MAX_NODES / NODE_BITS], char *err, size_t errlen)
{
	char qb[64];
	memset(mask, 0, IO_MAX_NODES / 8);
	if (strcmp(v, "all") == 0) {
		for (unsigned n = 0; n < IO_MAX_NODES; n++)
			if (node_exists(n))
				mask[n / NODE_BITS] |= 1ul << (n % NODE_BITS);
		return 0;
	}
	for (const char *s = v;;) {
		char *e;
		unsigned long lo = strtoul(s, &e, 10), hi = lo;
		if (e == s || !isdigit((unsigned char)*s))
			return nm_errf(err, errlen, "\"%s\": expected node numbers like 0-1,3 or all", fio_q(v, qb, sizeof qb));
		if (*e == '-') {
			const char *h = e + 1;
			hi = strtoul(h, &e, 10);
			if (e == h || !isdigit((unsigned char)*h) || hi < lo)
				return nm_errf(err, errlen, "\"%s\": a node range is LOW-HIGH", fio_q(v, qb, sizeof qb));
		}
		if (*e && *e != ',')
			return nm_errf(err, errlen, "\"%s\": expected node numbers like 0-1,3 or all", fio_q(v, qb, sizeof qb));
		for (unsigned long n = lo; n <= hi; n++) {
			if (n >= IO_MAX_NODES || !node_exists((unsigned)n))
				return nm_errf(err, errlen, "\"%s\": node %lu does not exist here (%s)",
					       fio_q(v, qb, sizeof qb), n, TARGET_NODE_DIR);
			mask[n / NODE_BITS] |= 1ul << (n % NODE_BITS);
		}
		if (!*e)
			return 0;
		s = e + 1;
	}
}

/* numa_cpu_nodes: the nodes' CPUs, every thread on all of them (fio's numa_run_on_node_mask,
 * after any cpus_allowed: fio_job_place). */
FIO_APPLY(numa_cpu_nodes)
{
	char qb[64], cpus[8192] = "", line[4096];
	unsigned long mask[IO_MAX_NODES / NODE_BITS];
	if (fio_need_value(v, err, errlen) < 0 || parse_nodes(v, mask, err, errlen) < 0)
		return -1;
	for (unsigned n = 0; n < IO_MAX_NODES; n++)
		if ((mask[n / NODE_BITS] >> (n % NODE_BITS) & 1) && target_node_cpulist((int)n, line, sizeof line) == 0 &&
		    line[0]) /* a node without CPUs (memory only) adds none */
			snprintf(cpus + strlen(cpus), sizeof cpus - strlen(cpus), "%s%s", cpus[0] ? "," : "", line);
	if (!cpus[0])
		return nm_errf(err, errlen, "\"%s\": those nodes have no CPUs", fio_q(v, qb, sizeof qb));
	j->numa_cpus = fio_job_strdup(j, cpus);
	return 0;
}

/* numa_mem_policy=MODE[:NODES], fio's: default (nothing set), prefer:NODE, bind:NODES,
 * interleave[:NODES] (all nodes without), local.  The modes are in set_mempolicy's order. */
FIO_APPLY(numa_mem_policy)
{
	static const char *const modes[] = { "default", "prefer", "bind", "interleave", "local" };
	enum { DEFAULT, PREFER, BIND, INTERLEAVE, LOCAL, NMODES };
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	const char *colon = strchr(v, ':'), *list = colon ? colon + 1 : NULL;
	size_t len = colon ? (size_t)(colon - v) : strlen(v);
	int m = 0;
	while (m < NMODES && !(strlen(modes[m]) == len && strncmp(v, modes[m], len) == 0))
		m++;
	if (m == NMODES)
		return nm_errf(err, errlen, "\"%s\": expected default, prefer:NODE, bind:NODES, interleave[:NODES] or local",
			       fio_q(v, qb, sizeof qb));
	if ((m == DEFAULT || m == LOCAL) && list)
		return nm_errf(err, errlen, "\"%s\": %s takes no node list", fio_q(v, qb, sizeof qb), modes[m]);
	if (m == BIND && !list)
		return nm_errf(err, errlen, "\"%s\": bind needs a node list (bind:0-1)", fio_q(v, qb, sizeof qb));
	if (m == PREFER && (!list || !*list || strspn(list, "0123456789") != strlen(list)))
		return nm_errf(err, errlen, "\"%s\": prefer takes one node (prefer:0)", fio_q(v, qb, sizeof qb));
	if (m == INTERLEAVE && !list)
		list = "all";
	memset(j->io.place.mem_nodes, 0, sizeof j->io.place.mem_nodes);
	if (list && parse_nodes(list, j->io.place.mem_nodes, err, errlen) < 0)
		return -1;
	j->io.place.mem_policy = m;
	return 0;
}

/* fio's I/O priority options onto the job: prio and prioclass (the threads' own priority),
 * and the io_uring/libaio engine options cmdprio_percentage, cmdprio_class, cmdprio and
 * cmdprio_bssplit (per-I/O priorities, io/prio.c), with fio 3.33's syntax and checks. */

#define IOPRIO_CLASS_RT 1
#define IOPRIO_CLASS_BE 2

static uint16_t ioprio_value(unsigned cls, unsigned level)
{
	return (uint16_t)(cls << 13 | level);
}

static int set_int(const struct fio_job *j, const char *v, uint64_t min, uint64_t max, int *out, char *err, size_t errlen)
{
	uint64_t n;
	if (fio_int(j, v, min, max, &n, err, errlen) < 0)
		return -1;
	*out = (int)n;
	return 0;
}

FIO_APPLY(prio) { return set_int(j, v, 0, 7, &j->prios.level, err, errlen); }
FIO_APPLY(prioclass) { return set_int(j, v, 0, 3, &j->prios.cls, err, errlen); }

/* N or READ,WRITE[,TRIM] (an empty part keeps that direction's value; a trim's priority is
 * kept and changes nothing: trims are done synchronously, as fio's). */
static int per_dir_int(const struct fio_job *j, const char *v, uint64_t min, uint64_t max, int out[DIR_COUNT],
		       char *err, size_t errlen)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (!strchr(v, ','))
		return set_int(j, v, min, max, &out[DIR_READ], err, errlen) < 0
			       ? -1
			       : set_int(j, v, min, max, &out[DIR_WRITE], err, errlen);
	const char *s = v;
	for (int d = 0; d < DIR_COUNT && s; d++) {
		const char *e = strchr(s, ',');
		char *part = xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		int rc = *part ? set_int(j, part, min, max, &out[d], err, errlen) : 0;
		free(part);
		if (rc < 0)
			return -1;
		s = e ? e + 1 : NULL;
	}
	return 0;
}

FIO_APPLY(cmdprio_percentage) { return per_dir_int(j, v, 0, 100, j->prios.pct, err, errlen); }
FIO_APPLY(cmdprio_class) { return per_dir_int(j, v, 1, 3, j->prios.cmd_cls, err, errlen); }
FIO_APPLY(cmdprio) { return per_dir_int(j, v, 0, 7, j->prios.cmd_level, err, errlen); }

/* Checked as it is read; turned into shares once the job's other options are known. */
FIO_APPLY(cmdprio_bssplit)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	free(j->prios.bssplit);
	j->prios.bssplit = xstrdup(v);
	struct io_job probe = j->io;
	return fio_job_cmdprio_split(j, &probe, err, errlen);
}

/* One direction's BS/PCT[/CLASS/LEVEL]:... into shares; a share of 0 % is left out. */
static int split_dir(const struct fio_job *j, struct io_job *io, int d, const char *s, char *err, size_t errlen)
{
	char qb[64];
	unsigned n = 0;
	while (*s) {
		const char *e = strchr(s, ':');
		char *part = xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		char *f[6] = { part }, *p = part;
		int nf = 1;
		while (nf < 6 && (p = strchr(p, '/')))
			*p++ = 0, f[nf++] = p;
		uint64_t bs = 0, pct = 0, cls = 0, level = 0, hint = 0;
		char e1[128];
		/* a fifth field is a CDL hint: read and left out, as fio 3.33 does */
		int bad = (nf != 2 && nf != 4 && nf != 5) ||
			  (nf == 5 && fio_count(f[4], 0, 7, &hint, e1, sizeof e1) < 0) ||
			  fio_size(j, f[0], &bs, e1, sizeof e1) < 0 || !bs || bs > UINT32_MAX ||
			  fio_count(f[1], 0, 100, &pct, e1, sizeof e1) < 0 ||
			  (nf >= 4 && (fio_count(f[2], 0, 3, &cls, e1, sizeof e1) < 0 ||
				       fio_count(f[3], 0, 7, &level, e1, sizeof e1) < 0));
		free(part);
		if (bad)
			return nm_errf(err, errlen, "\"%s\": expected BS/PCT or BS/PCT/CLASS/LEVEL[/HINT] entries like 64k/40:1m/60/1/0",
				       fio_q(s, qb, sizeof qb));
		if (nf < 4) {
			cls = j->prios.cmd_cls[d] >= 0 ? (uint64_t)j->prios.cmd_cls[d] : IOPRIO_CLASS_RT;
			level = j->prios.cmd_level[d] >= 0 ? (uint64_t)j->prios.cmd_level[d] : 0;
		}
		if (pct) {
			if (n == IO_MAX_BSSPLIT)
				return nm_errf(err, errlen, "at most %d entries per direction", IO_MAX_BSSPLIT);
			io->place.cmdprio[d][n++] = (struct io_prio_share){ (uint32_t)bs, (unsigned char)pct,
								      ioprio_value((unsigned)cls, (unsigned)level) };
		}
		if (!e)
			break;
		s = e + 1;
	}
	io->place.ncmdprio[d] = n;
	for (unsigned a = 0; a < n; a++) { /* fio: a block size's shares add up to at most 100 % */
		unsigned tot = 0;
		for (unsigned b = 0; b < n; b++)
			tot += io->place.cmdprio[d][b].bs == io->place.cmdprio[d][a].bs ? io->place.cmdprio[d][b].pct : 0;
		if (tot > 100)
			return nm_errf(err, errlen, "the shares of %u bytes add up to more than 100%%", io->place.cmdprio[d][a].bs);
	}
	return 0;
}

int fio_job_cmdprio_split(const struct fio_job *j, struct io_job *io, char *err, size_t errlen)
{
	const char *v = j->prios.bssplit;
	io->place.ncmdprio[DIR_READ] = io->place.ncmdprio[DIR_WRITE] = 0;
	if (!v)
		return 0;
	if (!strchr(v, ','))
		return split_dir(j, io, DIR_READ, v, err, errlen) < 0 ? -1 : split_dir(j, io, DIR_WRITE, v, err, errlen);
	for (int d = 0; d < DIR_COUNT && v; d++) {
		const char *e = strchr(v, ',');
		char *part = xstrndup(v, e ? (size_t)(e - v) : strlen(v));
		int rc = split_dir(j, io, d, part, err, errlen);
		free(part);
		if (rc < 0)
			return -1;
		v = e ? e + 1 : NULL;
	}
	return 0;
}

int fio_job_place(struct fio_job *j, char *err, size_t errlen)
{
	const struct fio_prio_opts *o = &j->prios;
	struct io_job *io = &j->io;
	if (j->numa_cpus) { /* fio sets them after cpus_allowed's, on every thread alike */
		io->place.cpus = j->numa_cpus;
		io->place.cpus_shared = 1;
	}
	if (o->cls >= 0 || o->level >= 0) { /* fio's ioprio_set: no class means best effort */
		io->place.ioprio_set = 1;
		io->place.ioprio = ioprio_value(o->cls > 0 ? (unsigned)o->cls : IOPRIO_CLASS_BE,
					  o->level > 0 ? (unsigned)o->level : 0);
	}
	int pct = o->pct[DIR_READ] || o->pct[DIR_WRITE];
	if (!pct && !o->bssplit)
		return 0;
	const char *which = o->bssplit ? "cmdprio_bssplit" : "cmdprio_percentage";
	if (!(io_engine_caps(io->engine) & IO_ENGINE_CMDPRIO))
		return nm_errf(err, errlen, "%s: an option of ioengine=io_uring or libaio (as in fio)", which);
	if (pct && o->bssplit)
		return nm_errf(err, errlen, "cmdprio_percentage and cmdprio_bssplit: use one or the other (as in fio)");
	if (o->bssplit)
		return fio_job_cmdprio_split(j, io, err, errlen);
	for (int d = 0; d < DIR_COUNT; d++) {
		if (!o->pct[d])
			continue;
		unsigned cls = o->cmd_cls[d] >= 0 ? (unsigned)o->cmd_cls[d] : IOPRIO_CLASS_RT;
		unsigned level = o->cmd_level[d] >= 0 ? (unsigned)o->cmd_level[d] : 0;
		io->place.cmdprio[d][0] = (struct io_prio_share){ 0, (unsigned char)o->pct[d], ioprio_value(cls, level) };
		io->place.ncmdprio[d] = 1;
	}
	return 0;
}
