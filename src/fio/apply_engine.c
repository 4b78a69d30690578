/* fio's engine options (those of cpuio, exec, filestat and net) onto io_job.eng, and the
 * file options those engines' examples use (openfiles, create_on_open). */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <string.h>

/* v among names[] (n of them): its index into *out, or an error listing them. */
static int pick(const char *v, const char *const *names, size_t n, int *out, char *err, size_t errlen)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = (int)i;
			return 0;
		}
	char list[160] = "";
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? (i + 1 == n ? " or " : ", ") : "",
			 names[i]);
	return nm_errf(err, errlen, "\"%s\": expected %s", fio_q(v, qb, sizeof qb), list);
}

static int uint_opt(const char *v, uint64_t min, uint64_t max, unsigned *out, char *err, size_t errlen)
{
	uint64_t n;
	if (fio_count(v, min, max, &n, err, errlen) < 0)
		return -1;
	*out = (unsigned)n;
	return 0;
}

static int bool_opt(const char *v, int *out, char *err, size_t errlen)
{
	return fio_parse_bool(v, out, err, errlen);
}

static int str_opt(struct fio_job *j, const char *v, const char **out, char *err, size_t errlen)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	*out = fio_job_strdup(j, v);
	return 0;
}

/* cpuio. fio caps cpuload at 100; 0 is refused when the job starts (as fio's). */
FIO_APPLY(cpuload) { return uint_opt(v, 0, UINT32_MAX, &j->io.eng.cpuload, err, errlen); }
FIO_APPLY(cpuchunks) { return uint_opt(v, 1, UINT32_MAX, &j->io.eng.cpuchunk_us, err, errlen); }
FIO_APPLY(exit_on_io_done) { return bool_opt(v, &j->io.eng.exit_on_io_done, err, errlen); }

FIO_APPLY(cpumode)
{
	static const char *const modes[] = { "noop", "qsort" };
	return pick(v, modes, 2, &j->io.eng.cpumode_qsort, err, errlen);
}

/* exec */
FIO_APPLY(program) { return str_opt(j, v, &j->io.eng.program, err, errlen); }
FIO_APPLY(arguments) { return str_opt(j, v, &j->io.eng.arguments, err, errlen); }
FIO_APPLY(std_redirect) { return bool_opt(v, &j->io.eng.std_redirect, err, errlen); }

FIO_APPLY(grace_time)
{
	unsigned n;
	if (uint_opt(v, 0, 86400, &n, err, errlen) < 0)
		return -1;
	j->io.eng.grace_time_s = (int)n;
	return 0;
}

/* filestat */
FIO_APPLY(stat_type)
{
	static const char *const types[] = { [STAT_STAT] = "stat", [STAT_LSTAT] = "lstat", [STAT_STATX] = "statx" };
	int t;
	if (pick(v, types, 3, &t, err, errlen) < 0)
		return -1;
	j->io.eng.stat_type = (enum io_stat_type)t;
	return 0;
}

/* net: the port comes from port= alone; with protocol=unix, hostname= is the socket's path. */
FIO_APPLY(hostname) { return str_opt(j, v, &j->io.eng.hostname, err, errlen); }
FIO_APPLY(port) { return uint_opt(v, 1, 65535, &j->io.eng.port, err, errlen); }
FIO_APPLY(listen) { return bool_opt(v, &j->io.eng.listen, err, errlen); }
FIO_APPLY(pingpong) { return bool_opt(v, &j->io.eng.pingpong, err, errlen); }
FIO_APPLY(nodelay) { return bool_opt(v, &j->io.eng.nodelay, err, errlen); }
FIO_APPLY(ttl) { return uint_opt(v, 0, 255, &j->io.eng.ttl, err, errlen); }
FIO_APPLY(interface) { return str_opt(j, v, &j->io.eng.interface, err, errlen); }
FIO_APPLY(window_size) { return uint_opt(v, 0, INT32_MAX, &j->io.eng.window_size, err, errlen); }
FIO_APPLY(mss) { return uint_opt(v, 0, INT32_MAX, &j->io.eng.mss, err, errlen); }

FIO_APPLY(protocol)
{
	static const char *const protos[] = { [NET_TCP] = "tcp", [NET_UDP] = "udp", [NET_UNIX] = "unix",
					      [NET_TCPV6] = "tcpv6", [NET_UDPV6] = "udpv6" };
	int p;
	if (pick(v, protos, 5, &p, err, errlen) < 0)
		return -1;
	j->io.eng.proto = (enum io_net_proto)p;
	return 0;
}

/* openfiles: how many files a thread keeps open at once. The file-operation engines open
 * one at a time anyway, and the others keep all of a thread's files open (fio's default). */
FIO_APPLY(openfiles)
{
	unsigned n;
	return uint_opt(v, 1, UINT32_MAX, &n, err, errlen);
}

/* create_on_open: fio creates a file when it opens it for I/O rather than at layout; for
 * filecreate that is what it does anyway, and other jobs' files are laid out first as fio
 * lays out files it would otherwise create empty. */
FIO_APPLY(create_on_open)
{
	int b;
	return bool_opt(v, &b, err, errlen);
}
