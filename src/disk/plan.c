#include "disk/plan.h"
#include "io/engine.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>

void disk_plan_init(struct disk_plan *p)
{
	memset(p, 0, sizeof *p);
	io_job_init(&p->base);
}

static void plan_profile(struct disk_plan *p)
{
	const struct disk_profile *prof = p->profile;
	unsigned ntargets = p->base.ntargets ? p->base.ntargets : 1;
	p->ntests = 0;
	for (int write = 0; write < 2; write++) {
		if (write && !p->writable)
			break;
		for (unsigned i = 0; i < prof->n; i++) {
			const struct disk_profile_test *c = &prof->tests[i];
			struct disk_test *t = &p->tests[p->ntests++];
			memset(t, 0, sizeof *t);
			t->job = p->base;
			t->job.rw = c->random ? (write ? IO_RANDWRITE : IO_RANDREAD) : (write ? IO_WRITE : IO_READ);
			t->job.bs[DIR_READ] = t->job.bs[DIR_WRITE] = c->bs;
			t->job.iodepth = c->qd;
			t->job.numjobs = c->threads * ntargets; /* T threads on every target */
			t->job.time_based = 1;
			snprintf(t->name, sizeof t->name, "%s %s", c->name, write ? "write" : "read");
		}
	}
}

static void plan_custom(struct disk_plan *p)
{
	const struct io_job *j = &p->base;
	struct disk_test *t = &p->tests[0];
	char bs[32];
	memset(t, 0, sizeof *t);
	t->job = *j;
	t->job.time_based = j->runtime_ns != 0;
	uint64_t v = j->bs[DIR_READ];
	/* a compact block size for the name: 4k, 1m, 1000 */
	if (v % (1 << 20) == 0)
		snprintf(bs, sizeof bs, "%llum", (unsigned long long)(v >> 20));
	else if (v % 1024 == 0)
		snprintf(bs, sizeof bs, "%lluk", (unsigned long long)(v >> 10));
	else
		snprintf(bs, sizeof bs, "%llu", (unsigned long long)v);
	snprintf(t->name, sizeof t->name, "%s %s Q%uT%u", io_rw_name(j->rw), bs, j->iodepth, j->numjobs);
	p->ntests = 1;
}

int disk_plan_build(struct disk_plan *p, char *err, size_t errlen)
{
	struct io_job *b = &p->base;
	if (p->profile) {
		if (!p->have_runtime)
			b->runtime_ns = DISK_PROFILE_RUNTIME_NS;
		if (!p->have_loops)
			b->loops = DISK_PROFILE_LOOPS;
		if (!p->have_interval)
			p->interval_ns = DISK_PROFILE_INTERVAL_NS;
		b->files.shared_file = 1; /* CrystalDiskMark: one test file, every thread on it */
	}
	if (!p->have_size)
		b->filesize = DISK_PROFILE_FILE_SIZE; /* the test file in a directory; files and devices: all */
	/* What the engine can do comes from the engine table, never from its name. */
	unsigned caps = io_engine_caps(b->engine);
	int may_direct = !(caps & (IO_ENGINE_NO_DIRECT | IO_ENGINE_DISKLESS));
	if (b->direct != DIRECT_OFF && may_direct && (b->bs[DIR_READ] % 512 || b->bs[DIR_WRITE] % 512))
		return nm_errf(err, errlen, "--bs %llu: O_DIRECT needs a multiple of 512 (or --buffered)",
			       (unsigned long long)b->bs[DIR_READ]);
	if (b->direct == DIRECT_ON && (caps & IO_ENGINE_NO_DIRECT))
		return nm_errf(err, errlen, "--direct: the %s engine cannot do O_DIRECT", io_engine_name(b->engine));
	if (!p->profile && io_job_writes(b) && !p->writable)
		return nm_errf(err, errlen, "writing to a file or block device needs --allow-write=PATH (a mounted "
					    "device is never written)");
	b->files.allow_write_blockdev = p->writable;
	b->place.numa_place = b->place.cpus == NULL;

	/* Custom jobs run their loops as separate passes too, so each pass is a sample. */
	p->passes = b->loops;
	b->loops = 1;
	p->preparing = p->profile != NULL;
	if (p->profile)
		plan_profile(p);
	else
		plan_custom(p);
	return 0;
}

struct io_job disk_plan_layout(const struct disk_plan *p)
{
	struct io_job layout = p->tests[0].job;
	if (p->profile && p->writable)
		layout.rw = IO_RW; /* opened for writing: the write tests come later */
	return layout;
}

unsigned disk_plan_ntargets(const struct disk_plan *p)
{
	return p->base.ntargets ? p->base.ntargets : 1;
}

const char *const *disk_plan_targets(const struct disk_plan *p)
{
	static const char *const null_target[] = { "null" };
	return p->base.ntargets ? p->base.targets : null_target;
}

uint64_t disk_plan_expected_ns(const struct disk_plan *p)
{
	const struct io_job *b = &p->base;
	if (!b->runtime_ns)
		return 0;
	uint64_t per_pass = b->runtime_ns + b->ramp_ns;
	return p->ntests * ((p->passes + (unsigned)p->preparing) * per_pass + p->passes * p->interval_ns);
}

void disk_plan_free(struct disk_plan *p)
{
	for (unsigned i = 0; i < p->ntests; i++)
		disk_test_free(&p->tests[i], disk_plan_ntargets(p));
}
