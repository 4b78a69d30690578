/* fio's log options onto the job (see fio/logs.h): write_*_log, log_avg_msec, log_max_value,
 * per_job_logs, log_hist_msec, log_hist_coarseness, log_offset, log_prio, log_unix_epoch, and
 * log_compression's three, checked only. */
#include "fio/logs.h"
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int set_prefix(struct fio_job *j, enum fio_log_kind k, const char *v)
{
	free(j->logs.prefix[k]);
	j->logs.prefix[k] = xstrdup(v ? v : ""); /* bare or empty: the job's name, as fio's */
	return 0;
}

FIO_APPLY(write_lat_log) { (void)err, (void)errlen; return set_prefix(j, FIO_LOG_LAT, v); }
FIO_APPLY(write_bw_log) { (void)err, (void)errlen; return set_prefix(j, FIO_LOG_BW, v); }
FIO_APPLY(write_iops_log) { (void)err, (void)errlen; return set_prefix(j, FIO_LOG_IOPS, v); }
FIO_APPLY(write_hist_log) { (void)err, (void)errlen; return set_prefix(j, FIO_LOG_HIST, v); }

static int set_msec(const struct fio_job *j, const char *v, unsigned *out, char *err, size_t errlen)
{
	uint64_t n;
	if (fio_int(j, v, 0, 86400000, &n, err, errlen) < 0)
		return -1;
	*out = (unsigned)n;
	return 0;
}

FIO_APPLY(log_avg_msec) { return set_msec(j, v, &j->logs.avg_msec, err, errlen); }
FIO_APPLY(log_hist_msec) { return set_msec(j, v, &j->logs.hist_msec, err, errlen); }

FIO_APPLY(log_hist_coarseness)
{
	uint64_t n;
	if (fio_int(j, v, 0, 6, &n, err, errlen) < 0)
		return -1;
	j->logs.hist_coarseness = (unsigned)n;
	return 0;
}

#define LOG_BOOL(name, field)                                                  \
	FIO_APPLY(name)                                                        \
	{                                                                      \
		int b;                                                         \
		if (fio_parse_bool(v, &b, err, errlen) < 0)                    \
			return -1;                                             \
		j->logs.field = b;                                             \
		return 0;                                                      \
	}

LOG_BOOL(log_max_value, max_value)
LOG_BOOL(per_job_logs, per_job)
LOG_BOOL(log_offset, offset)
LOG_BOOL(log_prio, prio)
LOG_BOOL(log_unix_epoch, unix_epoch)

/* fio compresses a log's records in memory and writes the same text: the value is checked to
 * fio's range and nothing else changes (nodemark's records past 3 MiB go to a file instead). */
FIO_APPLY(log_compression)
{
	uint64_t n;
	return fio_int(j, v, 1024, 512ull << 20, &n, err, errlen) < 0 ? -1 : 0;
}

FIO_APPLY(log_compression_cpus) { return fio_cpu_list_chars(v, err, errlen); }

/* 1 writes zlib streams (.fz): zlib is not among nodemark's libraries (DESIGN's list), and one
 * option is no reason to link it; the text logs are what fio's tools read anyway. */
FIO_APPLY(log_store_compressed)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	if (b)
		return nm_errf(err, errlen, "1: compressed .fz logs are not written (nodemark links no zlib); "
					    "the logs are written as text, as with 0");
	return 0;
}

void fio_job_logs(struct fio_job *j)
{
	const struct fio_log_opts *o = &j->logs;
	struct io_log_spec *s = &j->io.report.log;
	int found;
	memset(s, 0, sizeof *s);
	s->ios = o->prefix[FIO_LOG_LAT] || o->prefix[FIO_LOG_BW] || o->prefix[FIO_LOG_IOPS];
	s->window_ns = s->ios ? o->avg_msec * 1000000ull : 0;
	s->hist_ns = o->prefix[FIO_LOG_HIST] ? o->hist_msec * 1000000ull : 0; /* 0: fio's file stays empty */
	if (o->prefix[FIO_LOG_BW] && o->avg_msec && (fio_job_opt(j, "bwavgtime", &found), !found)) {
		if (!j->io.report.iops_sample_ns) /* iops keeps its own interval (it follows bw's when 0) */
			j->io.report.iops_sample_ns = j->io.report.sample_ns ? j->io.report.sample_ns : 500000000ull;
		j->io.report.sample_ns = o->avg_msec * 1000000ull;
	}
	if (o->prefix[FIO_LOG_IOPS] && o->avg_msec && (fio_job_opt(j, "iopsavgtime", &found), !found))
		j->io.report.iops_sample_ns = o->avg_msec * 1000000ull;
}
