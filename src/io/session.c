/* Sessions: resolve targets, lay out files with real data, run jobs on them with one thread
 * per job, and remove what was created.  The coordinating thread only starts, watches
 * (progress, Ctrl-C) and joins the workers. */
#include "io/internal.h"
#include "io/layout.h"
#include "io/target.h"
#include "io/ticks.h"
#include "inventory/inventory.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/cpulist.h"
#include "util/error.h"
#include "util/units.h"
#include "util/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 1024

struct io_session {
	struct io_job job;              /* the layout fields of the opening job */
	struct io_target *targets;
	unsigned ntargets;
	struct io_layout laid;          /* the files it laid out, removed at the end */
	char **notes;
	unsigned nnotes;
	int cpus[MAX_CPUS];
	int ncpus;
	/* the run in progress, for io_session_snapshot from another thread */
	pthread_mutex_t run_lock;       /* guards running/nrunning and the workers' snap buffers */
	struct io_worker *running;
	unsigned nrunning;
	struct io_run_ctl ctl;
};

static void add_note(struct io_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_note(struct io_session *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **n = realloc(s->notes, (s->nnotes + 2) * sizeof *n);
	if (!n)
		return;
	s->notes = n;
	n[s->nnotes++] = strdup(buf);
	n[s->nnotes] = NULL;
}

const char *const *io_session_notes(const struct io_session *s)
{
	static const char *const none[] = { NULL };
	return s->notes ? (const char *const *)s->notes : none;
}

const struct io_engine_ops *io_session_engine(const struct io_session *s, unsigned t)
{
	return t < s->ntargets ? s->targets[t].engine : NULL;
}

int io_session_direct(const struct io_session *s, unsigned t)
{
	return t < s->ntargets ? s->targets[t].direct : 0;
}

/* --- files ------------------------------------------------------------------------------ */

/* --- opening ------------------------------------------------------------------------------ */

/* The directory a path names its entry in ("." for a bare name), into buf. */
static const char *parent_dir(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return ".";
	size_t n = slash == path ? 1 : (size_t)(slash - path);
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), path);
	return buf;
}

/* What the target is (a new file, a directory, a block device, an existing file) and whether
 * the job may write to it. */
static int classify_target(const struct io_job *job, struct io_target *t, struct stat *stp, char *err,
			   size_t errlen)
{
	struct stat st = { 0 };
	int writes = io_job_writes(job);
	if (stat(t->path, &st) < 0) {
		if (errno == ENOENT && job->files.create_targets) {
			t->kind = TARGET_FILE;
			t->created = 1;
			t->writable = 1;
		} else {
			return nm_errf(err, errlen, "%s: %s", t->path, strerror(errno)), IO_BAD_JOB;
		}
	} else if (S_ISDIR(st.st_mode)) {
		t->kind = TARGET_DIR;
		t->writable = 1;
		if (access(t->path, W_OK) < 0)
			return nm_errf(err, errlen, "%s: cannot write here: %s", t->path, strerror(errno)), IO_BAD_JOB;
		t->numa_node = target_numa_node(st.st_dev);
	} else if (S_ISBLK(st.st_mode)) {
		t->kind = TARGET_BLOCK;
		int rc = target_blockdev_size(t->path, &t->dev_size);
		if (rc < 0)
			return nm_errf(err, errlen, "%s: cannot open: %s", t->path, strerror(-rc)), IO_BAD_JOB;
		t->numa_node = target_numa_node(st.st_rdev);
		if (writes) {
			if (!job->files.allow_write_blockdev)
				return nm_errf(err, errlen, "%s: a block device is only read unless writes to it are allowed",
					       t->path), IO_BAD_JOB;
			if (target_blockdev_mounted(st.st_rdev))
				return nm_errf(err, errlen, "%s: mounted: refusing to write to it", t->path), IO_BAD_JOB;
			t->writable = 1;
		}
	} else if (S_ISREG(st.st_mode)) {
		t->kind = TARGET_FILE;
		t->dev_size = (uint64_t)st.st_size;
		t->numa_node = target_numa_node(st.st_dev);
		int fd = open(t->path, (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC);
		if (fd < 0)
			return nm_errf(err, errlen, "%s: cannot open: %s", t->path, strerror(errno)), IO_BAD_JOB;
		close(fd);
		/* a file nodemark created and kept (fio's unlink=0) carries its mark: rewritten and
		 * grown as a new one would be; any other file only with the user's leave */
		t->ours = file_marked(t->path);
		if (writes && !job->files.allow_write_blockdev && !t->ours)
			return nm_errf(err, errlen, "%s: a file nodemark did not create is only read unless writes "
				       "to it are allowed", t->path), IO_BAD_JOB;
		t->writable = writes || t->ours;
	} else {
		return nm_errf(err, errlen, "%s: not a directory, regular file or block device", t->path), IO_BAD_JOB;
	}

	*stp = st;
	return IO_OK;
}

/* Whether memory backs the target (tmpfs, ramfs, brd, zram), and the NUMA node of its device. */
static void find_backing(struct io_target *t, const struct stat *stp)
{
	char buf[4096];
	if (t->kind == TARGET_BLOCK) {
		/* The node lives on devtmpfs, whatever the device is: ask what the device is. */
		t->memory_backed = target_blockdev_in_memory(stp->st_rdev);
	} else {
		struct path_device pd;
		t->fs_in_memory = target_fs_in_memory(t->created ? parent_dir(t->path, buf, sizeof buf) : t->path);
		if (inventory_path_device(NULL, t->path, &pd) == 0) {
			t->fs_in_memory |= pd.memory_backed;
			if (pd.numa_node >= 0)
				t->numa_node = pd.numa_node;
		}
		t->memory_backed = t->fs_in_memory || (!t->created && target_blockdev_in_memory(stp->st_dev));
	}
}

/* Threads go to the device's NUMA node when it is known and there is more than one. */
static void place_on_numa(struct io_session *s, const struct io_job *job, struct io_target *t)
{
	if (job->place.numa_place && !job->place.cpus && t->numa_node >= 0 && access("/sys/devices/system/node/node1", F_OK) == 0) {
		int cpus[MAX_CPUS];
		int n = target_node_cpus(t->numa_node, cpus, MAX_CPUS);
		if (n > 0 && (t->node_cpus = malloc((size_t)n * sizeof *cpus))) {
			memcpy(t->node_cpus, cpus, (size_t)n * sizeof *cpus);
			t->nnode_cpus = (unsigned)n;
			add_note(s, "%s: threads placed on NUMA node %d", t->path, t->numa_node);
		}
	}
}

/* Room for the job: a directory's work directory and free space, a new file laid out, an
 * existing file grown to the region asked for. */
static int prepare_space(struct io_session *s, const struct io_job *job, struct io_target *t, char *err,
			 size_t errlen)
{
	/* the highest region start of the threads on this target (offset_increment) */
	uint64_t off = job->offset;
	for (unsigned th = (unsigned)(t - s->targets); th < job->numjobs; th += s->ntargets)
		off = io_job_offset(job, job->files.all_targets || job->files.shared_file ? job->numjobs - 1 : th);
	if (t->kind == TARGET_DIR) {
		uint64_t need = (io_layout_files_len(job) + (uint64_t)job->nrfiles * off) *
				(job->files.shared_file ? 1 : (job->numjobs + s->ntargets - 1) / s->ntargets);
		if (!io_layout_file_len(job))
			return nm_errf(err, errlen, "%s: a directory target needs a size", t->path), IO_BAD_JOB;
		if (!job->files.fill && space_check(t->path, need, err, errlen) < 0) /* fill: until full */
			return IO_BAD_JOB;
		if (workdir_create(t->path, t->workdir, sizeof t->workdir, err, errlen) < 0)
			return IO_BAD_JOB;
	} else if (t->kind == TARGET_FILE) {
		/* an existing file: its own size unless a region was asked for */
		uint64_t region = job->filesize ? job->filesize : job->size;
		/* file_append: the I/O goes past the file's end (fio's start offset is its size) */
		if (job->files.append)
			off = t->append_at = t->created ? 0 : t->dev_size;
		uint64_t need = job->size ? off + (job->files.all_targets ? io_layout_file_len(job) : region) : 0;
		if (t->created) {
			need = off + (job->size && !job->files.all_targets ? region : io_layout_file_len(job));
			if (!need)
				return nm_errf(err, errlen, "%s: a new file needs a size", t->path), IO_BAD_JOB;
			/* removed on a signal while the run is under way; at the end unless kept (fio's
			 * unlink=0), then with nodemark's mark so a later run may rewrite it */
			cleanup_add(t->path);
			int st2 = (io_engine_caps(job->engine) & IO_ENGINE_NO_LAYOUT) ? IO_OK
				  : job->files.fio_setup ? io_layout_make(job, 0, t->path, need, err, errlen)
				  : io_layout_write(job, 0, t->path, 0, need, 1, err, errlen);
			if (st2 != IO_OK)
				return st2 == IO_FAILED ? IO_BAD_JOB : st2;
			t->dev_size = need;
		} else if (need > t->dev_size && job->files.fill) {
			t->dev_size = need; /* fio's fill_device grows it by its own writes, until full */
		} else if (need > t->dev_size) {
			char a[32], b[32];
			if (!t->writable)
				return nm_errf(err, errlen, "%s: the file is %s, smaller than the %s region", t->path,
					       units_bytes_iec(t->dev_size, a, sizeof a), units_bytes_iec(need, b, sizeof b)),
				       IO_BAD_JOB;
			/* nodemark's own file is remade as fio remakes it; a user's is only grown,
			 * never removed or cut */
			int st2 = job->files.fio_setup && t->ours ? io_layout_make(job, 0, t->path, need, err, errlen)
				  : io_layout_write(job, 0, t->path, t->dev_size, need, 0, err, errlen);
			if (st2 != IO_OK)
				return st2;
			t->dev_size = need;
		}
		if (t->dev_size <= off)
			return nm_errf(err, errlen, "%s: empty (or offset past its end)", t->path), IO_BAD_JOB;
	} else if (t->kind == TARGET_BLOCK && off >= t->dev_size) {
		return nm_errf(err, errlen, "%s: offset past the end of the device", t->path), IO_BAD_JOB;
	}
	return IO_OK;
}

static int resolve_target(struct io_session *s, const struct io_job *job, struct io_target *t, char *err,
			  size_t errlen)
{
	struct stat st;
	t->numa_node = -1;
	t->align = 512;
	if (io_engine_caps(job->engine) & IO_ENGINE_DISKLESS) {
		t->kind = TARGET_NONE;
		t->engine = job->engine;
		return IO_OK;
	}
	int rc = classify_target(job, t, &st, err, errlen);
	if (rc != IO_OK)
		return rc;
	find_backing(t, &st);
	place_on_numa(s, job, t);
	return prepare_space(s, job, t, err, errlen);
}

/* auto: io_uring where the kernel does the waiting (O_DIRECT, devices). On buffered files the
 * data is a copy from the page cache: one pread per I/O is cheapest at depth 1, while a deep
 * queue lets io_uring copy a whole batch inline in one system call (measured on tmpfs: about a
 * quarter of the CPU per I/O of psync at depth 32). */
static const struct io_engine_ops *pick_auto(const struct io_target *t, const struct io_job *job)
{
	const struct io_engine_ops *ring = io_auto_engines[IO_AUTO_RING], *plain = io_auto_engines[IO_AUTO_PLAIN];
	if (!io_engine_available(ring))
		return plain;
	if (t->direct || t->kind == TARGET_BLOCK)
		return ring;
	return job->iodepth > 1 ? ring : plain;
}

/* O_DIRECT and the engine, once the first file exists. */
static int choose_mode(struct io_session *s, const struct io_job *job, struct io_target *t, const char *probe,
		       char *err, size_t errlen)
{
	if (t->kind == TARGET_NONE)
		return IO_OK;
	t->direct = 0;
	if (io_engine_caps(job->engine) & IO_ENGINE_NO_OPEN) {
		t->engine = job->engine; /* nothing is opened: O_DIRECT does not apply */
		return IO_OK;
	}
	int can_direct = !(io_engine_caps(job->engine) & IO_ENGINE_NO_DIRECT);
	if (job->direct == DIRECT_AUTO && t->fs_in_memory && can_direct) {
		/* tmpfs takes O_DIRECT since Linux 6.6, but there is no device to go direct to:
		 * it is the same copy from the page cache, only slower through a ring. */
		add_note(s, "%s: memory-backed filesystem, using buffered I/O (O_DIRECT bypasses nothing here)",
			 t->path);
	} else if (job->direct != DIRECT_OFF && can_direct) {
		unsigned align = 512;
		int rc = target_direct_works(probe, &align);
		if (rc < 0)
			return nm_errf(err, errlen, "%s: cannot open: %s", probe, strerror(-rc)), IO_BAD_JOB;
		if (rc == 0) {
			if (job->direct == DIRECT_ON)
				return nm_errf(err, errlen, "%s: O_DIRECT is not supported here%s", t->path,
					       t->fs_in_memory ? " (memory-backed filesystem)" : ""), IO_BAD_JOB;
			add_note(s, "%s: O_DIRECT is not supported here%s, using buffered I/O", t->path,
				 t->fs_in_memory ? " (tmpfs)" : "");
		} else if (job->bs[DIR_READ] % align || job->bs[DIR_WRITE] % align || job->offset % align ||
			   job->files.offset_increment % align ||
			   (io_job_trims(job) && job->bs[DIR_TRIM] % align)) {
			if (job->direct == DIRECT_ON)
				return nm_errf(err, errlen, "%s: O_DIRECT needs block sizes and offsets in multiples of %u",
					       t->path, align), IO_BAD_JOB;
			add_note(s, "%s: block size is not a multiple of %u, using buffered I/O", t->path, align);
		} else {
			t->direct = 1;
			t->align = align;
		}
	}
	if (job->engine) {
		t->engine = job->engine;
		if (!io_engine_available(t->engine))
			return nm_errf(err, errlen, "the %s engine is not available on this system",
				       io_engine_name(t->engine)), IO_BAD_JOB;
		return IO_OK;
	}
	t->engine_auto = 1;
	t->engine = pick_auto(t, job);
	if (t->direct || t->kind == TARGET_BLOCK || !io_engine_available(io_auto_engines[IO_AUTO_RING]))
		add_note(s, "%s: engine auto picked %s (%s%s)", t->path, io_engine_name(t->engine),
			 t->direct ? "O_DIRECT" : "buffered", t->memory_backed ? ", memory-backed" : "");
	else
		add_note(s, "%s: engine auto picks %s at iodepth 1, %s deeper (buffered%s)", t->path,
			 io_engine_name(io_auto_engines[IO_AUTO_PLAIN]), io_engine_name(io_auto_engines[IO_AUTO_RING]),
			 t->memory_backed ? ", memory-backed" : "");
	return IO_OK;
}

struct io_session *io_session_open(const struct io_job *job, int *status, char *err, size_t errlen)
{
	int st = io_job_check(job, err, errlen);
	if (st != IO_OK) {
		*status = st;
		return NULL;
	}
	ticks_init();
	struct io_session *s = calloc(1, sizeof *s);
	int diskless = (io_engine_caps(job->engine) & IO_ENGINE_DISKLESS) != 0;
	unsigned nt = diskless ? 1 : job->ntargets;
	if (s)
		pthread_mutex_init(&s->run_lock, NULL);
	if (!s || !(s->targets = calloc(nt, sizeof *s->targets))) {
		if (s)
			pthread_mutex_destroy(&s->run_lock);
		free(s);
		*status = IO_FAILED;
		nm_errf(err, errlen, "out of memory");
		return NULL;
	}
	s->job = *job;
	s->ntargets = nt;
	if (job->place.cpus) {
		s->ncpus = cpulist_cpus(job->place.cpus, s->cpus, MAX_CPUS);
		if (s->ncpus <= 0) {
			nm_errf(err, errlen, "cpus \"%s\": expected a list like 0-3,8", job->place.cpus);
			st = IO_BAD_JOB;
			goto fail;
		}
	}
	for (unsigned i = 0; i < nt; i++) {
		struct io_target *t = &s->targets[i];
		t->path = diskless ? io_engine_name(job->engine) : job->targets[i];
		st = resolve_target(s, job, t, err, errlen);
		if (st == IO_OK)
			st = io_trim_check(job, t, err, errlen);
		if (st != IO_OK)
			goto fail;
	}
	/* Lay out what the opening job needs, then probe O_DIRECT on a real file.  Every target
	 * gets at least the file of thread i, the one probed, also when the opening job has
	 * fewer threads than targets (disk A B with one job: later jobs spread over both). */
	for (unsigned i = 0; i < nt; i++) {
		struct io_target *t = &s->targets[i];
		for (unsigned th = i; th < job->numjobs || th == i; th += nt) {
			st = io_layout_ensure(&s->laid, job, t, th, err, errlen);
			if (st != IO_OK)
				goto fail;
			if (job->files.shared_file)
				break;
		}
		char probe[4352];
		if (t->kind == TARGET_DIR)
			io_layout_path(job, t, i, 0, probe, sizeof probe);
		else
			snprintf(probe, sizeof probe, "%s", t->path);
		st = choose_mode(s, job, t, probe, err, errlen);
		if (st != IO_OK)
			goto fail;
	}
	*status = IO_OK;
	return s;
fail:
	*status = st;
	io_session_close(s);
	return NULL;
}

void io_session_close(struct io_session *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->run_lock);
	io_layout_remove_all(&s->laid);
	for (unsigned i = 0; i < s->ntargets; i++) {
		struct io_target *t = &s->targets[i];
		if (t->workdir[0])
			cleanup_now(t->workdir);
		/* fio's unlink=0 keeps the file (marked as nodemark's) for a later job (write, then
		 * verify) and after the run; unlink=1 removes it, also when an earlier job or run made
		 * it: the mark says so, and a file without it (the user's) is never removed */
		if (t->created && s->job.files.keep_created && !cleanup_interrupted()) /* a Ctrl-C removes it */
			cleanup_forget(t->path);
		else if (t->created || (s->job.files.remove_marked && t->ours && file_marked(t->path)))
			cleanup_now(t->path);
		free(t->node_cpus);
	}
	free(s->targets);
	for (unsigned i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->notes);
	free(s);
}

/* --- running --------------------------------------------------------------------------- */

struct coord {
	sem_t done;
};

static void worker_done(struct io_worker *w)
{
	sem_post(&((struct coord *)w->coord)->done);
}

static void *worker_thread(void *arg)
{
	struct io_worker *w = arg;
	io_worker_main(w);
	atomic_store_explicit(&w->finished, 1, memory_order_release);
	w->on_exit(w);
	return NULL;
}

/* Whether each thread works on every target (all files or devices) rather than one. */
static int all_files(const struct io_session *s, const struct io_job *job)
{
	if (!job->files.all_targets || s->ntargets < 2)
		return 0;
	for (unsigned i = 0; i < s->ntargets; i++)
		if (s->targets[i].kind != TARGET_FILE && s->targets[i].kind != TARGET_BLOCK)
			return 0;
	return 1;
}

static int setup_worker(struct io_session *s, const struct io_job *job, struct io_worker *w, unsigned i,
			struct io_job_result *res, char *err, size_t errlen)
{
	struct io_target *t = &s->targets[i % s->ntargets];
	w->job = job;
	w->index = i;
	w->target = t;
	w->res = res;
	w->direct = t->direct;
	w->ops = t->engine_auto ? pick_auto(t, job) : t->engine;
	io_engine_opts_get(job, w->ops, &w->eopts);
	w->cpu = -1;
	w->cpuset = t->node_cpus;
	w->ncpuset = t->nnode_cpus;
	if (s->ncpus > 0 && job->place.cpus_shared) {
		w->cpuset = s->cpus;
		w->ncpuset = (unsigned)s->ncpus;
	} else if (s->ncpus > 0) {
		unsigned nth = job->place.cpu_fio_order ? io_fio_nth(job, i) : i;
		w->cpu = s->cpus[(job->place.cpu_thread0 + nth) % (unsigned)s->ncpus];
	}
	w->rng = (job->pattern.randrepeat || job->pattern.allrandrepeat ? (job->pattern.seed ? job->pattern.seed : 0x6e6f64656d61726bull) : random_u64()) +
		 0x9e3779b97f4a7c15ull * (i + 1);
	/* a mix's sizes are drawn with fio's generator and fio's seeds (io/taus.h) */
	w->bs_seed = job->pattern.seed_set ? job->pattern.seed : job->pattern.randrepeat ? 0x89 : random_u64();
	io_bs_reseed(w);
	res->target_index = i % s->ntargets;
	res->direct_used = t->direct;
	snprintf(res->engine_used, sizeof res->engine_used, "%s", w->ops->name);

	int spread = all_files(s, job); /* fio's filename=a:b: every thread on every file */
	unsigned nf = t->kind == TARGET_DIR ? job->nrfiles : spread ? s->ntargets : 1;
	w->files = calloc(nf, sizeof *w->files);
	if (!w->files)
		return nm_errf(err, errlen, "out of memory"), IO_FAILED;
	w->nfiles = nf;
	for (unsigned k = 0; k < nf; k++) {
		struct io_file *f = &w->files[k];
		struct io_laid_file *lf = NULL;
		f->fd = -1;
		if (t->kind == TARGET_DIR) {
			char path[4352];
			io_layout_path(job, t, i, k, path, sizeof path);
			lf = io_layout_find(&s->laid, path);
			if (!lf)
				return nm_errf(err, errlen, "%s: not laid out", path), IO_FAILED;
			f->path = lf->path;
			f->size = lf->size;
		} else if (t->kind == TARGET_NONE) {
			f->path = w->ops->name; /* for messages: "net: read of ..." */
			f->size = job->offset + (job->size ? job->size : (uint64_t)job->bs[0] * 1024);
		} else {
			f->path = spread ? s->targets[k].path : t->path;
			f->size = spread ? s->targets[k].dev_size : t->dev_size;
		}
		/* thread i's start: offset + i x offset_increment, or with file_append a file's end
		 * before the job (a new file's: 0) */
		const struct io_target *ft = spread ? &s->targets[k] : t;
		uint64_t start = !job->files.append || ft->kind == TARGET_BLOCK ? io_job_offset(job, i)
				 : ft->kind == TARGET_FILE ? ft->append_at : 0;
		uint64_t region = f->size > start ? f->size - start : 0;
		/* filesize= is each file's region (fio's io_size= leaves size= as the region: the I/O
		 * amount, job->size, is then smaller and must not shrink where random I/O goes) */
		uint64_t per_file = job->filesize ? job->filesize : job->size ? job->size / nf : 0;
		if (t->kind != TARGET_DIR && per_file && per_file < region)
			region = per_file;
		if (ft->direct) /* whole aligned blocks only */
			region -= region % ft->align;
		f->region_start = start;
		f->region_len = region;
		uint64_t bsmax = job->bs[0] > job->bs[1] ? job->bs[0] : job->bs[1];
		if (io_job_mixed_bs(job)) /* a mix's sizes fit the region (io/bssplit.c), as fio's */
			bsmax = io_bs_smallest(job, DIR_READ) > io_bs_smallest(job, DIR_WRITE) ? io_bs_smallest(job, DIR_READ)
												 : io_bs_smallest(job, DIR_WRITE);
		if (region < bsmax)
			return nm_errf(err, errlen, "%s: the region (%llu bytes) is smaller than the block size", f->path,
				       (unsigned long long)region), IO_BAD_JOB;
		for (int d = 0; d < DIR_COUNT; d++)
			randperm_init(&f->perm[d], region / job->bs[d], w->rng + (uint64_t)d * 7919 + k);
		if (job->pattern.lfsr) /* randrepeat: the same start each run */
			io_lfsr_setup(job, f, w->rng + k);
		if (job->pattern.zone_size && nf == 1) /* fio's strided zones: the first one */
			io_zone_enter(w, f, start);
	}
	return IO_OK;
}

/* A job runs on a session's files only when it wants the files the session laid out, and
 * writes only where the session may write; its files are opened here. */
static int fit_job(struct io_session *s, const struct io_job *job, char *err, size_t errlen)
{
	int st = io_job_check(job, err, errlen);
	if (st != IO_OK)
		return st;
	if ((io_engine_caps(job->engine) & IO_ENGINE_DISKLESS) != (io_engine_caps(s->job.engine) & IO_ENGINE_DISKLESS) ||
	    job->ntargets != s->job.ntargets ||
	    io_layout_file_len(job) != io_layout_file_len(&s->job) || job->nrfiles != s->job.nrfiles ||
	    io_layout_files_len(job) != io_layout_files_len(&s->job) ||
	    job->files.shared_file != s->job.files.shared_file)
		return nm_errf(err, errlen, "the job does not fit the session's files"), IO_BAD_JOB;
	for (unsigned i = 0; i < s->ntargets && io_job_trims(job); i++)
		if ((st = io_trim_check(job, &s->targets[i], err, errlen)) != IO_OK)
			return st;
	if (io_job_writes(job) && !io_job_writes(&s->job)) {
		for (unsigned i = 0; i < s->ntargets; i++)
			if (!s->targets[i].writable)
				return nm_errf(err, errlen, "%s: opened for reading only", s->targets[i].path), IO_BAD_JOB;
	}
	for (unsigned i = 0; i < job->numjobs && !(job->files.shared_file && i >= s->ntargets); i++) {
		st = io_layout_ensure(&s->laid, job, &s->targets[i % s->ntargets], i, err, errlen);
		if (st != IO_OK)
			return st;
	}
	return IO_OK;
}

/* Wait for the started workers, every 100 ms passing on the progress (and a stop asked by
 * it or by a signal). */
/* Each started thread's counts so far, and their totals. */
static void gather_progress(struct io_worker *w, struct io_live *live, unsigned started, struct io_progress *p)
{
	for (unsigned i = 0; i < started; i++) {
		struct io_thread_progress *t = &p->threads[i];
		t->ios = atomic_load_explicit(&live[i].ios, memory_order_relaxed);
		t->bytes = atomic_load_explicit(&live[i].bytes, memory_order_relaxed);
		t->done = atomic_load_explicit(&w[i].finished, memory_order_acquire);
		t->stop = 0;
		p->ios += t->ios;
		p->bytes += t->bytes;
	}
	p->nthreads = started;
}

static void wait_workers(struct io_session *s, const struct io_job *job, struct io_worker *w, struct io_live *live,
			 unsigned started, struct coord *co, io_progress_fn progress, void *progress_arg)
{
	struct io_thread_progress *threads = progress ? calloc(started ? started : 1, sizeof *threads) : NULL;
	if (progress && !threads)
		abort();
	uint64_t t0 = clock_now_ns();
	uint64_t expected = job->runtime_ns ? job->ramp_ns + job->runtime_ns * job->loops : 0;
	unsigned finished = 0;
	while (finished < started) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		if (sem_timedwait(&co->done, &ts) == 0) {
			finished++;
			continue;
		}
		if (cleanup_interrupted())
			atomic_store(&s->ctl.stop, 1);
		if (progress) {
			struct io_progress p = { .threads = threads };
			gather_progress(w, live, started, &p);
			p.elapsed_ns = clock_now_ns() - t0;
			p.ramping = job->ramp_ns && p.elapsed_ns < job->ramp_ns;
			p.expected_ns = expected;
			if (!expected && job->size && p.bytes) {
				double total = (double)job->size * job->loops * job->numjobs;
				p.expected_ns = (uint64_t)((double)p.elapsed_ns * total / (double)p.bytes);
			}
			if (progress(&p, progress_arg))
				atomic_store(&s->ctl.stop, 1); /* stopped on request: what ran is the result */
			for (unsigned i = 0; i < started; i++)
				if (threads[i].stop) /* this one alone */
					atomic_store(&live[i].stop, 1);
		}
	}
	free(threads);
}

/* The run's status from its workers: the first error, a thread that did not start, a signal. */
static int run_status(const struct io_worker *w, const struct io_job_result *results, unsigned n, unsigned started,
		      char *err, size_t errlen)
{
	for (unsigned i = 0; i < n; i++) {
		if (results[i].error == EINTR && cleanup_interrupted())
			continue; /* it gave up waiting (for a peer) because of the signal */
		if (w[i].status != IO_OK || results[i].error)
			return nm_errf(err, errlen, "%s", results[i].errmsg[0] ? results[i].errmsg : w[i].err), IO_FAILED;
	}
	if (started < n)
		return nm_errf(err, errlen, "cannot start thread %u of %u", started + 1, n), IO_FAILED;
	if (cleanup_interrupted())
		return nm_errf(err, errlen, "interrupted"), IO_INTERRUPTED;
	return IO_OK;
}

int io_session_run(struct io_session *s, const struct io_job *job, struct io_job_result *results,
		   io_progress_fn progress, void *progress_arg, char *err, size_t errlen)
{
	if (job->numjobs <= 4096)
		for (unsigned i = 0; i < job->numjobs; i++) {
			io_result_init(&results[i]);
			results[i].job = job;
			results[i].job_index = i;
		}
	int st = fit_job(s, job, err, errlen);
	if (st != IO_OK)
		return st;

	unsigned n = job->numjobs;
	struct io_worker *w = calloc(n, sizeof *w);
	struct io_live *live = aligned_alloc(64, sizeof *live * n);
	pthread_t *tid = calloc(n, sizeof *tid);
	pthread_barrier_t barrier;
	struct coord co;
	unsigned started = 0;
	if (!w || !live || !tid) {
		nm_errf(err, errlen, "out of memory");
		st = IO_FAILED;
		goto out;
	}
	memset(live, 0, sizeof *live * n);
	atomic_store(&s->ctl.stop, 0);
	for (unsigned i = 0; i < n; i++) {
		st = setup_worker(s, job, &w[i], i, &results[i], err, errlen);
		if (st != IO_OK)
			goto out;
		w[i].live = &live[i];
		w[i].ctl = &s->ctl;
		/* requests are numbered per session: only the ones made from now on are this run's */
		w[i].snap_seen = atomic_load(&s->ctl.snap_req);
		atomic_store(&w[i].snap_ack, w[i].snap_seen);
		w[i].barrier = &barrier;
		w[i].on_exit = worker_done;
		w[i].coord = &co;
	}
	sem_init(&co.done, 0, 0);
	pthread_barrier_init(&barrier, NULL, n + 1);
	for (; started < n; started++)
		if (pthread_create(&tid[started], NULL, worker_thread, &w[started]) != 0)
			break;
	if (started < n) {
		/* The barrier counts n + 1: stand in for the threads that never started. */
		atomic_store(&s->ctl.stop, 1);
		for (unsigned i = started; i < n; i++)
			pthread_barrier_wait(&barrier);
	}
	pthread_barrier_wait(&barrier);
	pthread_mutex_lock(&s->run_lock);
	s->running = w;
	s->nrunning = started;
	pthread_mutex_unlock(&s->run_lock);
	wait_workers(s, job, w, live, started, &co, progress, progress_arg);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_lock(&s->run_lock); /* a snapshot in progress finishes first */
	s->running = NULL;
	s->nrunning = 0;
	pthread_mutex_unlock(&s->run_lock);
	pthread_barrier_destroy(&barrier);
	sem_destroy(&co.done);
	st = run_status(w, results, n, started, err, errlen);
out:
	if (w)
		for (unsigned i = 0; i < n; i++) {
			free(w[i].files);
			free(w[i].snap);
		}
	free(w);
	free(live);
	free(tid);
	return st;
}

int io_session_snapshot(struct io_session *s, struct io_job_result *out, unsigned n, unsigned timeout_ms)
{
	pthread_mutex_lock(&s->run_lock);
	struct io_worker *w = s->running;
	unsigned m = w ? (s->nrunning < n ? s->nrunning : n) : 0, answered = 0;
	unsigned char *have = m ? calloc(m, 1) : NULL;
	if (!have)
		m = 0;
	for (unsigned i = 0; i < n; i++)
		io_result_init(&out[i]);
	for (unsigned i = 0; i < m; i++) {
		if (!w[i].snap && !(w[i].snap = malloc(sizeof *w[i].snap)))
			have[i] = 1; /* no room for a copy: left out, as a worker that does not answer */
	}
	/* the release publishes the snap buffers to the workers that see the new number */
	unsigned req = atomic_load(&s->ctl.snap_req) + 1;
	if (m)
		atomic_store_explicit(&s->ctl.snap_req, req, memory_order_release);
	uint64_t deadline = clock_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	while (have) {
		unsigned pending = 0;
		for (unsigned i = 0; i < m; i++) {
			if (have[i])
				continue;
			if (atomic_load_explicit(&w[i].snap_ack, memory_order_acquire) == req) {
				out[i] = *w[i].snap;
			} else if (atomic_load_explicit(&w[i].finished, memory_order_acquire)) {
				out[i] = *w[i].res; /* final; its series stay with the caller of the run */
				out[i].sec_iops = out[i].sec_bw = NULL;
				out[i].nsec = 0;
				out[i].log = NULL;
				out[i].prios = NULL;
				out[i].vstate = NULL;
			} else {
				pending++;
				continue;
			}
			have[i] = 1;
			answered++;
		}
		if (!pending || clock_now_ns() >= deadline)
			break;
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	free(have);
	pthread_mutex_unlock(&s->run_lock);
	return (int)answered;
}

int io_run_job(const struct io_job *job, struct io_job_result *results, char *err, size_t errlen)
{
	int st;
	struct io_session *s = io_session_open(job, &st, err, errlen);
	if (!s) {
		for (unsigned i = 0; i < job->numjobs; i++)
			io_result_init(&results[i]);
		return st;
	}
	st = io_session_run(s, job, results, NULL, NULL, err, errlen);
	io_session_close(s);
	return st;
}
