/* fio's log files -- write_lat_log, write_bw_log, write_iops_log, write_hist_log -- in fio 3.33's
 * names and formats, from what the engine's threads recorded (io/iolog.h), so that fio's own
 * tools (fiologparser.py, fiologparser_hist.py, fio_generate_plots, fio2gnuplot) read them.
 *
 * Names: PREFIX_TYPE.N.log, N the thread's number in the whole run (1, 2, ... over every job's
 * threads, in job order, as fio's), or PREFIX_TYPE.log with per_job_logs=0 (the threads of the
 * job, and jobs of the same prefix, share it). PREFIX is write_*_log's value, or the job's
 * name with every '/' made '_' (a name stays in the current directory); TYPE is lat, slat,
 * clat, bw, iops or clat_hist.
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

#endif
