/* What the pieces of io/ share and nobody outside io/ needs: targets, workers, offsets. */
#ifndef NM_IO_INTERNAL_H
#define NM_IO_INTERNAL_H

#include "io/engine.h"
#include "io/taus.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

struct io_worker;
struct io_file;


/* --- offsets: a cheap PRNG and a full-cycle random permutation ------------------------ */

/* wyrand-style generator: one add and one 64x64->128 multiply per number. */
static inline uint64_t prng_next(uint64_t *s)
{
	*s += 0xa0761d6478bd642full;
	__uint128_t m = (__uint128_t)*s * (*s ^ 0xe7037ed1a0b428dbull);
	return (uint64_t)(m >> 64) ^ (uint64_t)m;
}

/* A uniform number in [0, n) without division (Lemire's multiply-shift). */
static inline uint64_t prng_below(uint64_t *s, uint64_t n)
{
	return (uint64_t)(((__uint128_t)prng_next(s) * n) >> 64);
}

/* Every block of [0, n) exactly once per pass, in a random order, in O(1) memory: a keyed
 * Feistel network over the smallest even number of bits covering n, with cycle walking. This
 * gives fio's random-map guarantee without a bitmap the size of the device. */
struct randperm {
	uint64_t n;
	unsigned half;      /* bits per Feistel half */
	uint64_t mask;
	uint64_t key[4];
};

void randperm_init(struct randperm *p, uint64_t n, uint64_t seed);
uint64_t randperm_at(const struct randperm *p, uint64_t i);

/* fio's random_generator=lfsr (io/lfsr.c): [0, n) in the order of a maximal-length linear
 * feedback shift register over the smallest width covering n, the states past n stepped over:
 * n draws give every value once, then the same order again. Unlike randperm it needs no new
 * key per pass: fio restarts its register from the seed at each loop, and so does a pass here. */
struct lfsr_seq {
	uint64_t n;                 /* values 0..n-1 (n of 0 is taken as 1) */
	uint64_t feedback;          /* Galois feedback mask of a primitive polynomial */
	uint64_t start, state;      /* non-zero; a pass starts at start, which the seed picks */
};

void lfsr_seq_init(struct lfsr_seq *l, uint64_t n, uint64_t seed);
/* The register's width for n values: the smallest w with 2^w - 1 >= n. */
unsigned lfsr_seq_width(uint64_t n);

static inline uint64_t lfsr_seq_next(struct lfsr_seq *l)
{
	do
		l->state = (l->state >> 1) ^ (-(l->state & 1) & l->feedback);
	while (l->state > l->n);
	return l->state - 1;
}

static inline void lfsr_seq_restart(struct lfsr_seq *l)
{
	l->state = l->start;
}

/* --- targets and files ------------------------------------------------------------------ */

enum target_kind { TARGET_DIR, TARGET_FILE, TARGET_BLOCK, TARGET_NONE /* null engine */ };

struct io_target {
	const char *path;           /* as given */
	enum target_kind kind;
	char workdir[4096];         /* a directory target's private .nodemark-* subdirectory */
	int memory_backed;          /* the data lives in RAM: tmpfs/ramfs, a brd or zram device */
	int fs_in_memory;           /* tmpfs/ramfs: the page cache is the storage (nothing to drop,
	                             * O_DIRECT bypasses nothing) */
	int direct;                 /* O_DIRECT in use */
	int writable;               /* writes allowed */
	int numa_node;              /* -1 when unknown */
	const struct io_engine_ops *engine; /* resolved (never auto) */
	int engine_auto;            /* picked by auto: may follow each run's queue depth */
	uint64_t dev_size;          /* block device or existing file size */
	uint64_t append_at;         /* file_append: the file's size before the job grew it, where
	                             * its I/O starts */
	unsigned align;             /* O_DIRECT alignment (logical block size) */
	int created;                /* a file target we created (create_targets) */
	int ours;                   /* an existing file carrying nodemark's mark (util/workdir.h):
	                             * created and kept by an earlier job or run, so writable */
	int *node_cpus;             /* the CPUs of numa_node when threads are placed there */
	unsigned nnode_cpus;
};

/* --- non-uniform offsets (io/distrib.c): fio's random_distribution ----------------------- */

/* Per file: the region cut into nranges blocks of range bytes, and what each kind needs. */
struct io_dist_state {
	enum io_dist kind;
	uint64_t nranges, range;
	uint64_t rand_off;          /* where rank 0 lands (before the scatter), in blocks */
	int scatter;                /* 1: ranks are spread over the region by perm (fio: a hash);
	                             * 0 (tests): block = rank, so the shape can be checked */
	struct randperm perm;
	uint64_t perm0;             /* where perm puts rank 0 */
	double theta, zetan, zeta2; /* zipf */
	double pareto_pow;          /* pareto */
	uint64_t stddev;            /* normal: the extra spread, in blocks */
	/* zoned, per direction: for a draw v of 0..99, the zone's first block and its length */
	uint64_t zone_first[DIR_COUNT][100], zone_len[DIR_COUNT][100];
};

/* Set d up for job's distribution over a region of len bytes; 0, or -1 when the job asks for
 * none (uniform: the random map). Cost: zipf sums up to 10M terms once (as fio). */
int io_dist_init(struct io_dist_state *d, const struct io_job *job, uint64_t len, uint64_t seed);
/* The next block (0..nranges-1; zoned: in units of the direction's block size) and its rank
 * before the scatter (for tests). */
uint64_t io_dist_rank(struct io_dist_state *d, uint64_t *rng, int dir);
uint64_t io_dist_block(struct io_dist_state *d, uint64_t *rng, int dir);
/* Each file's state when the job is random and not uniform (before the start barrier). */
int io_dist_setup(struct io_worker *w);
void io_dist_cleanup(struct io_worker *w);

/* --- block-size mixes (io/bssplit.c): fio's bssplit, bsrange and blockalign --------------- */

/* The size of the next I/O of direction dir, drawn again until it is at most room, and where
 * it goes in f. */
uint64_t io_bs_pick(struct io_worker *w, int dir, uint64_t room);
void io_bs_reseed(struct io_worker *w);
/* A random mix's offsets as fio's: set up (with the maps) at the start, freed at the end; the
 * offset in f of direction dir's next I/O (-1: the file is done: its map is full, or the
 * offset fio's rules give is past its end, or the smallest size no longer fits there); an I/O
 * of bs bytes at offset off marked in the map, the size it keeps (cut at the first block
 * already covered). */
int io_bs_fio_setup(struct io_worker *w);
void io_bs_fio_cleanup(struct io_worker *w);
int64_t io_bs_fio_offset(struct io_worker *w, struct io_file *f, int dir);
uint64_t io_bs_fio_mark(struct io_worker *w, struct io_file *f, int dir, uint64_t off, uint64_t bs);
uint64_t io_bs_offset(struct io_worker *w, struct io_file *f, int dir, uint64_t bs, int random);

/* --- I/O priorities (io/prio.c): fio's prio, prioclass and cmdprio_* --------------------- */

/* The thread's own priority when the job sets one (before its first I/O): 0, or -errno with
 * the message in the worker's error buffer. */
int io_prio_thread(struct io_worker *w);
/* The priority of the next I/O of direction dir and bs bytes, when the job has cmdprio shares. */
uint16_t io_prio_pick(struct io_worker *w, int dir, uint64_t bs);
/* A completed I/O's latency (ns) into its priority's figures; a reset when measuring starts. */
void io_prio_book(struct io_prio_stats *ps, int dir, uint16_t prio, uint64_t ns);
void io_prio_reset(struct io_prio_stats *ps);

/* --- flow control between jobs (io/flow.c): fio's flow, flow_id, flow_sleep ------------------ */

/* Whether a thread of this weight with count I/Os of its own is ahead of its share of the
 * flow's (1: it waits); when not, its next I/O is counted, in *count and in the flow. */
int io_flow_ahead(struct io_flow *f, unsigned weight, uint64_t *count);
/* A thread's end: its I/Os leave the flow's count (fio's flow_exit_job). */
void io_flow_leave(struct io_flow *f, uint64_t count);

/* --- data verification (io/verify.c): fio's verify= ------------------------------------- */

struct io_verify;

/* w->vfy for a job with verify= on an engine that moves data (else NULL, as fio pretends on its
 * null engine), after the buffers are set up: 0, or -errno with the message in w->err. */
int io_verify_setup(struct io_worker *w);
void io_verify_cleanup(struct io_worker *w);
/* The job reads its writes back after each pass of them (do_verify, not verify_only, not
 * time-based: fio's time-based writes take the whole runtime, read back only by the backlog). */
int io_verify_reads_back(const struct io_verify *v);
/* A new pass of writes: what was logged and read back is forgotten (fio prunes its log). */
void io_verify_new_pass(struct io_verify *v);
/* The I/O next_io chose: a write gets its data and headers (and a place in the log when it is
 * to be read back); under verify_only it becomes a read to check; a read of a job that only
 * reads is checked. */
void io_verify_prepare(struct io_worker *w, struct io_req *r);
/* The next block to read back into r: from the log's oldest unread entry, in the read-back
 * phase; with verify_backlog, during the writes when a batch is due. 1, or 0 when none is. */
int io_verify_next_readback(struct io_worker *w, struct io_req *r);
int io_verify_next_backlog(struct io_worker *w, struct io_req *r);
/* Before the read-back phase: the log in fio's order (writes with a random map as written,
 * others by offset, a block rewritten since kept once). Returns whether anything is to read. */
int io_verify_begin_readback(struct io_worker *w);
/* A completed I/O with r->vcheck set: a logged write is marked done; a read is checked.
 * Returns 0, or -1 with fio's message ("crc32c: verify failed at file F offset N, ...") in msg. */
int io_verify_completed(struct io_worker *w, struct io_req *r, char *msg, size_t msglen);
/* A loaded verify state ended the job (io_vstate_stops): no more I/O, no next pass. */
void io_verify_state_stop(struct io_verify *v);
int io_verify_state_stopped(const struct io_verify *v);
/* The job's verify options make sense with its block sizes and engine (io_job_check). */
int io_verify_check_job(const struct io_job *job, char *err, size_t errlen);

/* --- fio's verify state (io/verify_state.c): verify_state_save and verify_state_load ---- */

struct io_vring;

/* w->vring where the job saves a state (io_vstate_saved_by): 0, or -ENOMEM. */
int io_vstate_setup(struct io_worker *w);
void io_vstate_cleanup(struct io_worker *w);
/* A write finished (ok: it moved its bytes): counted, and its offset kept in its file's ring. */
void io_vstate_write_done(struct io_vring *vr, const struct io_req *r, int ok);
/* The ramp is over: the counts start again, as fio's do (its rings do not). */
void io_vstate_measuring(struct io_vring *vr);
/* The thread's loop is over: its state into w->res->vstate. */
void io_vstate_finish(struct io_worker *w);
/* A loaded state ends the job before this checked read (fio's verify_state_should_stop):
 * within the last depth writes the state saw, only a completed one is read. */
int io_vstate_stops(const struct io_worker *w, const struct io_req *r);

/* --- fio's iologs (io/replay.c, io/replay.h): write_iolog and read_iolog ---------------- */

struct io_trace;

/* w->trace for a job that records or replays (else NULL): 0, or -errno with the message in w->err. */
int io_trace_setup(struct io_worker *w);
void io_trace_cleanup(struct io_worker *w);
/* The loop starts at t_start (ticks): the record's first lines; the replay's clock. */
void io_trace_begin(struct io_worker *w, uint64_t t_start);
/* The next I/O of the log into r, after its delay (cut short by a stop or the deadline): 1, or
 * 0 when the log is done (or the job stopped or failed). Syncs and waits are done here. */
int io_trace_replay_next(struct io_worker *w, struct io_req *r, int measuring);
/* An I/O issued, a sync of file fi: a line of the record. 0, or -1 when the record cannot be
 * written (the job fails, naming the file). */
int io_trace_record_io(struct io_worker *w, const struct io_req *r);
void io_trace_record_sync(struct io_worker *w, unsigned fi, int data_only);
/* The loop is over: the files' close lines, the rest written out. */
void io_trace_end(struct io_worker *w);

/* --- pacing (io/rate.c): fio's rate, rate_iops, rate_min, thinktime and flow ---------------- */

struct io_pace {
	int on;                     /* the job asks for a rate or a think time */
	uint64_t t0;                /* ticks: the epoch rates count from (the loop's start) */
	uint64_t bytes[DIR_COUNT], ios[DIR_COUNT]; /* issued since t0 */
	uint64_t due;               /* ticks: when the held I/O may go */
	int held;                   /* the last io_pace_hold said "not yet" */
	unsigned since_think;       /* I/Os issued since the last pause */
	int think_pending;          /* pause once what is in flight has completed */
	uint64_t think_end, spin_end; /* ticks */
	/* rate_min: counts at the last check */
	uint64_t check_at, check_bytes[DIR_COUNT], check_ios[DIR_COUNT];
	uint64_t flow_ios;          /* I/Os this thread counted in its flow */
	int flow_held;              /* the last hold was the flow's */
	int flow_wait;              /* held with flow_sleep: nothing more until the wait has slept */
};

void io_pace_init(struct io_pace *p, const struct io_job *job, uint64_t t0);
/* 0: an I/O of *dir may go now (dir may switch to the other direction when that one is behind
 * its rate, as fio's; it is counted in the job's flow); 1: not yet (p->held, p->due). */
int io_pace_hold(struct io_pace *p, const struct io_job *job, int *dir, uint64_t now);
void io_pace_issued(struct io_pace *p, const struct io_job *job, int dir, uint64_t bs);
/* Nothing in flight and an I/O held: wait for its time, at most until limit (ticks). */
void io_pace_wait(struct io_pace *p, const struct io_job *job, uint64_t limit);
/* rate_min: at a completion; 0, or -1 with the message in err. */
int io_pace_check_min(struct io_pace *p, const struct io_job *job, const struct io_job_result *r, uint64_t now,
		      char *err, size_t errlen);

/* --- latency target (io/lattarget.c): fio's latency_target, _window, _percentile, _run ------- */

/* fio's search for the deepest queue that keeps the latency under the target: from depth 1,
 * each window that meets it doubles the depth (or bisects up to the lowest that failed), each
 * that does not bisects down; once a window meets it and the depth would not change, the I/O
 * in flight finishes, the figures start over, and one more window measures that depth. */
struct io_lat {
	int on;
	unsigned qd, qd_low, qd_high, max_qd; /* the depth now, the bounds of the search, iodepth */
	unsigned stable;            /* windows met in a row one below qd_high (then it rises) */
	int final_run;              /* the depth is found: the last window is the measured run */
	int quiesce;                /* the depth changed: wait for what is in flight, then a new window */
	int reset;                  /* ... and start the figures over (the final run) */
	int done;                   /* the search is over: the job ends */
	uint64_t window_start, window_len; /* ticks */
	uint64_t ios, failed;       /* completions in the window, and those over the target */
	uint64_t target_ns;
	double pct;
	int keep_on;                /* fio's latency_run */
};

void io_lat_init(struct io_lat *l, const struct io_job *job, uint64_t now);
/* A completion with this latency: 0, or -1 when it fails the job (percentile 100, depth 1). */
int io_lat_completed(struct io_lat *l, uint64_t lat_ns);
/* At now (ticks), after completions: the window's verdict once it is over. */
void io_lat_check(struct io_lat *l, uint64_t now);
/* Nothing is in flight any more after a change of depth: the next window starts at now.
 * Returns 1 when the figures start over (the final run). */
int io_lat_quiesced(struct io_lat *l, uint64_t now);
/* Request slots to leave unused out of depth (0 once the search allows all of them). */
unsigned io_lat_unused(const struct io_lat *l, unsigned depth);

/* --- bw/iops samples (io/samples.c): fio's bwavgtime and iopsavgtime --------------------- */

/* Running min/max/mean/variance of one rate (Welford). */
struct rate_stat {
	uint64_t n;
	double min, max, mean, m2;
};

/* Samples of one rate every len ticks, per direction. */
struct io_sampler {
	uint64_t next, len, last;  /* ticks */
	uint64_t base[DIR_COUNT];  /* bytes (bw) or I/Os (iops) at the last sample */
	struct rate_stat st[DIR_COUNT];
	int bytes;                 /* 1: bw, 0: iops */
};

/* Forget the samples so far; the next is due len ticks after now. */
void io_sampler_restart(struct io_sampler *s, uint64_t now);
/* One sample per direction of r's counts over the time since the last one. */
void io_sampler_close(struct io_sampler *s, const struct io_job_result *r, uint64_t now);
/* The summary, into a result's fields. */
void io_rate_out(const struct rate_stat *s, uint64_t *min, uint64_t *max, double *mean, double *dev,
		 uint64_t *samples);

/* One file a worker uses. */
struct io_file {
	int fd;
	uint64_t fd_pos;            /* the sync engine: the descriptor's file position (0 at each
	                             * open), where an I/O that starts there needs no lseek */
	char *map;                  /* mmap engine: the whole file */
	uint64_t size;              /* bytes mapped / file size */
	uint64_t region_start, region_len;
	const char *path;
	/* offset state per direction */
	uint64_t seq_pos[DIR_COUNT];
	struct randperm perm[DIR_COUNT];
	uint64_t perm_i[DIR_COUNT], pass[DIR_COUNT];
	/* random_generator=lfsr: one register per file, shared by the directions as fio's, over
	 * the region in lfsr_unit blocks (io/lfsr.c) */
	struct lfsr_seq lfsr;
	uint64_t lfsr_unit, lfsr_seed;
	struct io_dist_state *dist; /* NULL: uniform offsets */
	uint64_t moved;             /* bytes given this file in the pass (a mix's file ends) */
	uint64_t *fmap, fmap_bits;  /* a random mix's map of fio's (io/bssplit.c): a bit per
	                             * smallest block, set once an I/O covered it; NULL: none */
	int done;                   /* a mix's file ended in this pass (io/loop.c's file_ends) */
	uint64_t fio_last_pos[DIR_COUNT]; /* fio's last_pos: where the direction's last I/O of a
	                             * random mix ended, in the region (percentage_random) */
};

/* A file's register for job's random offsets over its region (again at each strided zone),
 * its start picked by seed; and the offset of the next block where need bytes fit. */
void io_lfsr_setup(const struct io_job *job, struct io_file *f, uint64_t seed);
uint64_t io_lfsr_offset(struct io_file *f, uint64_t need);

/* What the workers of a run are told, read once per I/O (or batch): stop now; and a request
 * number that, when it moves, asks each worker for a copy of its figures so far. */
struct io_run_ctl {
	_Atomic int stop;
	_Atomic unsigned snap_req;
};

/* Per-worker progress, read by the coordinating thread (one cache line each, no sharing). */
struct io_live {
	_Atomic uint64_t ios, bytes;
	_Atomic int stop;               /* this thread alone is to stop (io_thread_progress.stop) */
	char pad[44];
};

struct io_worker {
	const struct io_job *job;
	const struct io_engine_ops *ops;
	void *engine_data;
	struct io_engine_optbuf eopts; /* ops' options for this job (io_engine_opts_get): the
	                             * engine reads them with IO_WORKER_OPTS */
	uint64_t deadline;          /* ticks, 0: none (the loop's), for engines that wait on a peer */
	uint64_t pause_ns;          /* set by queue(): rest this long before the next I/O, outside
	                             * its latency (fio's think time as cpuio and exec set it) */
	struct io_target *target;
	unsigned index;             /* thread number within the job */
	struct io_file *files;
	unsigned nfiles, next_file;
	uint64_t file_left;         /* I/Os left on files[next_file] before io_next_file moves on */
	int file_chosen;            /* next_file holds a choice (0 before the first I/O) */
	int files_stay;             /* sequential service over files that never end (random I/O
	                             * without a map): the first file keeps every I/O, as fio's */
	struct io_taus file_taus;   /* file_service_type=random's draws, as fio's next_file_state */
	unsigned files_done;        /* files done in this pass (io_next_file passes them by) */
	int filled;                 /* fill_device: a write found the filesystem full (said once) */
	/* openfiles below nfiles (a sync engine): a file is opened at its first I/O and closed
	 * once done, as fio's; at the cap the next open file takes the I/O (io/fileservice.c) */
	unsigned open_cap, nopen;
	unsigned *open_idx;         /* the open files' indexes, ascending (nopen of open_cap) */
	int open_flags;
	int direct;
	unsigned depth;
	int mixed_bs;               /* io_job_mixed_bs(): sizes and offsets from io/bssplit.c */
	struct io_taus bs_taus[DIR_COUNT]; /* a mix's size draws, per direction, as fio's */
	uint64_t bs_seed;           /* fio's randseed for them (io_bs_reseed) */
	int fio_offsets;            /* a random mix's offsets as fio's (io/bssplit.c): 1 without
	                             * a random map, 2 with one; 0: nodemark's */
	uint64_t fio_unit;          /* the map's blocks: the smallest size of the directions */
	uint64_t fio_ba[DIR_COUNT]; /* a direction's offsets are multiples of this (blockalign,
	                             * else its smallest size), as fio's ba[] */
	struct io_taus off_taus;    /* their generator, as fio's random_state */
	struct io_taus seq_taus[DIR_COUNT]; /* percentage_random's draws, as fio's seq_rand_state */
	int fio_seq;                /* the I/O being made follows on (fio's BUSY_OK): no map bits */
	struct io_taus zone_taus;   /* random_distribution=zoned: each I/O's zone, as fio's zone_state */
	struct io_taus mix_taus;    /* rw and randrw: each I/O's direction, as fio's rwmix_state */
	struct io_content *content; /* refilled buffers' patterns; NULL: random (io/content.c) */
	struct io_verify *vfy;      /* data verification (io/verify.c); NULL: the job has none */
	struct io_vring *vring;     /* fio's verify state being kept (io/verify_state.c); NULL: none */
	struct io_trace *trace;     /* fio's iologs, recorded or replayed (io/replay.c); NULL: none */
	struct io_req *reqs;
	char *bufs;                 /* depth buffers of buf_size each, page aligned, the first
	                             * at bufs + job->buf.buf_offset */
	struct io_mem_state {       /* where bufs came from (io/iomem.c) */
		size_t len;         /* bytes allocated or mapped */
		int shm_id, fd;     /* shm: the segment; mmap of a file: its descriptor; -1 none */
		int created;        /* the file was made here: removed at the end, as fio's */
		void *pinned;       /* lockmem's locked mapping, or NULL */
		size_t pinned_len;
	} mem;
	size_t buf_size;
	uint64_t rng;
	struct io_job_result *res;
	struct io_live *live;
	struct io_run_ctl *ctl;
	/* interim figures (io_session_snapshot): the requester provides snap before moving
	 * ctl->snap_req; the worker fills it and publishes the request number in snap_ack */
	struct io_job_result *snap;
	unsigned snap_seen;         /* the worker's own: the last request it answered */
	_Atomic unsigned snap_ack;
	_Atomic int finished;       /* res is final (set after the last write to it) */
	int cpu;                    /* pin to this CPU, or -1 */
	const int *cpuset;          /* or to these (a NUMA node, or a shared cpus set), count ncpuset */
	unsigned ncpuset;
	pthread_barrier_t *barrier; /* all threads start together */
	void (*on_exit)(struct io_worker *w); /* tells the coordinator this thread is done */
	void *coord;
	char err[512];
	int status;
};

/* At each pass (the open, every loop, every time-based wrap): drop the file's page cache
 * unless the job keeps it (io/pagecache.c), and hint the kernel about the access pattern. */
void io_file_drop_cache(struct io_worker *w, struct io_file *f);
void io_file_hint(struct io_worker *w, struct io_file *f, int random);

/* Which of fio's threads of a job is nodemark's thread i (the one with the files NAME.i.*):
 * fio numbers the job's first thread, then its copies counting up, and names the files of the
 * copy it numbers k with subjob numjobs - k, so thread i > 0 is fio's (numjobs - i)th after the
 * first. The thread's CPU and its random seeds are those of that fio thread. */
static inline unsigned io_fio_nth(const struct io_job *job, unsigned i)
{
	return i ? job->numjobs - i : 0;
}

/* Where thread i's region starts in each of its files: fio gives the thread whose files are
 * NAME.i.* (its subjob i) offset + i x offset_increment. */
static inline uint64_t io_job_offset(const struct io_job *job, unsigned i)
{
	return job->offset + (uint64_t)i * job->files.offset_increment;
}

/* Whether a job's offsets are random (randread, randwrite, randrw, randtrim, randtrimwrite). */
static inline int io_job_random(const struct io_job *job)
{
	return job->rw == IO_RANDREAD || job->rw == IO_RANDWRITE || job->rw == IO_RANDRW || job->rw == IO_RANDTRIM ||
	       job->rw == IO_RANDTRIMWRITE;
}

/* Refilled write buffers with fio's compress and dedupe patterns (io/content.c): a thread's
 * state (NULL when out of memory), and one buffer of len bytes. */
struct io_content;
struct io_content *io_content_new(const struct io_job *job, unsigned thread);
void io_content_free(struct io_content *c);
void io_content_fill(struct io_content *c, const struct io_job *job, char *buf, uint64_t len);
/* Whether a job's buffers get them. */
static inline int io_job_content(const struct io_job *job)
{
	return job->buf.refill_buffers && job->buf.fill != FILL_ZERO && (job->buf.content.compress_pct || job->buf.content.dedupe_pct);
}

/* len bytes of pat repeated, from byte `at` of its cycle on (verify_pattern, buffer_pattern). */
static inline void io_pattern_fill(char *p, size_t len, const uint8_t *pat, unsigned plen, size_t at)
{
	at %= plen;
	for (size_t i = 0; i < len;) {
		size_t n = plen - at < len - i ? plen - at : len - i;
		memcpy(p + i, pat + at, n);
		i += n;
		at = 0;
	}
}

/* fio's refill_buffers: new data for each write, random, buffer_pattern or with fio's
 * compress and dedupe patterns. */
static inline void io_refill_buffer(struct io_worker *w, char *buf, uint64_t bs)
{
	if (__builtin_expect(w->content != NULL, 0)) { /* compress and dedupe patterns */
		io_content_fill(w->content, w->job, buf, bs);
		return;
	}
	if (w->job->buf.fill == FILL_PATTERN) {
		io_pattern_fill(buf, bs, w->job->buf.pattern, w->job->buf.pattern_len, 0);
		return;
	}
	for (size_t i = 0; i < bs / 8; i++) { /* memcpy: buf_offset may leave it unaligned */
		uint64_t v = prng_next(&w->rng);
		memcpy(buf + i * 8, &v, sizeof v);
	}
}

/* Strided zones (io/zones.c): f's I/O from now on in the zone at start (zone_range bytes, less
 * at the file's end), sequential I/O from its start, random I/O in a new order over it. */
void io_zone_enter(struct io_worker *w, struct io_file *f, uint64_t start);
/* The thread's zone has had its zone_size bytes (issued so far in a pass of pass_size): on to
 * the next; returns the issued count where that one ends. */
uint64_t io_zone_next(struct io_worker *w, uint64_t issued, uint64_t pass_size);
/* fio's end of a pass from the first zone, in bytes of bs-byte I/O (UINT64_MAX: none). */
uint64_t io_zone_pass_bytes(struct io_worker *w, uint64_t bs);

/* Trims (io/trim.c): a block device's range discarded (BLKDISCARD), r->res set as an I/O's;
 * and whether a trimming job can run on target t with its engine (IO_OK or IO_BAD_JOB). */
void io_trim_discard(struct io_worker *w, struct io_req *r);
int io_trim_check(const struct io_job *job, const struct io_target *t, char *err, size_t errlen);

/* A worker's setup (io/worker_setup.c): its request slots and page-aligned buffers (depth 1
 * for a synchronous engine), its files opened (O_DIRECT when asked; none for a diskless
 * engine), closed again, and the thread pinned to its CPUs (best effort).  -errno with w->err. */
int io_worker_setup_buffers(struct io_worker *w);
/* The buffers' memory as job->buf.mem says, w->bufs set (io/iomem.c): 0, or -errno with w->err
 * naming the call; io_mem_free gives it back (and removes a file it made). */
int io_mem_alloc(struct io_worker *w, size_t total);
void io_mem_free(struct io_worker *w);
/* lockmem: job->buf.lockmem bytes mapped and mlocked, as fio's; 0, or -errno with w->err. */
int io_mem_pin(struct io_worker *w);
void io_mem_unpin(struct io_worker *w);
/* All of a thread's setup before the start barrier: CPUs, priority, buffers, files, offset
 * distribution, the engine, the access hints. A failure is kept in w->res; 0 or -errno. */
int io_worker_prepare(struct io_worker *w);
int io_worker_open_files(struct io_worker *w);
void io_worker_close_files(struct io_worker *w);
void io_worker_pin(struct io_worker *w);

/* Whether a worker waiting on something outside (a peer, a program) should give up: the
 * run was stopped, interrupted, or is past its deadline. */
int io_worker_stopping(const struct io_worker *w);
/* The whole run, or this thread alone, was asked to stop. */
static inline int io_worker_stop_asked(const struct io_worker *w)
{
	return atomic_load_explicit(&w->ctl->stop, memory_order_relaxed) ||
	       atomic_load_explicit(&w->live->stop, memory_order_relaxed);
}
/* The file of the next I/O of bs bytes (io/fileservice.c), for a worker with several files. */
unsigned io_next_file(struct io_worker *w, uint64_t bs);
/* Close file fi, done in this pass, where files are opened lazily (open_cap). */
void io_file_done_close(struct io_worker *w, unsigned fi);

/* Run one worker to completion (the thread body). */
void *io_worker_main(void *arg);

/* The worker's engine's options, as the struct its file declares: IO_WORKER_OPTS(w, struct uring_opts). */
#define IO_WORKER_OPTS(w, type) ((const type *)(const void *)(w)->eopts.u.bytes)

/* The engines "auto" chooses between (io/session.c), the one list of them (io/engines.c, beside
 * the table): the ring, where the kernel does the waiting and for deep queues, and the plain
 * call, for buffered files at depth 1 and where the ring is not available. */
enum { IO_AUTO_RING, IO_AUTO_PLAIN, IO_AUTO_N };
extern const struct io_engine_ops *const io_auto_engines[IO_AUTO_N];

/* The offset of a non-uniform random I/O (io/distrib.c). */
uint64_t io_dist_offset(struct io_worker *w, struct io_file *f, int dir, uint64_t bs);

/* Pick the direction and offset of the next I/O (shared by all engines' loops). */
static inline uint64_t io_pick_offset(struct io_worker *w, struct io_file *f, int dir, uint64_t bs, int random)
{
	if (random) {
		if (__builtin_expect(f->dist != NULL, 0))
			return io_dist_offset(w, f, dir, bs);
		if (__builtin_expect(w->job->pattern.lfsr, 0)) /* with or without the random map, as fio */
			return io_lfsr_offset(f, bs);
		if (w->job->pattern.norandommap) {
			uint64_t blocks = f->region_len / bs;
			return f->region_start + prng_below(&w->rng, blocks) * bs;
		}
		if (f->perm_i[dir] == f->perm[dir].n) {
			/* a new pass: a new order (the same sequence each run with randrepeat) */
			f->pass[dir]++;
			randperm_init(&f->perm[dir], f->perm[dir].n, prng_next(&w->rng));
			f->perm_i[dir] = 0;
		}
		return f->region_start + randperm_at(&f->perm[dir], f->perm_i[dir]++) * bs;
	}
	uint64_t off = f->seq_pos[dir];
	if (off + bs > f->region_start + f->region_len)
		off = f->region_start;
	int64_t next = (int64_t)(off + bs) + w->job->pattern.rw_seq_skip;
	if (next < (int64_t)f->region_start) /* backwards past the start: on from the end, as fio */
		next = (int64_t)(f->region_start + f->region_len) + w->job->pattern.rw_seq_skip;
	f->seq_pos[dir] = next < (int64_t)f->region_start ? f->region_start : (uint64_t)next;
	return off;
}

#endif
