/* disk under MPI, as IOR runs it: every rank writes then reads its own files (DIR/rank-<r>),
 * or its own region of one shared file (--shared-file), one phase per --rw: each phase one
 * pass of `nodemark disk`'s pass loop (disk/passes.h) on the same I/O engine. */
#include "mpi/workload.h"
#include "disk/passes.h"
#include "disk/record.h"
#include "io/engine.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/units.h"
#include "util/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PHASES 8

struct disk_state {
	enum io_rw rw[MAX_PHASES];
	unsigned nrw;
	struct io_job job;      /* the template: everything but rw */
	char target[4096];      /* DIR/rank-<r>, or the shared file */
	char dir[4096];         /* DIR as given */
	char workdir[4096];     /* rank 0 with --shared-file: the directory holding it */
	int made_target;        /* we created DIR/rank-<r>: remove it at the end */
	struct io_session *session;
};

/* The process's one disk workload (a command runs once): the option table points at it. */
static struct disk_state disk;

static void *disk_create(void)
{
	struct disk_state *s = &disk;
	memset(s, 0, sizeof *s);
	io_job_init(&s->job);
	s->rw[0] = IO_WRITE;
	s->rw[1] = IO_READ;
	s->nrw = 2;
	s->job.bs[DIR_READ] = s->job.bs[DIR_WRITE] = 1 << 20;
	s->job.size = 64ull << 20;
	s->job.iodepth = 4;
	return s;
}

/* --rw LIST: a phase per entry. */
static void parse_rw(const struct opt_iter *it, void *state)
{
	struct disk_state *s = state;
	char err[256];
	int cnt;
	char **v = opt_list(it, MAX_PHASES, "phases", &cnt);
	s->nrw = 0;
	for (int i = 0; i < cnt; i++) {
		if (io_rw_parse(v[i], &s->rw[s->nrw++]) < 0) {
			snprintf(err, sizeof err, "\"%s\": expected read, write, randread, randwrite, rw or randrw", v[i]);
			free_strv(v);
			opt_bad_value(it, err);
		}
	}
	free_strv(v);
}

/* --bs: both directions. */
static void parse_bs(const struct opt_iter *it, void *job)
{
	struct io_job *j = job;
	uint64_t n = opt_size(it);
	if (!n)
		opt_bad_value(it, "must be above 0");
	j->bs[DIR_READ] = j->bs[DIR_WRITE] = n;
}

static void parse_engine(const struct opt_iter *it, void *engine)
{
	if (io_engine_parse(it->arg, engine) < 0)
		opt_bad_value(it, io_engine_expected());
}

static void disk_positional(const char *word, void *state)
{
	struct disk_state *s = state;
	if (s->target[0])
		nm_usage_fail("unexpected argument \"%s\": one directory", word);
	snprintf(s->target, sizeof s->target, "%s", word);
}

/* nodemark disk's names for the same settings. */
static const struct cli_option disk_options[] = {
	CLI_CALL("rw", parse_rw, &disk,
		 CLI_HELP("LIST", "phases: write, read, randwrite, randread, rw, randrw (default write,read)")),
	CLI_CALL("bs", parse_bs, &disk.job, CLI_HELP("SIZE", "block size (default 1MiB)")),
	CLI_SIZE("size", &disk.job.size, .min = 1, CLI_HELP("SIZE", "bytes per rank and thread (default 64MiB)")),
	CLI_UINT("iodepth", &disk.job.iodepth, 1, 4096, CLI_HELP("N", "I/Os in flight per thread (default 4)")),
	CLI_UINT("jobs", &disk.job.numjobs, 1, 1024,
		 CLI_HELP("N", "threads per rank (default 1), as nodemark disk's --jobs")),
	CLI_UINT("numjobs", &disk.job.numjobs, 1, 1024, CLI_HELP("N", "the same as --jobs (fio's name)")),
	CLI_DURATION("runtime", &disk.job.runtime_ns, .min = 1, .seen = &disk.job.time_based,
		     CLI_HELP("DUR", "run each phase this long instead of --size once")),
	CLI_SET("direct", &disk.job.direct, DIRECT_ON,
		CLI_HELP(NULL, "O_DIRECT, or fail (default: O_DIRECT where it works)")),
	CLI_SET("buffered", &disk.job.direct, DIRECT_OFF, CLI_HELP(NULL, "never O_DIRECT")),
	CLI_CALL("engine", parse_engine, &disk.job.engine,
		 CLI_HELP("NAME", "auto, uring, psync, mmap, null (default auto)")),
	CLI_END,
};

static void disk_check(void *st, struct work_ctx *ctx)
{
	struct disk_state *s = st;
	char err[512];
	workload_check_dir(s->target, "disk");
	snprintf(s->dir, sizeof s->dir, "%s", s->target);
	ctx->dir = s->dir;
	s->job.rw = s->rw[0];
	s->job.targets[0] = s->target;
	s->job.ntargets = 1;
	if (io_job_check(&s->job, err, sizeof err) != IO_OK)
		nm_usage_fail("%s", err);
}

/* Rank 0: the shared file, as long as all ranks' regions, in a directory of our own. Holes are
 * filled by the first write phase (put write first when reading a shared file). */
static int disk_prepare_shared(void *st, struct work_ctx *ctx, char *err, size_t errlen)
{
	struct disk_state *s = st;
	static char path[4096];
	if (workdir_create(ctx->dir, s->workdir, sizeof s->workdir, err, errlen) < 0)
		return -1;
	if ((size_t)snprintf(path, sizeof path, "%s/shared", s->workdir) >= sizeof path)
		return nm_errf(err, errlen, "%s: path too long", s->workdir);
	uint64_t len = s->job.size * (uint64_t)ctx->size;
	if (space_check(s->workdir, len, err, errlen) < 0)
		return -1;
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return nm_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
	int rc = ftruncate(fd, (off_t)len);
	close(fd);
	if (rc < 0)
		return nm_errf(err, errlen, "%s: cannot size it to %llu bytes: %s", path, (unsigned long long)len,
			       strerror(errno));
	ctx->shared_path = path;
	return 0;
}

static int disk_prepare(void *st, struct work_ctx *ctx, char *err, size_t errlen)
{
	struct disk_state *s = st;
	int status;

	if (ctx->shared_file) {
		snprintf(s->target, sizeof s->target, "%s", ctx->shared_path);
		s->job.offset = s->job.size * (uint64_t)ctx->rank;
		s->job.files.allow_write_blockdev = 1; /* the file is ours: rank 0 made it */
	} else {
		if (workload_rank_dir(ctx->dir, ctx->rank, s->target, sizeof s->target, &s->made_target, err, errlen) < 0)
			return -1;
	}
	s->job.targets[0] = s->target;
	s->job.rw = IO_WRITE; /* opened writable: the phases may write */
	s->session = io_session_open(&s->job, &status, err, errlen);
	return s->session ? 0 : -1;
}

static unsigned disk_nphases(void *st)
{
	return ((struct disk_state *)st)->nrw;
}

/* --stonewall: the engine asks about ten times a second whether to go on; a rank stops there
 * once another rank is done, keeping what it did up to then. */
static int stonewall_progress(const struct disk_progress *p, void *arg)
{
	const struct work_ctx *ctx = arg;
	(void)p;
	return ctx->should_stop && ctx->should_stop();
}

static void disk_run(void *st, struct work_ctx *ctx, unsigned phase, struct work_phase *out)
{
	struct disk_state *s = st;
	struct io_job job = s->job;
	uint64_t bs = job.bs[DIR_READ];
	job.rw = s->rw[phase];
	/* "write 1MiB", "randread 4KiB": short names for tables and compare */
	if (bs % (1 << 20) == 0)
		snprintf(out->name, sizeof out->name, "%s %lluMiB", io_rw_name(job.rw), (unsigned long long)(bs >> 20));
	else if (bs % 1024 == 0)
		snprintf(out->name, sizeof out->name, "%s %lluKiB", io_rw_name(job.rw), (unsigned long long)(bs >> 10));
	else
		snprintf(out->name, sizeof out->name, "%s %lluB", io_rw_name(job.rw), (unsigned long long)bs);
	out->unit = "B";

	struct disk_test t = { .job = job };
	snprintf(t.name, sizeof t.name, "%s", out->name);
	struct disk_loop loop = { .passes = 1 };
	if (ctx->stonewall) {
		loop.on_progress = stonewall_progress;
		loop.progress_arg = ctx;
	}
	uint64_t t0 = clock_now_ns();
	int st2 = disk_run_tests(s->session, &t, 1, 1, &loop, out->errmsg, sizeof out->errmsg);
	uint64_t t1 = clock_now_ns();
	if (st2 != IO_OK) {
		out->status = st2 == IO_INTERRUPTED ? NM_EXIT_INTERRUPTED : NM_EXIT_FAILED;
		disk_test_free(&t, 1);
		return;
	}
	const char *target = s->target;
	disk_test_settings(out->settings, &t, &target, 1);
	const struct io_job_result *total = &t.total[0];
	out->bytes = total->dir[DIR_READ].bytes + total->dir[DIR_WRITE].bytes;
	out->ops = total->dir[DIR_READ].ios + total->dir[DIR_WRITE].ios;
	/* the workers' own first start and last end; the call's when the engine gives none */
	out->start_ns = total->start_ns ? total->start_ns : t0;
	out->end_ns = total->end_ns > out->start_ns ? total->end_ns : t1;
	disk_test_free(&t, 1);
}

static void disk_finish(void *st, struct work_ctx *ctx)
{
	struct disk_state *s = st;
	if (s->session)
		io_session_close(s->session);
	if (s->made_target)
		cleanup_now(s->target);
	if (s->workdir[0])
		cleanup_now(s->workdir);
}

const struct workload work_disk = {
	.name = "disk",
	.usage = "usage: nodemark-mpi disk DIR [options]\n"
		 "\n"
		 "Every rank does the same I/O on its own directory DIR/rank-<r> (created and removed;\n"
		 "DIR is usually on the shared filesystem under test), or on its own region of one\n"
		 "file with --shared-file, one phase per --rw. The aggregate is the total bytes over\n"
		 "(latest end - earliest start), as IOR computes it.\n"
		 "\n"
		 "Options:\n",
	.options = disk_options,
	.usage_rest = "With --stonewall every rank stops within about 0.1 s of the first rank being done.\n",
	.create = disk_create,
	.positional = disk_positional,
	.check = disk_check,
	.prepare_shared = disk_prepare_shared,
	.prepare = disk_prepare,
	.nphases = disk_nphases,
	.run = disk_run,
	.finish = disk_finish,
	.can_stonewall = 1,
};
