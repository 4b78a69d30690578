/* The engine table: names, aliases and capabilities come from one place. */
#include "io/engine.h"
#include "test.h"

#include <string.h>

TEST(engine_table_names_parse_back)
{
	const struct io_engine_ops *e;
	enum io_engine_kind k, back;
	unsigned n = 0;
	for (unsigned i = 0; (e = io_engine_at(i, &k)); i++, n++) {
		CHECK(io_engine_parse(e->name, &back) == 0 && back == k);
		CHECK_EQ_STR(io_engine_name(k), e->name);
		CHECK(strstr(io_engine_choices(), e->name) != NULL);
		for (unsigned a = 0; a < 3 && e->aliases[a]; a++)
			CHECK(io_engine_parse(e->aliases[a], &back) == 0 && back == k);
		CHECK(e->setup && e->queue && e->cleanup);
		if (!(e->caps & IO_ENGINE_SYNC))
			CHECK(e->submit && e->reap); /* an async engine needs both */
	}
	CHECK(n >= 4);
	CHECK(io_engine_parse("auto", &back) == 0 && back == ENGINE_AUTO);
	CHECK(io_engine_ops(ENGINE_AUTO) == NULL);
	CHECK(io_engine_parse("libaio", &back) < 0);
	CHECK_EQ_STR(io_engine_choices(), "auto, uring, psync, mmap, null, filecreate, filestat, filedelete, "
					  "ftruncate, falloc, cpuio, exec or net");
	CHECK_EQ_STR(io_engine_expected(), "expected auto, uring, psync, mmap, null, filecreate, filestat, "
					   "filedelete, ftruncate, falloc, cpuio, exec or net");
}

TEST(engine_capabilities_drive_the_checks)
{
	CHECK(io_engine_caps(ENGINE_NULL) & IO_ENGINE_DISKLESS);
	CHECK(io_engine_caps(ENGINE_MMAP) & IO_ENGINE_NO_DIRECT);
	CHECK(io_engine_caps(ENGINE_PSYNC) & IO_ENGINE_SYNC);
	CHECK(!(io_engine_caps(ENGINE_URING) & IO_ENGINE_SYNC));
	CHECK_EQ_INT((int)io_engine_caps(ENGINE_AUTO), 0);
	/* fio's engines that are not block I/O say what they need of the rest of io/ */
	CHECK(io_engine_caps(ENGINE_FILECREATE) & IO_ENGINE_NO_LAYOUT);
	CHECK(io_engine_caps(ENGINE_FILESTAT) & IO_ENGINE_NO_OPEN);
	CHECK(!(io_engine_caps(ENGINE_FILESTAT) & IO_ENGINE_NO_LAYOUT));
	CHECK(io_engine_caps(ENGINE_CPUIO) & IO_ENGINE_NO_DATA);
	CHECK(io_engine_caps(ENGINE_NET) & IO_ENGINE_DISKLESS);
	CHECK(!(io_engine_caps(ENGINE_NET) & IO_ENGINE_NO_DATA));
	char err[256];
	struct io_job j;
	io_job_init(&j);
	j.targets[0] = "/tmp";
	j.ntargets = 1;
	j.size = 1 << 20;
	j.engine = ENGINE_MMAP;
	j.direct = DIRECT_ON;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "the mmap engine cannot do O_DIRECT");
	/* a diskless engine needs no target, but a size or a runtime */
	io_job_init(&j);
	j.engine = ENGINE_NULL;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "the null engine needs a size or a runtime");
	j.size = 1 << 20;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_OK);
	/* an engine's own options are checked before anything runs */
	j.engine = ENGINE_CPUIO;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "cpuload");
	j.eng.cpuload = 50;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_OK);
	j.engine = ENGINE_NET;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "port=");
	j.eng.port = 8888;
	j.eng.listen = 1;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_OK);
	j.rw = IO_RANDREAD;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	j.rw = IO_READ;
	j.engine = ENGINE_EXEC;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "program=");
}
