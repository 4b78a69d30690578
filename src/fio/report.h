/* fio's output formats -- normal text, terse (versions 2 to 5), json and json+ -- written from
 * nodemark's I/O results, so scripts and people used to fio read them unchanged.
 *
 * The front end (fio/run.c) fills a fio_report: one entry per fio "thread_stat", i.e. one per
 * job thread, or one per reporting group merged with group_reporting.  Units follow fio:
 * bw in KiB/s, runtime in ms, latencies in ns (JSON) or a scaled unit (text). */
#ifndef NM_FIO_REPORT_H
#define NM_FIO_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "inventory/diskstats.h"
#include "io/job.h"

struct fio_ss;

/* An option as the user typed it; value is NULL for a bare flag ("stonewall"). */
struct fio_kv {
	char *key;
	char *value;
	int dropped;    /* an engine option a later --ioengine= dropped: listed, as fio's, not applied */
};

struct fio_report_entry {
	const char *name;
	int groupid;
	const struct fio_kv *opts;      /* "job options" */
	size_t nopts;
	const struct fio_kv *globals;   /* the global options in force for the job (the record's) */
	size_t nglobals;
	const struct io_job *io;        /* the plan: rw, bs, iodepth, percentiles */
	uint64_t startdelay_ns;         /* the job's startdelay, part of fio's elapsed */
	const char *ioengine;           /* for the header line: as typed, or the engine used */
	const char *description;        /* fio's description=, or NULL: "desc", terse's last field */
	struct io_job_result res;       /* one thread's, or the group's merged result */
	unsigned nthreads;              /* threads merged into res ("jobs=N") */
	uint64_t job_runtime_ns;        /* the threads' runtimes added up (fio's job_runtime) */
	unsigned kb_base;               /* 1024 or 1000 */
	unsigned unit_base;             /* 8 bytes, 1 bits */
	int slat_percentiles, clat_percentiles, lat_percentiles;
	const struct fio_ss *ss;        /* steady state (fio/steadystate.h), or NULL: none shown */
	int thread;                     /* fio's thread=1: "Starting N threads", else "processes" */
	enum fio_unified { FIO_UNIFIED_NONE = 0, FIO_UNIFIED_MIXED, FIO_UNIFIED_BOTH } unified;
	                                /* fio's unified_rw_reporting: mixed shows the directions
	                                 * added up in their place, both after them */
};

struct fio_report {
	const char *version;            /* "fio version" value */
	const struct fio_kv *globals;   /* "global options" (omitted when none) */
	size_t nglobals;
	struct fio_report_entry *entries;
	size_t nentries;
	int64_t time_ms;                /* when the run started, Unix ms */
	long pid;
	const struct disk_activity *disks; /* "disk_util": NULL or none watched, omitted */
	int terse_version;              /* 2 to 5; 0: 3, fio's default */
};

/* One job thread's files laid out before the run: fio's "Laying out IO file" line. */
struct fio_layout_line {
	const char *job;
	unsigned nfiles;
	uint64_t bytes;
};

/* fio's default percentile list, used when the job has none. */
extern const double fio_default_percentiles[17];

/* plus: json+ (adds "bins" beside each "percentile"). */
void fio_write_json(FILE *f, const struct fio_report *r, int plus);
/* The per-job and per-group summary fio prints at the end of a run. */
void fio_write_normal(FILE *f, const struct fio_report *r);
/* fio's lines printed before a run starts ("a: (g=0): rw=read, bs=(R) ...", "Starting N threads"):
 * one entry per job, nthreads = its numjobs; results are not read. */
void fio_write_normal_header(FILE *f, const struct fio_report *r);
/* "NAME: Laying out IO file (1 file / 8MiB)", "... IO files (3 files / total 24MiB)". */
void fio_write_layout_lines(FILE *f, const struct fio_layout_line *l, size_t n);
/* One line per entry, fio's terse format (r->terse_version). */
void fio_write_terse(FILE *f, const struct fio_report *r);

/* How many of direction d's priorities have I/Os: fio shows them one by one from 2 on. */
unsigned fio_prios_with_ios(const struct io_job_result *r, int d);

/* fio's num2str for people: at most maxlen digits (the '.' counts), prefix by 1000 or 1024.
 * "7040KiB", "11.6MiB", "36.6k".  units: "" / "B" / "bit". */
const char *fio_num2str(uint64_t num, int maxlen, int pow2, const char *units, char *buf, size_t len);

#endif
