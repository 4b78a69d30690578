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

enum io_dir { DIR_READ = 0, DIR_WRITE = 1, DIR_TRIM = 2, DIR_COUNT = 3 };

enum io_stat_type { STAT_STAT = 0, STAT_LSTAT, STAT_STATX };
enum io_net_proto { NET_TCP = 0, NET_UDP, NET_UNIX, NET_TCPV6, NET_UDPV6 };

/* What the engines that are not block I/O need (fio's engine options); 0 is fio's default
 * unless said. */
struct io_engine_opts {
	/* cpuio */
	unsigned cpuload;           /* percent of a CPU each thread burns; required */
	unsigned cpuchunk_us;       /* one burn; 0: 50000 (fio's cpuchunks) */
	int cpumode_qsort;          /* 0: spin (fio's noop); 1: sort an array (qsort) */
	int exit_on_io_done;        /* stop once the jobs that do I/O are done */
	/* exec */
	const char *program, *arguments; /* arguments: %r the runtime in s, %n the job's name */
	int grace_time_s;           /* SIGTERM, then this long before SIGKILL; fio's default 1 */
	int std_redirect;           /* 1 (fio's default): NAME.stdout and NAME.stderr in the cwd */
	/* filestat */
	enum io_stat_type stat_type;
	/* net */
	const char *hostname;       /* peer (or multicast group); a path for protocol unix */
	unsigned port;
	enum io_net_proto proto;
	int listen, pingpong, nodelay;
	unsigned ttl;               /* multicast; fio's default 1 */
	const char *interface;      /* multicast: the interface's address */
	unsigned window_size, mss;
};

enum io_direct {
	DIRECT_AUTO = 0, /* O_DIRECT where the filesystem allows it, else buffered with a warning */
	DIRECT_ON,
	DIRECT_OFF,
};

enum io_buffer_fill { FILL_RANDOM = 0, FILL_ZERO };

/* Which of a thread's files the next I/O goes to (fio's file_service_type). */
enum io_file_service {
	FILES_ROUNDROBIN = 0, /* the next file every file_service_nr I/Os */
	FILES_RANDOM,         /* a file at random every file_service_nr I/Os */
	FILES_SEQUENTIAL,     /* a file's whole region, then the next */
};

/* fio's fadvise_hint: 1 (the default) tells the kernel a random job is random, a sequential
 * one sequential; 0 says nothing; random/sequential say that whatever the job does. */
enum io_fadvise { FADVISE_PATTERN = 0, FADVISE_NONE, FADVISE_RANDOM, FADVISE_SEQUENTIAL };

/* Where random offsets fall (fio's random_distribution). */
enum io_dist {
	DIST_UNIFORM = 0, /* every block once per pass (the random map), or uniform with norandommap */
	DIST_ZIPF,        /* zipf:theta */
	DIST_PARETO,      /* pareto:h */
	DIST_NORMAL,      /* normal:deviation (fio's gauss) */
	DIST_ZONED,       /* zoned:ACCESS%/SIZE%:... per direction */
};

#define IO_MAX_ZONES 64

/* One zone of a zoned distribution: access_pct of the I/O falls in the next size_pct of the region. */
struct io_zone {
	unsigned char access_pct, size_pct;
};

#define IO_MAX_TARGETS 256
#define IO_MAX_BSSPLIT 64

/* One block size of a mix (fio's bssplit=SIZE/PCT): pct % of a direction's I/Os are bs bytes. */
struct io_bs_share {
	uint32_t bs;
	unsigned char pct;
};

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

/* fio's data verification (io/verify.c). The numbers are fio's, written into each block's
 * header as fio writes them, so that fio and nodemark check each other's files. */
enum io_verify_kind {
	IO_VERIFY_NONE = 0,
	IO_VERIFY_META = 1,           /* the header alone (fio's verify=meta) */
	IO_VERIFY_MD5 = 2,
	IO_VERIFY_CRC32 = 4,
	IO_VERIFY_CRC32C = 5,
	IO_VERIFY_SHA256 = 9,
	IO_VERIFY_SHA512 = 10,
	IO_VERIFY_XXHASH = 15,
	IO_VERIFY_SHA1 = 16,
	IO_VERIFY_PATTERN = 17,       /* a header, then verify_pattern (verify_pattern alone) */
	IO_VERIFY_PATTERN_NO_HDR = 18,/* verify_pattern over the whole block (fio's verify=pattern) */
	IO_VERIFY_NULL = 19,          /* pretend: nothing written or checked */
};

#define IO_VERIFY_PATTERN_MAX 512

struct io_verify_opts {
	enum io_verify_kind kind;   /* IO_VERIFY_NONE: off */
	int no_readback;            /* fio's do_verify=0: headers written, the writes not read back */
	int only;                   /* fio's verify_only: nothing written; the blocks a write job
	                             * would write are read and checked */
	unsigned interval;          /* a header every N bytes; 0: the smallest block (fio's) */
	unsigned offset;            /* the header swapped with the bytes this far into its interval */
	uint64_t backlog;           /* 0: read back after the write pass; N: after every N writes */
	uint64_t batch;             /* blocks read back each time (0: backlog) */
	uint8_t pattern[IO_VERIFY_PATTERN_MAX]; /* verify_pattern: the data, repeated */
	unsigned pattern_len;
};

struct io_log;
struct io_flow;
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

struct io_job {
	char name[64];
	int group;                  /* reporting group (fio's groupid) */
	enum io_rw rw;
	unsigned rwmix_read;        /* percent of reads in IO_RW/IO_RANDRW; default 50 */
	uint64_t bs[DIR_COUNT];     /* block size per direction; default 4 KiB; with a mix, the largest */
	/* Block-size mixes (io/bssplit.c), per direction; all 0: every I/O is bs[dir] bytes */
	struct io_bs_share bssplit[DIR_COUNT][IO_MAX_BSSPLIT]; /* fio's bssplit, by rising pct */
	unsigned nbssplit[DIR_COUNT];
	uint64_t bs_min[DIR_COUNT]; /* fio's bsrange: sizes from bs_min to bs[dir] in steps of bs_min */
	uint64_t blockalign[DIR_COUNT]; /* random offsets are multiples of this; 0: the smallest size */
	unsigned iodepth;           /* default 1 */
	unsigned iodepth_batch_submit; /* I/Os prepared before a submitting call; 0: 1, as fio's
	                             * iodepth_batch_submit (each I/O submitted when prepared);
	                             * iodepth or more: every free slot filled, then one call */
	unsigned iodepth_batch_complete_min; /* completions each wait waits for; 0: 1, as fio's
	                             * default: one reaped, its slot refilled, so the queue stays
	                             * iodepth deep (more: the queue drains that far first) */
	unsigned iodepth_batch_complete_max; /* most completions taken per wait; 0 (or less than
	                             * the min): the min, as fio's */
	unsigned numjobs;           /* threads; default 1 */

	/* Where: files or directories (a directory gets files created in a private subdir). */
	const char *targets[IO_MAX_TARGETS];
	unsigned ntargets;
	unsigned nrfiles;           /* files per job in a directory target; default 1 */
	int all_targets;            /* every thread works on all the (file or device) targets, each
	                             * its share of size (fio's filename=a:b); 0: thread i on target
	                             * i % ntargets */
	enum io_file_service file_service;
	unsigned file_service_nr;   /* I/Os on a file before the next (round robin, random); 0: 1 */
	uint64_t size;              /* bytes of I/O per job (size-based); also the region when filesize is 0 */
	uint64_t filesize;          /* size of each file; default size / nrfiles */
	uint64_t offset;            /* start of the region in each file */
	/* fio's zonemode=strided: zone_size bytes of I/O within zone_range bytes of a file, then
	 * the next zone, zone_range + zone_skip further on, wrapping to offset past the file's
	 * end (io/loop.c, io/zones.c); 0: none. For jobs with one file per thread, as fio's. */
	uint64_t zone_size, zone_range, zone_skip;
	int64_t rw_seq_skip;        /* fio's rw=read:N hole after each I/O; negative: the next I/O
	                             * starts that far back from this one's end (read:-8k reads
	                             * backwards), wrapping to the region's end */
	int allow_write_blockdev;   /* writes allowed on a target nodemark did not create (a block
	                             * device named again in --allow-write, an existing file);
	                             * a mounted block device is never written */
	int shared_file;            /* 1: all threads on a directory target share one set of files
	                             * (CrystalDiskMark); 0: a set per thread (fio's default) */
	int create_targets;         /* a missing file target is created and laid out (fio's
	                             * filename=); 0: a missing target is an error */

	/* How long */
	int time_based;
	uint64_t runtime_ns;        /* limit (time_based: exact duration) */
	uint64_t ramp_ns;           /* run but do not measure */
	uint64_t startdelay_ns;
	unsigned loops;             /* default 1 */
	uint64_t number_ios;        /* a pass ends after this many I/Os per thread (fio's number_ios);
	                             * 0: no limit */

	/* Pacing (io/rate.c), per direction and thread; 0: as fast as it goes */
	uint64_t rate_bps[DIR_COUNT];  /* fio's rate: bytes issued by t after start <= rate * t */
	uint64_t rate_iops[DIR_COUNT]; /* fio's rate_iops */
	uint64_t rate_min_bps[DIR_COUNT], rate_min_iops[DIR_COUNT]; /* the job fails below these,
	                             * checked as fio: at completions, once a second after 2 s */
	uint64_t thinktime_ns;      /* a pause after every thinktime_blocks I/Os have completed */
	uint64_t thinktime_spin_ns; /* the first part of it spent spinning on the CPU */
	unsigned thinktime_blocks;  /* default 1 */
	struct io_flow *flow;       /* fio's flow_id: shared with the other jobs of the flow (io/flow.h,
	                             * whose owner adds the threads' weights); NULL: none */
	unsigned flow_weight;       /* fio's flow: each thread's weight in it */
	uint64_t flow_sleep_ns;     /* a held thread lets its I/O finish, then sleeps this long;
	                             * 0: it tries again at once */
	/* Latency target (io/lattarget.c, fio's latency_target): the queue depth is searched for,
	 * from 1 up to iodepth, the deepest whose I/Os stay under the target; 0: none */
	uint64_t lat_target_ns;
	uint64_t lat_window_ns;     /* each depth is judged over this long (fio's latency_window) */
	double lat_percentile;      /* the share of a window's I/Os that must be under the target;
	                             * 100 (the default): one I/O over it lowers the depth, and at
	                             * depth 1 fails the job, as fio's */
	int lat_run;                /* 1: go on adjusting all run long (fio's latency_run); 0: once
	                             * the depth is found, one more window measures it and the job ends */

	/* How */
	const struct io_engine_ops *engine; /* NULL: auto (io/engine.h) */
	enum io_direct direct;
	int fixedbufs, registerfiles, sqpoll, hipri;
	struct io_engine_opts eng;  /* options of the engines that are not block I/O */
	unsigned buf_offset;        /* the first I/O buffer starts this many bytes past a page
	                             * boundary (fio's iomem_align); 0: page aligned */
	enum io_buffer_fill fill;
	int refill_buffers;
	struct io_content_spec content;
	unsigned fsync_every, fdatasync_every; /* every N writes; 0 = never */
	int end_fsync;
	int randrepeat;             /* default 1: the same offsets each run */
	uint64_t seed;
	int norandommap;            /* 0: every block once per pass (a random map), as fio */
	enum io_dist dist;          /* not uniform: hot and cold blocks (io/distrib.c), no random map */
	double dist_param;          /* zipf theta, pareto h, normal deviation in % of the region */
	double dist_center;         /* where the hot spot is, 0..1, when dist_has_center; else random
	                             * for zipf and pareto, the middle for normal (fio's defaults) */
	int dist_has_center;
	struct io_zone zones[DIR_COUNT][IO_MAX_ZONES];
	unsigned nzones[DIR_COUNT];
	int create_only;
	const char *cpus;           /* "0-3,8" or NULL */
	int numa_place;             /* place threads on the device's NUMA node when known */
	uint16_t ioprio;            /* the threads' I/O priority (ioprio_set; class << 13 | level);
	                             * 0: the process's own */
	int ioprio_set;             /* 1: set it (fio's prio / prioclass given) */
	struct io_prio_share cmdprio[DIR_COUNT][IO_MAX_BSSPLIT]; /* per-I/O priorities (engines
	                             * with a per-request priority: uring); none: ioprio */
	unsigned ncmdprio[DIR_COUNT];
	int keep_cache;             /* 1: do not drop a file's page cache when a pass opens it (fio's
	                             * invalidate=0); 0: drop it at every pass, loop and time-based
	                             * wrap, as fio's invalidate=1 */
	enum io_fadvise fadvise;    /* the access-pattern hint a file gets when a pass opens it */

	/* Reporting */
	int per_second_series;      /* collect IOPS/bandwidth per second */
	uint64_t sample_ns;         /* bw sample interval for its min/max/mean/stddev; 0: 500 ms
	                             * (fio's bwavgtime) */
	uint64_t iops_sample_ns;    /* the same for iops; 0: sample_ns (fio's iopsavgtime) */
	double percentiles[32];     /* fio's percentile_list; n = 0 means the defaults */
	unsigned npercentiles;
	struct io_log_spec log;     /* what each thread records for fio's log files; off: zeros */
	struct io_verify_opts verify; /* fio's verify=; kind IO_VERIFY_NONE: off */
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
	int error;                  /* errno of the first failure, 0 when fine */
	char errmsg[512];           /* "file: pread at offset N: Input/output error" */
};

#endif
