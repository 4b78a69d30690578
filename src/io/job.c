/* The job: defaults, names and the checks that need no file. */
#include "io/engine.h"
#include "io/internal.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>

void io_job_init(struct io_job *job)
{
	memset(job, 0, sizeof *job);
	snprintf(job->name, sizeof job->name, "nodemark");
	job->rw = IO_READ;
	job->rwmix_read = 50;
	job->bs[DIR_READ] = job->bs[DIR_WRITE] = job->bs[DIR_TRIM] = 4096;
	job->iodepth = 1;
	job->numjobs = 1;
	job->nrfiles = 1;
	job->loops = 1;
	job->pattern.randrepeat = 1;
	job->engine = NULL;         /* auto */
	job->direct = DIRECT_AUTO;
	/* eopts: none set; each engine's table says its defaults (io_engine_opts_get) */
	job->pace.lat_percentile = 100;
}

static const char *const rw_names[] = {
	[IO_READ] = "read", [IO_WRITE] = "write", [IO_RANDREAD] = "randread",
	[IO_RANDWRITE] = "randwrite", [IO_RW] = "rw", [IO_RANDRW] = "randrw",
	[IO_TRIM] = "trim", [IO_RANDTRIM] = "randtrim", [IO_TRIMWRITE] = "trimwrite",
	[IO_RANDTRIMWRITE] = "randtrimwrite",
};

const char *io_rw_name(enum io_rw rw)
{
	return (unsigned)rw < sizeof rw_names / sizeof rw_names[0] ? rw_names[rw] : NULL;
}

int io_rw_parse(const char *s, enum io_rw *out)
{
	for (unsigned i = 0; i < sizeof rw_names / sizeof rw_names[0]; i++)
		if (rw_names[i] && strcmp(s, rw_names[i]) == 0) {
			*out = (enum io_rw)i;
			return 0;
		}
	/* fio's spellings */
	if (strcmp(s, "readwrite") == 0) {
		*out = IO_RW;
		return 0;
	}
	return -1;
}

/* A trim changes the data as a write does: the same guards apply (fio's readonly refuses both). */
int io_job_writes(const struct io_job *job)
{
	if (job->verify.only) /* fio's verify_only: the blocks a write would write are only read */
		return 0;
	return job->rw == IO_WRITE || job->rw == IO_RANDWRITE || io_job_trims(job) ||
	       ((job->rw == IO_RW || job->rw == IO_RANDRW) && job->rwmix_read < 100);
}

int io_job_trims(const struct io_job *job)
{
	return job->rw == IO_TRIM || job->rw == IO_RANDTRIM || job->rw == IO_TRIMWRITE || job->rw == IO_RANDTRIMWRITE;
}

/* A size of a block-size mix (bssplit, bsrange): at most the job's largest, O_DIRECT-aligned. */
static int mix_size_bad(const struct io_job *job, uint64_t bs, char *err, size_t errlen)
{
	uint64_t max = job->bs[DIR_READ] > job->bs[DIR_WRITE] ? job->bs[DIR_READ] : job->bs[DIR_WRITE];
	if (bs == 0 || bs > max)
		return nm_errf(err, errlen, "block size %llu in a mix: expected 1 to %llu bytes", (unsigned long long)bs,
			       (unsigned long long)max), 1;
	if (job->direct == DIRECT_ON && bs % 512)
		return nm_errf(err, errlen, "block size %llu: O_DIRECT needs a multiple of 512", (unsigned long long)bs), 1;
	return 0;
}

int io_job_check(const struct io_job *job, char *err, size_t errlen)
{
	if (!io_rw_name(job->rw))
		return nm_errf(err, errlen, "unknown rw %d", (int)job->rw), IO_BAD_JOB;
	if (job->rwmix_read > 100)
		return nm_errf(err, errlen, "rwmix_read %u: expected a percentage 0-100", job->rwmix_read), IO_BAD_JOB;
	for (int d = 0; d < DIR_COUNT; d++) {
		uint64_t bs = job->bs[d];
		if (bs == 0)
			return nm_errf(err, errlen, "block size 0: expected at least 1 byte"), IO_BAD_JOB;
		if (bs > (256u << 20))
			return nm_errf(err, errlen, "block size %llu: at most 256 MiB", (unsigned long long)bs), IO_BAD_JOB;
		if (job->direct == DIRECT_ON && bs % 512)
			return nm_errf(err, errlen, "block size %llu: O_DIRECT needs a multiple of 512",
				       (unsigned long long)bs), IO_BAD_JOB;
	}
	for (int d = 0; d < DIR_COUNT; d++) {
		for (unsigned i = 0; i < job->pattern.nbssplit[d]; i++)
			if (mix_size_bad(job, job->pattern.bssplit[d][i].bs, err, errlen))
				return IO_BAD_JOB;
		if (job->pattern.bs_min[d] && mix_size_bad(job, job->pattern.bs_min[d], err, errlen))
			return IO_BAD_JOB;
		if (job->direct == DIRECT_ON && job->pattern.blockalign[d] % 512)
			return nm_errf(err, errlen, "blockalign %llu: O_DIRECT needs a multiple of 512",
				       (unsigned long long)job->pattern.blockalign[d]), IO_BAD_JOB;
	}
	if (job->iodepth < 1 || job->iodepth > 65536)
		return nm_errf(err, errlen, "iodepth %u: expected 1 to 65536", job->iodepth), IO_BAD_JOB;
	if (job->numjobs < 1 || job->numjobs > 4096)
		return nm_errf(err, errlen, "numjobs %u: expected 1 to 4096", job->numjobs), IO_BAD_JOB;
	if (job->nrfiles < 1 || job->nrfiles > IO_MAX_NRFILES)
		return nm_errf(err, errlen, "nrfiles %u: expected 1 to %u", job->nrfiles, IO_MAX_NRFILES), IO_BAD_JOB;
	if (job->loops < 1)
		return nm_errf(err, errlen, "loops 0: expected at least 1"), IO_BAD_JOB;
	unsigned caps = io_engine_caps(job->engine);
	if (!(caps & IO_ENGINE_DISKLESS) && job->ntargets == 0)
		return nm_errf(err, errlen, "no target: name a directory, file or block device"), IO_BAD_JOB;
	if (job->ntargets > IO_MAX_TARGETS)
		return nm_errf(err, errlen, "%u targets: at most %d", job->ntargets, IO_MAX_TARGETS), IO_BAD_JOB;
	if ((caps & IO_ENGINE_NO_DIRECT) && job->direct == DIRECT_ON)
		return nm_errf(err, errlen, "the %s engine cannot do O_DIRECT", io_engine_name(job->engine)), IO_BAD_JOB;
	if (job->time_based && !job->runtime_ns)
		return nm_errf(err, errlen, "time-based without a runtime"), IO_BAD_JOB;
	if (io_job_trims(job) && job->engine && !(caps & IO_ENGINE_TRIM))
		return nm_errf(err, errlen, "rw=%s: the %s engine does not trim (psync, uring, falloc and null do)",
			       io_rw_name(job->rw), io_engine_name(job->engine)), IO_BAD_JOB;
	const struct io_engine_ops *ops = job->engine;
	struct io_engine_optbuf opts;
	if (ops && ops->check && ops->check(job, io_engine_opts_get(job, ops, &opts), err, errlen) < 0)
		return IO_BAD_JOB;
	if (io_verify_check_job(job, err, errlen) < 0)
		return IO_BAD_JOB;
	if ((caps & IO_ENGINE_DISKLESS) && !job->size && !job->time_based && !job->runtime_ns)
		return nm_errf(err, errlen, "the %s engine needs a size or a runtime", io_engine_name(job->engine)),
		       IO_BAD_JOB;
	return IO_OK;
}
