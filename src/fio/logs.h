/* fio's log files -- write_lat_log, write_bw_log, write_iops_log, write_hist_log -- in fio 3.33's
 * names and formats, from what the engine's threads recorded (io/iolog.h), so that fio's own
 * tools (fiologparser.py, fiologparser_hist.py, fio_generate_plots, fio2gnuplot) read them.
 *
 * Names: PREFIX_TYPE.N.log, N the thread's number in the whole run (1, 2, ... over every job's
 * threads, in job order, as fio's), or PREFIX_TYPE.log with per_job_logs=0 (the threads of the
 * job, and jobs of the same prefix, share it, and it is appended to as fio's: what an earlier
 * run left stays, the file replaced atomically by one holding both). PREFIX is write_*_log's
 * value, or the job's name with every '/' made '_' (a name stays in the current directory);
 * TYPE is lat, slat, clat, bw, iops or clat_hist.
 * Lines: "time (ms), value, direction, bs, [offset,] priority" (hist: "time, direction, bs,
 * bucket counts..."); values in ns (latencies), KiB/s (bw), I/Os per s (iops). */
#ifndef NM_FIO_LOGS_H
#define NM_FIO_LOGS_H

#include <stddef.h>
#include "fio/plan.h"

/* Sets j->io.report.log (what the threads record) from j->logs; called when the job is resolved.
 * As fio's, a bw or iops log with log_avg_msec also samples the job's bw or iops statistics
 * every log_avg_msec, unless bwavgtime or iopsavgtime is given. */
void fio_job_logs(struct fio_job *j);

/* Whether every log file can be written (its directory exists and is writable), before
 * anything runs. 0, or -1 with a message naming the job and the option. */
int fio_logs_check(const struct fio_plan *p, char *err, size_t errlen);

/* Writes every job's log files (each atomically); res_of[i] holds job i's numjobs results.
 * Warns on stderr for a thread whose records were cut short. 0, or -1 with a message naming
 * the file. */
int fio_write_logs(const struct fio_plan *p, struct io_job_result *const *res_of, char *err, size_t errlen);

/* --bandwidth-log: fio's aggregate bandwidth logs, agg-read_bw.log, agg-write_bw.log and
 * agg-trim_bw.log in the current directory, a line "ms since the start, KiB/s, direction, 0, 0"
 * in each file at each sample. As fio's, the samples are taken with its status line (so only
 * while it is computed: stdout a terminal or --eta=always, see eta.h), when more than the
 * jobs' smallest bwavgtime (500 ms) has passed since the last; and once more at the end when
 * the report is JSON (fio's JSON asks for the line's figures). Otherwise the files are empty. */
struct fio_agg_log {
	uint64_t start_ns, prev_ns, every_ns;
	uint64_t prev_bytes[3];
	char *lines[3];
	size_t len[3], cap[3];
};

void fio_agg_log_begin(struct fio_agg_log *a, const struct fio_plan *p, uint64_t now_ns);
/* A sample at now_ns from the bytes moved so far (fio_eta_bytes), if one is due. */
void fio_agg_log_sample(struct fio_agg_log *a, const uint64_t bytes[3], uint64_t now_ns);
/* Writes the three files (each atomically) and frees the lines: 0, or -1 naming the file. */
int fio_agg_log_write(struct fio_agg_log *a, char *err, size_t errlen);

#endif
