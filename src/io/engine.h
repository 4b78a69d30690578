/* The I/O engine: the entry points `nodemark disk`, `nodemark fio`, `nodemark run` and the MPI
 * build call, and the ops every engine implements (the table of engines: io/engines.c).
 *
 * One call runs one job (struct io_job, io/job.h): numjobs worker threads, each with its own
 * engine state, buffers, file descriptors, PRNG and histograms, spread round-robin over the
 * job's targets (thread i works on target i % ntargets).  results[] gets numjobs entries, in
 * thread order; merge them with io_result_merge() for a target or a group total.
 *
 *   struct io_job job; io_job_init(&job);
 *   job.rw = IO_RANDREAD; job.targets[0] = "/mnt/disk"; job.ntargets = 1; job.size = 1 << 30;
 *   struct io_job_result *res = calloc(job.numjobs, sizeof *res);
 *   int st = io_run_job(&job, res, err, sizeof err);      // IO_OK, IO_FAILED, IO_BAD_JOB, ...
 *   ... io_result_merge(&total, &res[i]) ... io_result_free(&res[i]) ...
 *
 * Runs that repeat a job on the same files (CrystalDiskMark's passes, several tests on one test
 * file) open a session: the files are laid out once and removed when it closes.
 *
 * Nothing here prints: warnings (O_DIRECT fell back to buffered, the engine auto picked) come
 * back in the session's notes, errors in err. */
#ifndef NM_IO_ENGINE_H
#define NM_IO_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "io/job.h"

/* Return values: the same numbers as the process exit codes (util/error.h) on purpose. */
enum io_status {
	IO_OK = 0,
	IO_FAILED = 1,        /* an I/O error mid-run; results hold what ran, err names file+offset */
	IO_BAD_JOB = 2,       /* bad input found before anything ran (bs 0, missing target, ...) */
	IO_INTERRUPTED = 130, /* cleanup_interrupted() became true; results hold what ran */
};

/* Defaults for every field (rw read, bs 4 KiB, iodepth 1, numjobs 1, loops 1, rwmix 50,
 * randrepeat 1, engine auto, direct auto).  Front ends call it, then set what was asked. */
void io_job_init(struct io_job *job);

/* Check a job without touching any file. Returns IO_OK, or IO_BAD_JOB with a one-line
 * message in err ("--bs: 0: ...": callers prefix nothing more than the command). */
int io_job_check(const struct io_job *job, char *err, size_t errlen);

/* The name of file k of thread `thread` (fio's subjob): job->files.name_format with fio's
 * $jobname, $jobnum, $filenum and $clientuid (empty outside fio's client mode) put in, as fio's
 * make_filename (keywords in any case), or NAME.THREAD.K without a format. */
void io_file_name(const struct io_job *job, unsigned thread, unsigned k, char *out, size_t len);

/* Whether the job writes at all (rw and the mix; trims count as writes). */
int io_job_writes(const struct io_job *job);
/* Whether it trims (trim, randtrim, trimwrite, randtrimwrite). */
int io_job_trims(const struct io_job *job);
/* The smallest size direction dir issues: bs, bsrange's least or bssplit's smallest (fio's
 * min_bs: random offsets are aligned to it by default). io/bssplit.c. */
uint64_t io_bs_smallest(const struct io_job *job, int dir);
/* Whether the job's sizes or alignment differ from one bs per direction. */
int io_job_mixed_bs(const struct io_job *job);

/* Names used on command lines and in JSON: "randread", "uring", ... NULL/-1 when unknown.
 * An engine is its ops (the table's entry); NULL is "auto", a choice made per target. Its
 * names come from its own file: nodemark's name and aliases (io_uring, sync, pvsync), and the
 * fio names it runs (posixaio runs as uring, sync and pvsync as psync). */
const char *io_rw_name(enum io_rw rw);
int io_rw_parse(const char *s, enum io_rw *out);
const char *io_engine_name(const struct io_engine_ops *e);   /* "auto" for NULL */
int io_engine_parse(const char *s, const struct io_engine_ops **out);
/* fio's ioengine= names: each engine's fio_names (its name when it has none), in table order. */
int io_engine_parse_fio(const char *s, const struct io_engine_ops **out);
const char *io_engine_fio_name(const struct io_engine_ops *e); /* the first of them */
const char *io_engine_fio_name_at(unsigned i);                 /* NULL past the last */
const struct io_engine_ops *io_engine_fio_default(void);       /* fio's on Linux (psync) */
/* "auto, uring, psync, mmap or null": every engine of the table, for help and errors. */
const char *io_engine_choices(void);
const char *io_engine_expected(void);  /* "expected auto, uring, ... or null" */

/* Live progress, called from the thread that called io_session_run about 10 times a second.
 * Returning nonzero stops the job early, as if it had reached its end: the results hold what
 * ran and the status is IO_OK (MPI's --stonewall stops every rank when the first is done). */
struct io_thread_progress {
	uint64_t ios, bytes;        /* so far, this thread, ramp included */
	int done;                   /* it has ended */
	int stop;                   /* the callback may set it: this thread alone stops as if at its end
	                             * (fio's steady state ends each thread that attains it) */
};
struct io_progress {
	uint64_t ios, bytes;        /* so far, all threads, ramp included */
	uint64_t elapsed_ns;
	uint64_t expected_ns;       /* time-based: the runtime; size-based: an estimate; 0 unknown */
	int ramping;
	unsigned nthreads;          /* the threads started, thread order */
	struct io_thread_progress *threads; /* valid during the call only */
};
typedef int (*io_progress_fn)(const struct io_progress *p, void *arg);

/* --- one-shot ------------------------------------------------------------------------- */

/* Lay out the files, run the job (all its loops), remove what was created.
 * results[] must hold job->numjobs entries (they are initialised here). */
int io_run_job(const struct io_job *job, struct io_job_result *results, char *err, size_t errlen);

/* --- sessions: lay out once, run several times ------------------------------------------ */

struct io_session;

/* Resolve and check the targets of job (directories get a private .nodemark-* subdirectory,
 * registered with util/cleanup.h), check free space and lay out the files with real data.
 * NULL with a message and *status = IO_BAD_JOB or IO_FAILED. */
struct io_session *io_session_open(const struct io_job *job, int *status, char *err, size_t errlen);

/* Run a job on the session's files.  job may differ from the one the session was opened with
 * in its workload (rw, mix, bs, iodepth, numjobs, runtime, ...) but not in targets, size,
 * filesize, nrfiles or shared_file; files a larger numjobs needs are laid out first.
 * progress may be NULL. Returns an enum io_status. */
int io_session_run(struct io_session *s, const struct io_job *job, struct io_job_result *results,
		   io_progress_fn progress, void *progress_arg, char *err, size_t errlen);

/* Interim figures of a run in progress on s (io_session_run called from another thread), for
 * fio's --status-interval: each worker copies its counts and histograms so far, with time and
 * CPU up to that moment (no per-second series), at its next I/O; a finished worker gives its
 * final figures. out[] gets up to n entries (thread order); a worker that does not answer
 * within timeout_ms (stuck in one long I/O) stays zeroed, as do all n entries when no run is in
 * progress. Returns how many answered. The results own nothing: no io_result_free needed. */
int io_session_snapshot(struct io_session *s, struct io_job_result *out, unsigned n, unsigned timeout_ms);

/* Things the user should know, one per line, e.g.
 * "/dev/shm/x: O_DIRECT not supported (tmpfs), using buffered I/O". NULL-terminated, owned. */
const char *const *io_session_notes(const struct io_session *s);

/* Per target: which engine "auto" picked, whether O_DIRECT is in use, the file(s) used. */
const struct io_engine_ops *io_session_engine(const struct io_session *s, unsigned target);
int io_session_direct(const struct io_session *s, unsigned target);

/* Remove what the session created (files, private directories) and free it. */
void io_session_close(struct io_session *s);

/* --- results ---------------------------------------------------------------------------- */

void io_result_init(struct io_job_result *r);
/* Add src into dst (group reporting): counts and CPU add up, histograms merge, runtime is the
 * slowest job's (fio: group bandwidth = bytes / slowest runtime), per-second series add up,
 * the first error is kept.  dst must have been io_result_init'ed; job_index becomes ~0u. */
void io_result_merge(struct io_job_result *dst, const struct io_job_result *src);
/* Add one direction's figures into another's, as io_result_merge adds each direction (and fio's
 * unified_rw_reporting adds the directions of one job). */
void io_dir_merge(struct io_dir_result *dst, const struct io_dir_result *src);
/* Frees what a result owns (the per-second series); the struct itself is the caller's. */
void io_result_free(struct io_job_result *r);

/* fio's verify state (io/verify_state.c): whether a thread of this job saves one (fio's
 * verify_state_save, verify= of any kind, a job whose rw writes: verify_only too), and
 * freeing one (its comps and itself; NULL is fine). */
int io_vstate_saved_by(const struct io_job *job);
void io_vstate_free(struct io_vstate *s);
/* fio's state file (io/verify.h): its bytes for a thread's state (malloc'd into *out; returns
 * the size), and a file's bytes read (0 with out filled, out->comps malloc'd; or -1 with what
 * is wrong: truncated, another version, a bad crc32c, a record that does not hold). */
size_t io_vstate_encode(const struct io_vstate *s, const char *name, uint64_t index, unsigned char **out);
int io_vstate_parse(const void *buf, size_t len, struct io_vstate *out, char *err, size_t errlen);

/* Whole-result figures (all directions): I/Os per second and bytes per second over runtime. */
/* Per-priority figures (io/prio.c): a new set for a job with cmdprio shares (NULL without),
 * one priority's histogram added in (a new priority appended, in fio's order), and freeing. */
struct io_prio_stats *io_prio_stats_new(const struct io_job *job);
void io_prio_stats_add(struct io_prio_stats **ps, int dir, uint16_t prio, const struct hist *h);
void io_prio_stats_free(struct io_prio_stats *ps);

double io_result_iops(const struct io_job_result *r);
double io_result_bytes_per_sec(const struct io_job_result *r);

/* --- the engine ops table (for engine implementers: io/uring.c, psync.c, mmap.c, null.c) --- */

struct io_worker;

/* One I/O in flight. The worker owns an array of iodepth of these. */
struct io_req {
	uint64_t offset;
	char *buf;
	uint32_t len;
	uint32_t file;      /* index into the worker's files (nrfiles is up to IO_MAX_NRFILES) */
	uint64_t start_ns;  /* when it was queued (slat starts) */
	uint64_t issue_ns;  /* when it was handed to the kernel (clat starts) */
	int64_t res;        /* bytes done, or -errno */
	uint32_t index;     /* its slot in the worker's array */
	uint16_t prio;      /* ioprio value (io_job.place.cmdprio, else io_job.place.ioprio); 0: none */
	uint8_t dir;        /* enum io_dir */
	uint8_t vcheck;     /* data verification (io/verify.c): 0 nothing, IO_VCHECK_READ a read
	                     * to check, IO_VCHECK_WRITE a write to read back later */
	uint32_t vtag;      /* that write's place in the verify log */
	uint8_t no_lat;     /* IO_ENGINE_OP_LAT: queue() did no operation (counted, no latency) */
	uint8_t busy;       /* queued or in flight (the loop's, for serialize_overlap) */
};

/* What an engine can and cannot do; the rest of io/ asks these, never for an engine by name. */
enum io_engine_caps {
	IO_ENGINE_SYNC = 1 << 0,      /* queue() completes the I/O; submit/reap are not called */
	IO_ENGINE_NO_DIRECT = 1 << 1, /* cannot do O_DIRECT (mmap: the page cache is the point) */
	IO_ENGINE_DISKLESS = 1 << 2,  /* no target and no files: the harness alone (null) */
	IO_ENGINE_NO_OPEN = 1 << 3,   /* the worker opens no file: the engine works on the paths
	                               * (filestat, filedelete); O_DIRECT does not apply */
	IO_ENGINE_NO_LAYOUT = 1 << 4, /* the files are not laid out first: the engine makes them
	                               * (filecreate); they are still removed at the end */
	IO_ENGINE_NO_DATA = 1 << 5,   /* I/Os move no bytes (cpuio, exec: fio's FIO_NOIO) */
	IO_ENGINE_TRIM = 1 << 6,      /* takes DIR_TRIM requests (io/trim.c does them) */
	IO_ENGINE_NO_PAYLOAD = 1 << 7,/* an I/O is a size, not the buffer's bytes (ftruncate,
	                               * falloc): nothing to verify */
	IO_ENGINE_TRIM_FILES = 1 << 8,/* trims a regular file (punches a hole, or moves nothing);
	                               * the others' trims are block-device discards */
	IO_ENGINE_CMDPRIO = 1 << 9,   /* a priority per request (fio's cmdprio_*: io_uring, libaio) */
	IO_ENGINE_FIO_DEFAULT = 1 << 10, /* fio's default ioengine on Linux (psync) */
	IO_ENGINE_OP_LAT = 1 << 11,   /* latency only for the I/Os that did the operation (the
	                               * file-operation engines: once per file, as fio times its
	                               * open); the others are counted with none (io_req.no_lat) */
	IO_ENGINE_NO_EXTEND = 1 << 12,/* writes cannot grow a file (mmap): fio's layout writes a
	                               * write job's new files' data too (its FIO_NOEXTEND) */
};

enum { IO_VCHECK_READ = 1, IO_VCHECK_WRITE = 2 };

/* What queue() of a synchronous engine returns when the I/O is done and the job has nothing
 * more to do (the peer closed the connection): the worker books it and stops. */
#define IO_QUEUE_LAST 2

/* One of an engine's options (fio's engine options: hipri=, port=, ...), declared in the
 * engine's own file in a table its ops point to, beside the struct that holds the values
 * (io/engine_opts.h). The front ends parse the value in their own syntax by type and set it by
 * name on the job's engine (io_engine_option_set); nothing outside io/ names one. */
enum io_eopt_type {
	IO_EOPT_BOOL,               /* stored as int, 0 or 1 */
	IO_EOPT_UINT,               /* stored as unsigned, within min..max */
	IO_EOPT_STR,                /* stored as const char *, owned by the caller's job */
	IO_EOPT_CHOICE,             /* one of choices[], stored as its index (an int) */
};
struct io_engine_option {
	const char *name;           /* fio's name */
	const char *alias;          /* another of fio's spellings, or NULL */
	enum io_eopt_type type;
	const char *def;            /* fio's default as fio prints it, or NULL (none) */
	uint64_t min, max;          /* IO_EOPT_UINT's range */
	const char *const *choices; /* IO_EOPT_CHOICE's values, NULL-ended */
	size_t off;                 /* where the value goes in the engine's options struct */
	const char *help;           /* what it sets, for help and docs */
	uint64_t init;              /* nodemark's default (not STR); fio's is def */
};
/* off of a field of the engine's options struct: IO_EOPT_OFF(struct uring_opts, hipri) */
#define IO_EOPT_OFF(type, field) offsetof(type, field)

/* A flag of nodemark's own commands (disk's --sqpoll) that sets one of an engine's options to 1,
 * declared in the engine's file beside its options: the command forwards the word and the
 * engine layer resolves it (io_job_set_flag), so no command names an engine's option. */
struct io_engine_flag {
	const char *flag;           /* the word, without dashes */
	const char *option;         /* the option of the engine's table it sets to 1 */
	const char *help;           /* the flag's line of help */
};

/* One option of fio's engine, as fio 3.33 knows it (its command line's getopt and its job
 * files): the options an engine implements (.options) and those it does not, which the fio
 * front end then refuses as fio's. */
struct io_engine_fio_option {
	const char *name;
	int bare;                   /* fio's switch type: given bare, or only as NAME=V */
};

/* An engine: one file (io/uring.c, ...) defines one of these, and one line of the table in
 * io/engines.c makes it known everywhere: names, parsing, help, errors, checks. The pointer is
 * the engine's identity (io_job.engine). */
struct io_engine_ops {
	const char *name;
	const char *aliases[3];     /* other names nodemark takes for it, NULL-ended */
	const char *fio_names[6];   /* fio's ioengine= names it runs, NULL-ended; none: its name */
	/* fio 3.33's options of the engine its first fio name is (its own), NULL-ended; NULL: none.
	 * fio's other names it runs are other fio engines, with none of these (posixaio on uring). */
	const struct io_engine_fio_option *fio_options;
	unsigned caps;              /* enum io_engine_caps */
	const struct io_engine_option *options; /* its options, ended by a NULL name; NULL: none */
	size_t options_size;        /* sizeof the struct they are stored in (io/engine_opts.h) */
	const struct io_engine_flag *flags; /* nodemark's flags for its options, ended by a NULL flag */
	/* Whether it works on this system (io_uring may be disabled); NULL: always. */
	int (*available)(void);
	/* The job's engine options (opts: its options struct, io_engine_opts_get) make sense
	 * before anything runs; NULL: nothing to check. Returns 0, or -1 with a one-line message. */
	int (*check)(const struct io_job *job, const void *opts, char *err, size_t errlen);
	/* Set up per-thread state (a ring, registered files and buffers, mappings).
	 * Returns 0, or -errno with a message in the worker's error buffer. */
	int (*setup)(struct io_worker *w);
	/* Take one request. A synchronous engine does the I/O here and returns 1 (done);
	 * an asynchronous one queues it and returns 0, or does it here and returns 1 (a trim,
	 * done synchronously as fio's io_uring and libaio engines do). -errno on failure. */
	int (*queue)(struct io_worker *w, struct io_req *r);
	/* Hand everything queued to the kernel. Returns how many were submitted, or -errno. */
	int (*submit)(struct io_worker *w);
	/* Collect at least min completions (waiting if needed), at most max, into done[].
	 * Returns the count, or -errno. */
	int (*reap)(struct io_worker *w, unsigned min, unsigned max, struct io_req **done);
	void (*cleanup)(struct io_worker *w);
	/* What to add to the message of an I/O that failed with errno err (why polled I/O fails,
	 * say), or NULL: nothing; the hook itself may be NULL. */
	const char *(*fail_hint)(const struct io_worker *w, int err);
};

/* Whether the job ends once the jobs that move data are done (cpuio's exit_on_io_done): a
 * front end that runs jobs side by side stops it then. */
int io_job_ends_with_data_jobs(const struct io_job *job);

/* An engine's capabilities (0 for auto, NULL), and whether it is usable here. */
unsigned io_engine_caps(const struct io_engine_ops *e);
int io_engine_available(const struct io_engine_ops *e);
/* The engines in table order: io_engine_at(0), ... until NULL (for listings and tests). */
const struct io_engine_ops *io_engine_at(unsigned i);

/* Every engine's options, engine by engine in table order: io_engine_option_at(0, &e), ...
 * until NULL; *owner (may be NULL) gets the engine that declares it. */
const struct io_engine_option *io_engine_option_at(unsigned i, const struct io_engine_ops **owner);
/* By fio's name or alias, whatever engine declares it (the first); NULL when none does.
 * *owner (may be NULL) gets that engine. */
const struct io_engine_option *io_engine_option_find(const char *name, const struct io_engine_ops **owner);
/* fio's engine NAME's options (fio_options of the engine whose first fio name it is; an empty
 * list for fio's other names an engine runs), NULL-ended; NULL when no engine runs NAME. */
const struct io_engine_fio_option *io_engine_fio_options(const char *name);
/* By name or alias among e's own options; NULL when e (NULL: auto) has none by that name. */
const struct io_engine_option *io_engine_option_of(const struct io_engine_ops *e, const char *name);
/* Set e's option o (one of e's, from io_engine_option_of) on the job from a value parsed by its
 * type: n for BOOL, UINT and CHOICE (the index), s for STR (kept, not copied). The caller
 * checked the range and the choice. The job's options become e's: options set earlier for
 * another engine are dropped for e's defaults (io_job_init's), as fio's are when the engine
 * changes. */
void io_engine_option_set(struct io_job *job, const struct io_engine_ops *e, const struct io_engine_option *o,
			  uint64_t n, const char *s);
/* The engine a job's option NAME goes to: its engine, or with auto (NULL) the engine auto may
 * pick that has it. NULL when that engine has no such option. */
const struct io_engine_ops *io_job_option_engine(const struct io_job *job, const char *name);
/* A flag's help (io_engine_flag.help), NULL when no engine has that flag. */
const char *io_engine_flag_help(const char *flag);
/* --FLAG given: the engine option it names set to 1 on the job's engine (with auto, on the
 * engine auto may pick that has it). 0, or -1 with "--FLAG: the psync engine has no such option
 * (uring has)" when that engine lacks it. */
int io_job_set_flag(struct io_job *job, const char *flag, char *err, size_t errlen);
/* What auto picks, as a phrase for help: "picks per target: uring for O_DIRECT ...", the
 * engines' names from the one list of auto's candidates (io/engines.c). */
const char *io_engine_auto_text(void);
/* The job's options become its engine's at fio's defaults (def; none: nodemark's init). */
void io_engine_options_fio_defaults(struct io_job *job);
/* e's options for this job, in buf: the job's when they are e's, else e's defaults (init).
 * Returns buf's bytes (an engine's options struct). */
const void *io_engine_opts_get(const struct io_job *job, const struct io_engine_ops *e,
			       struct io_engine_optbuf *buf);

#endif
