/* The I/O plan (what to run) and its result (what happened), shared by `nodemark disk`,
 * `nodemark fio`, `nodemark run` and the MPI build.  The engine (io/) fills io_job_result;
 * it knows nothing of command lines, fio syntax or the store.
 *
 * Sizes are bytes, durations nanoseconds.  A field left 0 means "the default" unless said. */
#ifndef NM_IO_JOB_H
#define NM_IO_JOB_H

#include <stdint.h>
#include <stddef.h>
#include "stats/hist.h"
#include "io/dir.h"
#include "io/engine_opts.h"
#include "io/pace.h"
#include "io/pattern.h"
#include "io/replay.h"
#include "io/verify.h"

#define IO_MAX_TARGETS 256
/* Files per thread in a directory (fio's nrfiles is any unsigned): about 0.5 KiB of state
 * each (struct io_file, its path, its layout entry), so the most is 512 MiB a thread. */
#define IO_MAX_NRFILES (1u << 20)

enum io_rw {
	IO_READ,
	IO_WRITE,
	IO_RANDREAD,
	IO_RANDWRITE,
	IO_RW,          /* sequential mix of reads and writes, rwmix_read % reads */
	IO_RANDRW,
	IO_TRIM,        /* discards: BLKDISCARD on a block device, a punched hole with falloc */
	IO_RANDTRIM,
	IO_TRIMWRITE,   /* each block trimmed, then written (fio's trimwrite) */
	IO_RANDTRIMWRITE,
};

enum io_direct {
	DIRECT_AUTO = 0, /* O_DIRECT where the filesystem allows it, else buffered with a warning */
	DIRECT_ON,
	DIRECT_OFF,
};

/* What write buffers hold: random bytes, zeros, or io_buf_spec.pattern repeated from each
 * buffer's start (fio's buffer_pattern). */
enum io_buffer_fill { FILL_RANDOM = 0, FILL_ZERO, FILL_PATTERN };
#define IO_BUF_PATTERN_MAX 512

/* Which of a thread's files the next I/O goes to (fio's file_service_type). */
enum io_file_service {
	FILES_ROUNDROBIN = 0, /* the next file every file_service_nr I/Os */
	FILES_RANDOM,         /* a file at random every file_service_nr I/Os */
	FILES_SEQUENTIAL,     /* a file's whole region, then the next */
};

/* fio's fadvise_hint: 1 (the default) tells the kernel a random job is random, a sequential
 * one sequential; 0 says nothing; random/sequential say that whatever the job does. */
enum io_fadvise { FADVISE_PATTERN = 0, FADVISE_NONE, FADVISE_RANDOM, FADVISE_SEQUENTIAL };

/* An I/O priority share (fio's cmdprio_percentage, cmdprio_bssplit): pct % of a direction's
 * I/Os of bs bytes (0: of any size) go with ioprio value prio (class << 13 | level). */
struct io_prio_share {
	uint32_t bs;
	unsigned char pct;
	uint16_t prio;
};

/* What a thread records for fio's log files (io/iolog.h); the front end writes the files. */
struct io_log_spec {
	int ios;                    /* 1: latencies and sizes of the I/Os (lat, bw, iops logs) */
	uint64_t window_ns;         /* 0: one entry per I/O; else sums and maxima per window */
	uint64_t hist_ns;           /* >0: a completion latency histogram per window of this */
};

struct io_log;
struct io_engine_ops;

/* What refilled write buffers hold (io/content.c: fio's buffer_compress_* and dedupe_*);
 * all 0: random bytes. Used with refill_buffers only, as fio's. */
struct io_content_spec {
	unsigned compress_pct;      /* of each chunk, zeros at its end */
	uint32_t chunk;             /* bytes per compress chunk; 0: the whole buffer */
	unsigned dedupe_pct;        /* buffers that repeat an earlier one */
	int working_set;            /* 1: repeat one of a working set; 0: the last unique one */
	unsigned ws_pct;            /* the working set: this % of size, in unique buffers */
	int global;                 /* the working set spans every thread of the run */
	unsigned thread0, nthreads; /* the job's first thread's number over the run, and all
	                             * threads of the run (global); 0, 0: this job alone */
};

/* How fio's layout allocates a file it makes (its fallocate=): fallocate(2) mode 0 (native,
 * its default), nothing, posix_fallocate(3), fallocate(KEEP_SIZE), ftruncate(2). */
enum io_fallocate { IO_FALLOC_NATIVE, IO_FALLOC_NONE, IO_FALLOC_POSIX, IO_FALLOC_KEEP, IO_FALLOC_TRUNCATE };

/* io_job.files: how a job's files are made, shared, chosen and cached (io/layout.c,
 * io/session.c, io/fileservice.c, io/pagecache.c). */
struct io_files_spec {
	int allow_write_blockdev;   /* writes allowed on a target nodemark did not create (a block
	                             * device named again in --allow-write, an existing file);
	                             * a mounted block device is never written */
	int shared_file;            /* 1: all threads on a directory target share one set of files
	                             * (CrystalDiskMark); 0: a set per thread (fio's default) */
	int create_targets;         /* a missing file target is created and laid out (fio's
	                             * filename=); 0: a missing target is an error */
	int create_only;
	int keep_created;           /* 1: a file target nodemark created is kept for a later job and
	                             * after the run (fio's unlink=0, its default); 0: removed when
	                             * its job's session closes */
	int remove_marked;          /* 1: an existing file carrying nodemark's mark (a file an
	                             * earlier job or run created and kept) is removed at the end
	                             * too (fio's unlink=1); never a file without the mark */
	int all_targets;            /* every thread works on all the (file or device) targets, each
	                             * its share of size (fio's filename=a:b); 0: thread i on target
	                             * i % ntargets */
	enum io_file_service file_service;
	unsigned file_service_nr;   /* I/Os on a file before the next (round robin, random); 0: 1 */
	unsigned openfiles;         /* most files a thread keeps open (fio's openfiles); 0: all */
	int keep_cache;             /* 1: do not drop a file's page cache when a pass opens it (fio's
	                             * invalidate=0); 0: drop it at every pass, loop and time-based
	                             * wrap, as fio's invalidate=1 */
	enum io_fadvise fadvise;    /* the access-pattern hint a file gets when a pass opens it */
	unsigned files_longer;      /* the first files_longer files of a directory target are
	                             * longer_by bytes longer (fio gives the whole smallest blocks
	                             * of what size / nrfiles leaves to the first files, one each) */
	uint64_t longer_by;
	int io_limit;               /* io_job.size is fio's io_size (io_limit), over files of their
	                             * own size: passes go on over them while the job is short of it */
	const char *name_format;    /* a directory target's file names: $jobname, $jobnum, $filenum
	                             * (fio's filename_format); NULL: NAME.THREAD.FILE */
	int append;                 /* I/O starts at a file target's end (fio's file_append) */
	uint64_t offset_increment;  /* thread i's region starts i x this past io_job.offset (fio's
	                             * offset_increment: the thread whose files are NAME.i.*) */
	int fio_setup;              /* 1: a file nodemark may remake (new, or its own: marked or in
	                             * its work directory) that is shorter than the job needs is made
	                             * as fio's extend_file makes it: unlinked, created, allocated by
	                             * `fallocate`; a job that reads (or writes with `overwrite`, or
	                             * on mmap) then writes its data, one that only writes none.
	                             * 0: laid out with data from where it ends (disk's); a user's
	                             * file is always grown that way, never remade */
	enum io_fallocate fallocate; /* with fio_setup: how the file is allocated */
	int overwrite;              /* with fio_setup: a write job's file gets its data too */
	int create_on_open;         /* with fio_setup: a write job's new file is only created, empty
	                             * (fio's create_on_open: its open at the job's start makes it) */
	int fill;                   /* fio's fill_device: no free-space check, no allocation or
	                             * growth before the writes; a write's ENOSPC or EDQUOT ends the
	                             * thread, counted without bytes, not a failure */
};

/* io_job.queue: how the loop batches submissions and completions (io/loop.c); all 0: fio's
 * defaults. */
struct io_queue_spec {
	unsigned iodepth_batch_submit; /* I/Os prepared before a submitting call; 0: 1, as fio's
	                             * iodepth_batch_submit (each I/O submitted when prepared);
	                             * iodepth or more: every free slot filled, then one call */
	unsigned iodepth_batch_complete_min; /* completions each wait waits for; 0: 1, as fio's
	                             * default: one reaped, its slot refilled, so the queue stays
	                             * iodepth deep (more: the queue drains that far first) */
	unsigned iodepth_batch_complete_max; /* most completions taken per wait; 0 (or less than
	                             * the min): the min, as fio's */
	int serialize_overlap;      /* an I/O whose bytes overlap one queued or in flight on its
	                             * file waits until that one completes (fio's serialize_overlap) */
};

/* io_job.sync: the writes' syncs (io/loop.c). */
struct io_sync_spec {
	unsigned fsync_every, fdatasync_every; /* every N writes; 0 = never */
	int end_fsync;
};

/* Where the I/O buffers' memory comes from (fio's mem=, io/iomem.c). */
enum io_mem_kind {
	IO_MEM_MALLOC = 0,  /* the heap (page aligned) */
	IO_MEM_SHM,         /* a System V shared memory segment */
	IO_MEM_SHMHUGE,     /* ... of huge pages */
	IO_MEM_MMAP,        /* a private mapping: anonymous, or of mem_file */
	IO_MEM_MMAPHUGE,    /* ... of huge pages (a shared one of mem_file) */
	IO_MEM_MMAPSHARED,  /* a shared mapping of mem_file (without one: as IO_MEM_MMAP, fio's) */
};

/* io_job.buf: the I/O buffers and what writes put in them (io/worker_setup.c, io/content.c). */
struct io_buf_spec {
	enum io_mem_kind mem;       /* fio's mem= (iomem=) */
	const char *mem_file;       /* mmap*:PATH: the mapping's file, or NULL (anonymous) */
	uint64_t lockmem;           /* fio's lockmem: bytes each thread maps and mlocks; 0 none */
	unsigned buf_offset;        /* the first I/O buffer starts this many bytes past a page
	                             * boundary (fio's iomem_align); 0: page aligned */
	enum io_buffer_fill fill;
	int refill_buffers;
	int scramble;               /* fio's scramble_buffers: each write's 512-byte sectors get
	                             * its file offset and start time in place (io/loop.c), so a
	                             * reused buffer is not written twice the same; 0: off (disk's
	                             * jobs), the fio front end's default is 1 */
	struct io_content_spec content;
	uint8_t pattern[IO_BUF_PATTERN_MAX]; /* FILL_PATTERN's bytes; with compression, what
	                             * fills each chunk's compressible part in place of zeros */
	unsigned pattern_len;
};

#define IO_MAX_NODES 1024    /* the nodes a memory policy names: libnuma's mask, what fio passes */

/* io_job.place: where the threads run and at what I/O priority (io/worker.c, io/prio.c). */
struct io_place_spec {
	const char *cpus;           /* "0-3,8" or NULL */
	int cpus_shared;            /* 1: every thread may run on the whole of cpus (fio's
	                             * cpus_allowed_policy=shared); 0: each on one CPU of it */
	unsigned cpu_thread0;       /* one CPU each: thread i takes the set's CPU (cpu_thread0 + i)
	                             * mod its size (fio numbers the threads of the whole job file) */
	int cpu_fio_order;          /* ... where i counts as fio numbers its threads: the files of
	                             * thread i > 0 are those of fio's (numjobs - i)th, as fio adds a
	                             * job's copies with their numbers counting down */
	int numa_place;             /* place threads on the device's NUMA node when known */
	int mem_policy;             /* the threads' NUMA memory policy, set before their buffers are
	                             * allocated (set_mempolicy's mode: 1 preferred, 2 bind, 3
	                             * interleave, 4 local); 0: none set, the process's own */
	unsigned long mem_nodes[IO_MAX_NODES / (8 * sizeof(unsigned long))]; /* its nodes, a bit each */
	uint16_t ioprio;            /* the threads' I/O priority (ioprio_set; class << 13 | level);
	                             * 0: the process's own */
	int ioprio_set;             /* 1: set it (fio's prio / prioclass given) */
	struct io_prio_share cmdprio[DIR_COUNT][IO_MAX_BSSPLIT]; /* per-I/O priorities (engines
	                             * with a per-request priority: uring); none: ioprio */
	unsigned ncmdprio[DIR_COUNT];
};

/* io_job.report: what the figures are grouped by and sampled at (io/samples.c, io/iolog.c). */
struct io_report_spec {
	int group;                  /* reporting group (fio's groupid) */
	/* Reporting */
	int per_second_series;      /* collect IOPS/bandwidth per second */
	uint64_t sample_ns;         /* bw sample interval for its min/max/mean/stddev; 0: 500 ms
	                             * (fio's bwavgtime) */
	uint64_t iops_sample_ns;    /* the same for iops; 0: sample_ns (fio's iopsavgtime) */
	double percentiles[32];     /* fio's percentile_list; n = 0 means the defaults */
	unsigned npercentiles;
	struct io_log_spec log;     /* what each thread records for fio's log files; off: zeros */
	int prio_total_lat;         /* per-priority figures (io_prio_stats) of the total latency,
	                             * not the completion's (fio's lat_percentiles) */
};

/* The job: what every engine and the loop need, and one member per feature that has more. */
struct io_job {
	char name[64];
	enum io_rw rw;
	unsigned rwmix_read;        /* percent of reads in IO_RW/IO_RANDRW; default 50 */
	uint64_t bs[DIR_COUNT];     /* block size per direction; default 4 KiB; with a mix, the largest */
	unsigned iodepth;           /* default 1 */
	unsigned numjobs;           /* threads; default 1 */
	/* Where: files or directories (a directory gets files created in a private subdir). */
	const char *targets[IO_MAX_TARGETS];
	unsigned ntargets;
	unsigned nrfiles;           /* files per job in a directory target; default 1 */
	uint64_t size;              /* bytes of I/O per job (size-based); also the region when filesize is 0 */
	uint64_t filesize;          /* size of each file; default size / nrfiles */
	uint64_t offset;            /* start of the region in each file */
	/* How long */
	int time_based;
	uint64_t runtime_ns;        /* limit (time_based: exact duration) */
	uint64_t ramp_ns;           /* run but do not measure */
	unsigned loops;             /* default 1 */
	uint64_t number_ios;        /* a pass ends after this many I/Os per thread (fio's number_ios);
	                             * 0: no limit */
	/* How */
	const struct io_engine_ops *engine; /* NULL: auto (io/engine.h) */
	enum io_direct direct;
	/* The features' own settings, each declared beside its code */
	struct io_engine_optbuf eopts; /* the engine's options, set by name (io/engine_opts.h) */
	struct io_pattern pattern;  /* sizes and offsets beyond bs and rw (io/pattern.h) */
	struct io_pace_spec pace;   /* rates, think times, flows, latency target (io/pace.h) */
	struct io_verify_opts verify; /* fio's verify=; kind IO_VERIFY_NONE: off (io/verify.h) */
	struct io_files_spec files;
	struct io_queue_spec queue;
	struct io_sync_spec sync;
	struct io_buf_spec buf;
	struct io_place_spec place;
	struct io_report_spec report;
	struct io_replay_spec replay; /* fio's write_iolog / read_iolog (io/replay.h) */
};

struct io_dir_result {
	uint64_t ios, bytes, short_ios, drop_ios;
	uint64_t runtime_ns;        /* time this direction was active */
	struct hist slat, clat, lat;
	uint64_t bw_min, bw_max;    /* bandwidth samples every sample_ns (B/s) */
	double bw_mean, bw_dev;
	uint64_t bw_samples;
	uint64_t iops_min, iops_max;
	double iops_mean, iops_dev;
	uint64_t iops_samples;
};

/* fio's per-priority figures (cmdprio_*): per direction, each priority's I/Os' completion
 * latency (or total, report.prio_total_lat), in fio's order: the thread's own priority first,
 * then the cmdprio shares' in the order given. */
struct io_prio_stat {
	uint16_t prio;              /* the ioprio value: class << 13 | level */
	struct hist lat;
};
struct io_prio_stats {
	unsigned n[DIR_COUNT];
	struct io_prio_stat *s[DIR_COUNT];
};

struct io_job_result {
	const struct io_job *job;
	unsigned job_index;         /* which of numjobs (0-based), or ~0u when merged */
	unsigned target_index;
	char engine_used[16];       /* "uring", "psync", "mmap", "null" */
	int direct_used;
	struct io_dir_result dir[DIR_COUNT];
	uint64_t runtime_ns;        /* wall time of the measured part */
	uint64_t start_ns, end_ns;  /* monotonic, for IOR-style aggregation */
	uint64_t usr_cpu_ns, sys_cpu_ns;
	uint64_t ctx_voluntary, ctx_involuntary, majf, minf;
	uint64_t iodepth_level[7];  /* fio's 1, 2, 4, 8, 16, 32, >=64 */
	/* calls that submitted / reaped I/Os, by how many each took: fio's 0, 1-4, 5-8, 9-16,
	 * 17-32, 33-64, more (a synchronous engine: one of each per I/O, as fio counts them) */
	uint64_t submit_level[7], complete_level[7];
	unsigned depth_max;         /* most I/Os in flight at once (after a submission) */
	unsigned latency_depth;     /* with a latency target: the depth the search is at (found); 0 none */
	double depth_mean;          /* I/Os in flight after each submission, averaged */
	uint64_t depth_samples;     /* submissions averaged (for merging) */
	uint64_t cache_drops;       /* times a file's page cache was dropped (passes opened) */
	uint64_t sync_ios;
	struct hist sync_lat;
	/* per-second series, owned by the result; NULL when not collected */
	double *sec_iops, *sec_bw;
	size_t nsec;
	struct io_log *log;         /* job->log's records, owned; NULL when none were asked for
	                             * (and in interim copies: a snapshot owns nothing) */
	struct io_prio_stats *prios; /* owned; NULL without cmdprio shares, in snapshots, and
	                             * after io_result_merge (fio/entries.c sums them as fio's) */
	struct io_vstate *vstate;   /* owned: the verify state the thread saves (io/verify_state.c);
	                             * NULL when it saves none (and in snapshots) */
	int error;                  /* errno of the first failure, 0 when fine */
	char errmsg[512];           /* "file: pread at offset N: Input/output error" */
};

#endif
