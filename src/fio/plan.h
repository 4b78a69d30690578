/* fio's syntax -- command-line options and INI job files -- turned into a list of I/O plans
 * (struct io_job) with fio's grouping and reporting settings, for `nodemark fio`.
 *
 * The parser never prints and never exits: every problem comes back as one line in err, and
 * options that only touch fio's own bookkeeping come back as warnings in the plan.  That keeps
 * it usable from the fuzz harnesses (fuzz/fuzz_fio_*.c).
 *
 * What is and is not supported is listed in docs/fio-compat.md; the table in fio/options.c is the
 * source of truth */
#ifndef NM_FIO_PLAN_H
#define NM_FIO_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "fio/report.h"
#include "io/job.h"

enum fio_format {
	FIO_OUT_NORMAL = 1,
	FIO_OUT_JSON = 2,
	FIO_OUT_JSONPLUS = 4,
	FIO_OUT_TERSE = 8,
};

struct fio_optlist {
	struct fio_kv *kv;
	size_t n, cap;
};

/* fio's log files (fio/logs.c): which ones, named how, and their columns and windows. */
enum fio_log_kind { FIO_LOG_LAT, FIO_LOG_BW, FIO_LOG_IOPS, FIO_LOG_HIST, FIO_LOG_NKINDS };

struct fio_log_opts {
	char *prefix[FIO_LOG_NKINDS];   /* write_*_log's value, "" when bare; NULL: not asked */
	unsigned avg_msec;              /* log_avg_msec: 0, one line per I/O */
	unsigned hist_msec, hist_coarseness;
	int max_value;                  /* log_max_value: a window's maximum, not its mean */
	int per_job;                    /* per_job_logs (default 1): .N in the name, N the thread */
	int offset, prio, unix_epoch;   /* log_offset, log_prio, log_unix_epoch */
};

/* fio's I/O priorities (fio/apply_place.c). */
struct fio_prio_opts {
	int cls, level;                 /* prioclass, prio; -1: not given */
	int pct[DIR_COUNT];             /* cmdprio_percentage */
	int cmd_cls[DIR_COUNT], cmd_level[DIR_COUNT]; /* cmdprio_class, cmdprio; -1: not given */
	char *bssplit;                  /* cmdprio_bssplit as typed, or NULL */
};

/* fio's steady state (fio/steadystate.c): the job ends once its last duration of bw or iops
 * samples meets the criterion. */
struct fio_ss_opts {
	int iops;                       /* judge I/Os per second, else bytes per second */
	int slope;                      /* the least-squares slope, else the largest deviation */
	int pct;                        /* the limit is a percentage of the window's mean */
	double limit;
	uint64_t dur_us;                /* steadystate_duration: 0 (under 1 s) is off */
	uint64_t ramp_us;               /* steadystate_ramp_time: no samples before it */
	uint64_t interval_us;           /* steadystate_check_interval: a sample every (1 s) */
};

/* fio's iologs (fio/iolog.c): write_iolog, read_iolog and the replay_* options; the log read
 * (io.replay points to its entries) and the record's file while the run writes it. */
struct atomic_file;
struct fio_iolog_opts {
	char *write, *read, *redirect;  /* as typed, or NULL */
	int no_stall;                   /* replay_no_stall */
	unsigned time_scale;            /* replay_time_scale: percent of the log's pace (100) */
	uint64_t scale, align;          /* replay_scale, replay_align; 0: none */
	unsigned skip;                  /* replay_skip: 1 << enum io_replay_act of each kind left out */
	struct io_replay_entry *entries; /* the logs read (fio_iologs_load), one after another, owned */
	struct io_replay_log *logs;     /* numjobs' threads' logs (read_iolog=a:b), into entries, owned */
	struct atomic_file *out;        /* write_iolog's file during the run, owned */
	int *record_fds;                /* numjobs > 1: each thread's lines until the end, owned */
};

/* fio's verify state files (fio/vstate.c) */
struct fio_vstate_opts {
	int load;                       /* verify_state_load=1 */
	char **paths;                   /* numjobs: each thread's file, saved or loaded (NULL:
	                                 * neither), owned (fio_vstate_names) */
	char **load_paths;              /* numjobs: the files loaded (fio names them from the whole
	                                 * job name, the saved ones from its first 63 bytes), owned */
	struct io_vstate *loaded;       /* numjobs states read (fio_vstate_load), io.verify.loaded, owned */
};

struct fio_job {
	struct io_job io;               /* what the engine runs; io.report.group is fio's groupid */
	char *name;
	struct fio_optlist inherited;   /* the global options in force where the job was defined */
	struct fio_optlist opts;        /* the job's own options, in order ("job options" in JSON) */
	int stonewall, new_group, group_reporting;
	int thread;                     /* fio's thread=: only the words of "Starting N ..." */
	int unified;                    /* fio's unified_rw_reporting (enum fio_unified) */
	int from_cli;                   /* a --name job: --section chose it at its --name (fio) */
	int disk_util;                  /* report the activity of the disks under the files (default 1) */
	char *wait_for;                 /* the name of an earlier job, or NULL */
	int exitall;                    /* fio's exitall: any job's end then stops others */
	uint64_t startdelay_ns;         /* fio's startdelay: the scheduler holds the job this long */
	int create_serialize;           /* fio's (default 1): files laid out before any job starts;
	                                 * 0: by the job's own thread when it starts (sched.c) */
	int exitall_on_error;           /* this job's failure stops others */
	enum fio_exit_what { FIO_EXIT_GROUP = 0, FIO_EXIT_STONEWALL, FIO_EXIT_ALL } exit_what;
	int slat_percentiles, clat_percentiles, lat_percentiles;
	unsigned kb_base;               /* 1024 or 1000: how sizes are read and printed */
	unsigned unit_base;             /* 8: bytes (default), 1: bits */
	char *ioengine;                 /* as typed ("libaio"), NULL when not given */
	char *filename, *directory;     /* as typed, NULL when not given */
	uint64_t io_size;               /* fio's io_size: I/O bytes over a size= region; 0 not given */
	enum fio_zonemode { FIO_ZONE_UNSET = 0, FIO_ZONE_NONE, FIO_ZONE_STRIDED } zonemode;
	int dir_targets;                /* io.targets are directories (directory= without filename=) */
	int verify_given;               /* verify= was set: verify_pattern then keeps its kind */
	int iodepth_given;              /* iodepth= was set: a blktrace's own depth does not replace it */
	int default_target;             /* neither: fio's NAME.THREAD.0 files in the current directory */
	struct fio_log_opts logs;
	struct fio_prio_opts prios;
	struct fio_ss_opts ss;
	struct fio_iolog_opts iolog;
	struct fio_vstate_opts vstate;
	int flow_id;                    /* fio's flow_id: the jobs of one id share io.pace.flow */
	const char *numa_cpus;          /* numa_cpu_nodes' CPUs (in strs), or NULL: they replace
	                                 * cpus_allowed's, shared, whatever the order (as fio) */
	char **strs;                    /* strings io points to (targets, cpus), owned */
	size_t nstrs;
};

/* A job file's identity (device and inode), to find include loops. */
struct fio_file_id {
	uint64_t dev, ino;
};

/* Reads a whole job file: 0 with a malloc'd, NUL-terminated text, or -1 with err set. */
typedef int (*fio_read_fn)(void *ctx, const char *path, char **text, size_t *len, struct fio_file_id *id,
			   char *err, size_t errlen);

struct fio_plan {
	struct fio_optlist globals;     /* every global option, first position, latest value */
	struct fio_job *jobs;
	size_t njobs, cap;
	unsigned formats;               /* enum fio_format bits; 0 means normal */
	char *output;                   /* --output FILE, or NULL for stdout */
	int terse_version;              /* --terse-version: 2 to 5; 0 not given (3) */
	uint64_t status_interval_ns;    /* --status-interval: a full report this often; 0 none */
	enum fio_eta_when { FIO_ETA_AUTO = 0, FIO_ETA_ALWAYS, FIO_ETA_NEVER } eta_when; /* --eta */
	uint64_t eta_interval_ns;       /* --eta-interval: the status line this often; 0: 1 s */
	uint64_t eta_newline_ns;        /* --eta-newline: a new status line this often; 0 never */
	int bandwidth_log;              /* --bandwidth-log: agg-{read,write,trim}_bw.log (fio/logs.h) */
	int parse_only, readonly;
	char *cmdhelp;                  /* --cmdhelp[=OPTION]: "all" or one option; nothing runs */
	char **sections;                /* --section NAME (repeatable): run only these jobs */
	size_t nsections;
	char **warnings;                /* options accepted but ignored, one line each */
	size_t nwarnings;
	char **notes;                   /* ioengine mappings: "ioengine=libaio runs on ..." */
	size_t nnotes;
	char *aux_path;                 /* --aux-path: the directory of verify state files (NULL: .) */
	int no_include;                 /* refuse "include" (a fuzz harness sets it) */
	int no_jobfiles;                /* refuse job file names on the command line (fuzzing) */
	char **jobfiles;                /* the job files named on the command line */
	size_t njobfiles;
	fio_read_fn read_file;          /* NULL: the file system (a fuzz harness reads from memory) */
	void *read_ctx;
	unsigned include_depth;
	unsigned nincludes;             /* include lines followed, all files together */
	size_t include_bytes;           /* bytes they read */
	struct io_flow **flows;         /* one per flow_id in use (fio/apply_pace.c), owned */
	size_t nflows;
};

void fio_plan_init(struct fio_plan *p);
void fio_plan_free(struct fio_plan *p);

/* fio's command line, without argv[0]: options, --name=... jobs and job file names.
 * Job files are read after the command-line jobs, in the order given (as fio does).
 * Then every job is resolved (fio_plan_finish). Returns 0, or -1 with err set. */
int fio_parse_args(struct fio_plan *p, int argc, char **argv, char *err, size_t errlen);

/* One INI job file's text; name is used in messages ("jobs.fio:12: ..."). Does not resolve. */
int fio_parse_jobfile_text(struct fio_plan *p, const char *text, size_t len, const char *name,
			   char *err, size_t errlen);
int fio_parse_jobfile(struct fio_plan *p, const char *path, char *err, size_t errlen);

/* Turn every job's options into its io_job, number the groups, check wait_for and --section.
 * Returns 0, or -1 with a message naming the job and option. */
int fio_plan_finish(struct fio_plan *p, char *err, size_t errlen);

/* fio's option value for a job: the job's own value, else the inherited global, else NULL.
 * found is set when the option was given at all (a bare flag has a NULL value). */
const char *fio_job_opt(const struct fio_job *j, const char *key, int *found);

/* The names of the options the parser knows, and how it treats them, for docs and tests. */
enum fio_opt_support { FIO_OPT_UNKNOWN = 0, FIO_OPT_SUPPORTED, FIO_OPT_IGNORED, FIO_OPT_REFUSED };
enum fio_opt_support fio_opt_support(const char *name);

#endif
