/* pieces_run: the write phase (and the read-back phase) over N workers spread over the
 * directories, each worker writing its share of the pieces through a backend. */
#include "pieces/internal.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/progress.h"
#include "util/randfill.h"
#include "util/units.h"
#include "util/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

/* Piece content is this much random data, cycled; larger than the CPU caches. */
#define PIECE_DATA_MAX (4u << 20)

const char *pieces_backend_name(enum pieces_backend b)
{
	return b == PIECES_LOG ? "log" : "files";
}

int pieces_backend_parse(const char *s, enum pieces_backend *out)
{
	if (strcasecmp(s, "files") == 0)
		*out = PIECES_FILES;
	else if (strcasecmp(s, "log") == 0)
		*out = PIECES_LOG;
	else
		return -1;
	return 0;
}

const char *pieces_sync_name(enum pieces_sync s)
{
	return s == PIECES_FSYNC ? "sync" : s == PIECES_FDATASYNC ? "syncdata" : "nosync";
}

const char *pieces_durability(const struct pieces_plan *p, const char **why)
{
	if (p->sync == PIECES_NOSYNC) {
		*why = "not synced: a power cut can lose any piece, even after the run";
		return "none";
	}
	if (p->backend == PIECES_FILES && !p->dirsync) {
		*why = "a committed piece is not durable until the run ends (its rename is not synced; "
		       "--dirsync syncs each one; the run syncs the directories at its end)";
		return "end";
	}
	*why = "each piece is durable when it is committed";
	return "commit";
}

double pieces_bytes_per_sec(const struct pieces_phase *ph)
{
	return ph->ns ? (double)ph->bytes * 1e9 / (double)ph->ns : 0;
}

double pieces_per_sec(const struct pieces_phase *ph)
{
	return ph->ns ? (double)ph->pieces * 1e9 / (double)ph->ns : 0;
}

double pieces_ns_per_op(const struct pieces_phase *ph)
{
	return ph->pieces ? (double)ph->ns / (double)ph->pieces : 0;
}

struct runner {
	const struct pieces_plan *plan;
	const struct pieces_backend_ops *ops;
	struct pieces_worker *w;
	pthread_t *tid;
	int stop;
	unsigned finished;
	int reading;
};

struct worker_arg {
	struct runner *run;
	struct pieces_worker *w;
};

/* Piece ids: 32 random bytes from a per-worker generator seeded by getrandom. */
static void next_id(uint64_t *seed, uint8_t id[PIECE_ID_LEN])
{
	rand_fill(id, PIECE_ID_LEN, *seed);
	*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
}

static void *worker_main(void *arg)
{
	struct worker_arg *a = arg;
	struct runner *run = a->run;
	struct pieces_worker *w = a->w;
	w->t0 = clock_now_ns();
	if (!run->reading) {
		uint64_t seed = random_u64();
		for (uint64_t i = 0; i < w->npieces; i++) {
			if (__atomic_load_n(&run->stop, __ATOMIC_RELAXED))
				break;
			struct piece_loc *loc = &w->locs[w->nlocs];
			next_id(&seed, loc->id);
			/* Each piece's bytes differ: its number and worker lead the data. */
			uint64_t stamp[2] = { i, w->index };
			memcpy(w->data, stamp, sizeof stamp < w->data_len ? sizeof stamp : w->data_len);
			int rc = run->ops->write(w, loc);
			if (rc < 0)
				__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			if (rc)
				break;
			w->nlocs++;
			__atomic_store_n(&w->progress, w->nlocs, __ATOMIC_RELAXED);
		}
		if (!w->err[0] && run->ops->finish(w) < 0)
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	} else {
		for (uint64_t i = 0; i < w->nlocs; i++) {
			if (__atomic_load_n(&run->stop, __ATOMIC_RELAXED))
				break;
			uint64_t t = clock_now_ns();
			int rc = run->ops->read(w, &w->locs[i]);
			if (rc < 0) {
				__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
				break;
			}
			w->corrupt += rc == 1;
			hist_add(&w->read_lat, clock_now_ns() - t);
			__atomic_store_n(&w->progress, i + 1, __ATOMIC_RELAXED);
		}
	}
	w->t1 = clock_now_ns();
	__atomic_add_fetch(&run->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

static uint64_t process_cpu_ns(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}

/* The live line: the phase, how far, since when and until when (at the rate so far). */
static void show_phase_progress(const struct runner *run, unsigned started, int reading, uint64_t phase_t0)
{
	uint64_t done = 0, total = 0;
	for (unsigned i = 0; i < started; i++) {
		done += __atomic_load_n(&run->w[i].progress, __ATOMIC_RELAXED);
		total += reading ? run->w[i].nlocs : run->w[i].npieces;
	}
	char el[32], eta[32] = "-";
	uint64_t spent = clock_now_ns() - phase_t0;
	units_duration(spent, el, sizeof el);
	if (done > 0 && total > done)
		units_duration((uint64_t)((double)spent / (double)done * (double)(total - done)), eta, sizeof eta);
	progress_update("pieces %s: %llu/%llu pieces (%.0f%%), elapsed %s, ETA %s", reading ? "read" : "write",
			(unsigned long long)done, (unsigned long long)total,
			total ? 100.0 * (double)done / (double)total : 0.0, el, eta);
}

/* The workers' counts, latencies and times summed into the phase (per directory too); the
 * first worker's error, unless it is a corrupt piece on read-back (counted by the caller). */
static int gather_phase(struct runner *run, struct pieces_phase *ph, unsigned started, int reading, char *err,
			size_t errlen)
{
	const struct pieces_plan *p = run->plan;
	uint64_t t0 = UINT64_MAX, t1 = 0, dt0[PIECES_MAX_DIRS], dt1[PIECES_MAX_DIRS];
	int rc = 0;
	ph->ran = 1;
	ph->ndirs = p->ndirs;
	for (unsigned d = 0; d < p->ndirs; d++)
		dt0[d] = UINT64_MAX, dt1[d] = 0;
	for (unsigned i = 0; i < started; i++) {
		struct pieces_worker *w = &run->w[i];
		unsigned d = i % p->ndirs; /* worker i writes in dirs[i % ndirs] */
		if (w->t0 < t0)
			t0 = w->t0;
		if (w->t1 > t1)
			t1 = w->t1;
		if (w->t0 < dt0[d])
			dt0[d] = w->t0;
		if (w->t1 > dt1[d])
			dt1[d] = w->t1;
		ph->dir[d].pieces += w->nlocs;
		ph->pieces += w->nlocs;
		if (reading) {
			hist_merge(&ph->op_lat, &w->read_lat);
		} else {
			hist_merge(&ph->op_lat, &w->op_lat);
			hist_merge(&ph->commit_lat, &w->commit_lat);
		}
		if (w->err[0] && !rc && !(reading && w->corrupt)) {
			nm_errf(err, errlen, "%s", w->err);
			rc = NM_EXIT_FAILED;
		}
	}
	ph->bytes = ph->pieces * p->size;
	ph->ns = t1 > t0 ? t1 - t0 : 1;
	for (unsigned d = 0; d < p->ndirs; d++) {
		ph->dir[d].bytes = ph->dir[d].pieces * p->size;
		ph->dir[d].ns = dt1[d] > dt0[d] ? dt1[d] - dt0[d] : 1;
	}
	return rc;
}

/* Run one phase on every worker; the calling thread watches for signals and shows progress. */
static int run_phase(struct runner *run, struct pieces_phase *ph, int reading, char *err, size_t errlen)
{
	const struct pieces_plan *p = run->plan;
	struct worker_arg *args = calloc(p->workers, sizeof *args);
	unsigned started = 0;
	int rc = 0;

	if (!args)
		return nm_errf(err, errlen, "out of memory"), NM_EXIT_FAILED;
	run->reading = reading;
	run->finished = 0;
	uint64_t cpu0 = process_cpu_ns(), phase_t0 = clock_now_ns();
	for (unsigned i = 0; i < p->workers; i++) {
		run->w[i].progress = 0;
		args[i] = (struct worker_arg){ run, &run->w[i] };
		int e = pthread_create(&run->tid[i], NULL, worker_main, &args[i]);
		if (e) {
			nm_errf(err, errlen, "cannot start a worker thread: %s", strerror(e));
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			rc = NM_EXIT_FAILED;
			break;
		}
		started++;
	}
	while (__atomic_load_n(&run->finished, __ATOMIC_ACQUIRE) < started) {
		if (cleanup_interrupted())
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
		if (p->show_progress)
			show_phase_progress(run, started, reading, phase_t0);
		usleep(20000);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(run->tid[i], NULL);
	ph->cpu_ns = process_cpu_ns() - cpu0;
	if (p->show_progress)
		progress_clear();
	free(args);

	int gathered = gather_phase(run, ph, started, reading, rc ? NULL : err, rc ? 0 : errlen);
	if (!rc)
		rc = gathered;
	if (!rc && cleanup_interrupted())
		rc = NM_EXIT_INTERRUPTED;
	if (rc == NM_EXIT_INTERRUPTED)
		nm_errf(err, errlen, "interrupted");
	return rc;
}

static int validate(const struct pieces_plan *p, char *err, size_t errlen)
{
	if (!p->ndirs || p->ndirs > PIECES_MAX_DIRS)
		return nm_errf(err, errlen, "expected 1 to %d directories", PIECES_MAX_DIRS);
	if (!p->count)
		return nm_errf(err, errlen, "--count: must be above 0");
	if (!p->size)
		return nm_errf(err, errlen, "--size: must be above 0");
	if (p->size > PIECES_MAX_SIZE)
		return nm_errf(err, errlen, "--size: at most 1TiB");
	if (p->count > PIECES_MAX_COUNT)
		return nm_errf(err, errlen, "--count: at most %llu", (unsigned long long)PIECES_MAX_COUNT);
	if (p->log_limit > UINT64_MAX / 2)
		return nm_errf(err, errlen, "--log-size: too large");
	if (!p->block || p->block > (1u << 30))
		return nm_errf(err, errlen, "--block: expected 1 byte to 1GiB");
	if (!p->workers || p->workers > 1024)
		return nm_errf(err, errlen, "--workers: expected 1 to 1024");
	if (!hash_algo_valid(p->hash))
		return nm_errf(err, errlen, "--hash: unknown algorithm");
	return 0;
}

/* The PIECES marker: format, backend and, once a run has finished, how many pieces it
 * committed in this root (so verify can tell a deleted piece). Written to a temp file, synced,
 * renamed and its directory synced: after a power cut the marker is whole or absent, never
 * empty. */
static int write_marker(const char *root, const struct pieces_plan *p, int64_t committed, char *err,
			size_t errlen)
{
	char path[4200], tmp[4200], text[256];
	snprintf(path, sizeof path, "%s/PIECES", root);
	snprintf(tmp, sizeof tmp, "%s/PIECES.new", root);
	int n = snprintf(text, sizeof text, "nodemark piece store\nversion %d\nbackend %s\n",
			 PIECE_FORMAT_VERSION, pieces_backend_name(p->backend));
	if (committed >= 0)
		n += snprintf(text + n, sizeof text - (size_t)n, "committed %lld\n", (long long)committed);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || pwrite_full(fd, text, (size_t)n, 0) < 0 || fsync(fd) < 0) {
		nm_errf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	close(fd);
	if (rename(tmp, path) < 0 || fsync_dir(root) < 0) {
		nm_errf(err, errlen, "%s: cannot commit the marker: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* After the write phase: record each root's committed count (kept stores), and make a synced
 * run's directory entries durable (the files backend without --dirsync renames without it). */
static int finish_roots(const struct pieces_plan *p, struct runner *run, char roots[][4096], unsigned nroots,
			char *err, size_t errlen)
{
	for (unsigned d = 0; d < nroots; d++) {
		if (!roots[d][0])
			continue;
		int64_t committed = 0;
		for (unsigned i = d; i < p->workers; i += p->ndirs)
			committed += (int64_t)run->w[i].nlocs;
		if (p->sync != PIECES_NOSYNC && pieces_sync_tree(roots[d]) < 0)
			return nm_errf(err, errlen, "%s: fsync of the store's directories: %s", roots[d],
				       strerror(errno));
		if (p->keep && write_marker(roots[d], p, committed, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* A private store per directory that gets pieces: room checked, made, marked and initialised,
 * and durable before the first piece when the run syncs.  An exit code. */
static int make_roots(const struct runner *run, const char *ns, char roots[][4096], unsigned *nroots, char *err,
		      size_t errlen)
{
	const struct pieces_plan *p = run->plan;
	uint64_t per_piece = p->size + (p->backend == PIECES_LOG ? LOG_FOOTER_SIZE + 2 * INDEX_RECORD_SIZE
								  : PIECE_HEADER_SIZE);
	for (unsigned d = 0; d < p->ndirs; d++) {
		uint64_t pieces = 0;
		for (unsigned i = d; i < p->workers; i += p->ndirs)
			pieces += p->count / p->workers + (i < p->count % p->workers);
		if (!pieces)
			continue;
		if (pieces > UINT64_MAX / per_piece)
			return nm_errf(err, errlen, "--count x --size is too large"), NM_EXIT_USAGE;
		if (space_check(p->dirs[d], pieces * per_piece, err, errlen) < 0 ||
		    workdir_create(p->dirs[d], roots[d], sizeof roots[d], err, errlen) < 0)
			return NM_EXIT_USAGE;
		*nroots = d + 1;
		if (write_marker(roots[d], p, -1, err, errlen) < 0 || run->ops->store_init(roots[d], ns, err, errlen) < 0)
			return NM_EXIT_FAILED;
		/* The store's own directory entries durable before the first piece is acknowledged. */
		if ((p->sync != PIECES_NOSYNC || p->dirsync) &&
		    (pieces_sync_tree(roots[d]) < 0 || fsync_dir(p->dirs[d]) < 0)) {
			nm_errf(err, errlen, "%s: fsync of the store's directories: %s", roots[d], strerror(errno));
			return NM_EXIT_FAILED;
		}
	}
	return NM_EXIT_OK;
}

/* Each worker's share of the pieces, its buffers and its open store; an exit code. */
static int make_workers(struct runner *run, char roots[][4096], const char *ns, char *err, size_t errlen)
{
	const struct pieces_plan *p = run->plan;
	size_t data_len = p->size < PIECE_DATA_MAX ? (size_t)p->size : PIECE_DATA_MAX;
	for (unsigned i = 0; i < p->workers; i++) {
		struct pieces_worker *w = &run->w[i];
		w->plan = p;
		w->index = i;
		w->root = roots[i % p->ndirs];
		w->ns = ns;
		w->stop = &run->stop;
		w->npieces = p->count / p->workers + (i < p->count % p->workers);
		w->data_len = data_len;
		w->data = malloc(data_len);
		w->rbuf = p->read_back ? malloc(p->block) : NULL;
		w->locs = calloc(w->npieces ? w->npieces : 1, sizeof *w->locs);
		hist_init(&w->op_lat);
		hist_init(&w->commit_lat);
		hist_init(&w->read_lat);
		if (!w->data || !w->locs || (p->read_back && !w->rbuf))
			return nm_errf(err, errlen, "out of memory for worker %u", i), NM_EXIT_FAILED;
		rand_fill(w->data, data_len, random_u64());
		if (run->ops->open(w) < 0)
			return nm_errf(err, errlen, "%s", w->err), NM_EXIT_FAILED;
	}
	return NM_EXIT_OK;
}

/* The read-back phase, and the corrupt pieces it found; an exit code. */
static int read_back(struct runner *run, struct pieces_result *r, char *err, size_t errlen)
{
	int rc = run_phase(run, &r->read, 1, err, errlen);
	const char *first = NULL;
	for (unsigned i = 0; i < run->plan->workers; i++) {
		r->corrupt += run->w[i].corrupt;
		if (run->w[i].corrupt && !first)
			first = run->w[i].err;
	}
	if (rc == NM_EXIT_OK && r->corrupt) {
		nm_errf(err, errlen, "%llu corrupt piece%s on read-back, the first: %s", (unsigned long long)r->corrupt,
			r->corrupt == 1 ? "" : "s", first);
		rc = NM_EXIT_FAILED;
	}
	return rc;
}

/* The workers closed and freed; the stores kept (a successful --keep) or removed. */
static void release(struct runner *run, char roots[][4096], unsigned nroots, int rc, struct pieces_result *r)
{
	const struct pieces_plan *p = run->plan;
	if (run->w) {
		for (unsigned i = 0; i < p->workers; i++) {
			struct pieces_worker *w = &run->w[i];
			if (w->state)
				run->ops->close(w);
			hash_release(&w->hash);
			free(w->data);
			free(w->rbuf);
			free(w->locs);
		}
	}
	free(run->w);
	free(run->tid);
	for (unsigned d = 0; d < nroots; d++) {
		if (!roots[d][0])
			continue;
		if (rc == NM_EXIT_OK && p->keep) {
			workdir_keep(roots[d]);
			memcpy(r->kept[r->nkept++], roots[d], sizeof r->kept[0]);
		} else {
			cleanup_now(roots[d]);
		}
	}
}

int pieces_run(const struct pieces_plan *p, struct pieces_result *r, char *err, size_t errlen)
{
	const struct pieces_backend_ops *ops = p->backend == PIECES_LOG ? &pieces_log_ops : &pieces_files_ops;
	char roots[PIECES_MAX_DIRS][4096];
	unsigned nroots = 0;
	struct runner run = { .plan = p, .ops = ops };
	uint8_t nsid[PIECE_ID_LEN];
	char ns[PIECE_ID_B32_LEN + 1];

	memset(r, 0, sizeof *r);
	for (unsigned d = 0; d < PIECES_MAX_DIRS; d++)
		roots[d][0] = 0;
	hist_init(&r->write.op_lat);
	hist_init(&r->write.commit_lat);
	hist_init(&r->read.op_lat);
	hist_init(&r->read.commit_lat);
	if (validate(p, err, errlen) < 0)
		return NM_EXIT_USAGE;
	rand_fill(nsid, sizeof nsid, random_u64());
	base32_encode(nsid, sizeof nsid, ns);

	/* Worker i writes in dirs[i % ndirs]; shares differ by at most one piece. */
	run.w = calloc(p->workers, sizeof *run.w);
	run.tid = calloc(p->workers, sizeof *run.tid);
	int rc = !run.w || !run.tid ? (nm_errf(err, errlen, "out of memory"), NM_EXIT_FAILED) : NM_EXIT_OK;
	if (rc == NM_EXIT_OK)
		rc = make_roots(&run, ns, roots, &nroots, err, errlen);
	if (rc == NM_EXIT_OK)
		rc = make_workers(&run, roots, ns, err, errlen);
	if (rc == NM_EXIT_OK)
		rc = run_phase(&run, &r->write, 0, err, errlen);
	if (rc == NM_EXIT_OK && finish_roots(p, &run, roots, nroots, err, errlen) < 0)
		rc = NM_EXIT_FAILED;
	if (rc == NM_EXIT_OK && p->read_back)
		rc = read_back(&run, r, err, errlen);
	release(&run, roots, nroots, rc, r);
	return rc;
}
