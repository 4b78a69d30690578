/* The engine table: names, aliases and capabilities come from one place. */
#include "io/engine.h"
#include "test.h"

#include <string.h>

TEST(engine_table_names_parse_back)
{
	const struct io_engine_ops *e, *back;
	unsigned n = 0;
	for (unsigned i = 0; (e = io_engine_at(i)); i++, n++) {
		CHECK(io_engine_parse(e->name, &back) == 0 && back == e);
		CHECK_EQ_STR(io_engine_name(e), e->name);
		CHECK(strstr(io_engine_choices(), e->name) != NULL);
		for (unsigned a = 0; a < 3 && e->aliases[a]; a++)
			CHECK(io_engine_parse(e->aliases[a], &back) == 0 && back == e);
		CHECK(e->setup && e->queue && e->cleanup);
		if (!(e->caps & IO_ENGINE_SYNC))
			CHECK(e->submit && e->reap); /* an async engine needs both */
	}
	CHECK(n >= 4);
	CHECK(io_engine_parse("auto", &back) == 0 && back == NULL);
	CHECK_EQ_STR(io_engine_name(NULL), "auto");
	CHECK(io_engine_parse("posixaio", &back) < 0); /* a fio name only: nodemark's own are uring's */
	CHECK_EQ_STR(io_engine_choices(), "auto, uring, libaio, psync, mmap, null, filecreate, filestat, "
					  "filedelete, ftruncate, falloc, cpuio, exec or net");
	CHECK_EQ_STR(io_engine_expected(), "expected auto, uring, libaio, psync, mmap, null, filecreate, "
					   "filestat, filedelete, ftruncate, falloc, cpuio, exec or net");
}

/* fio's ioengine= names come from the engines' own files: every one parses back to its
 * engine, in table order, with fio's default among them. */
TEST(engine_table_maps_fio_names)
{
	const struct io_engine_ops *e, *back;
	const char *name;
	unsigned n = 0;
	for (unsigned i = 0; (name = io_engine_fio_name_at(i)); i++, n++)
		CHECK(io_engine_parse_fio(name, &back) == 0 && back != NULL);
	CHECK(n > 12); /* more fio names than engines: libaio, sync, ... */
	/* libaio is Linux AIO, not io_uring: buffered I/O is done inside io_submit, as in fio */
	CHECK(io_engine_parse_fio("libaio", &back) == 0 && back == test_engine("libaio"));
	CHECK(io_engine_parse_fio("posixaio", &back) == 0 && back == test_engine("uring"));
	CHECK(io_engine_parse_fio("pvsync2", &back) == 0 && back == test_engine("psync"));
	CHECK(io_engine_parse_fio("uring", &back) < 0); /* nodemark's name, not fio's */
	CHECK(io_engine_parse_fio("solarisaio", &back) < 0);
	for (unsigned i = 0; (e = io_engine_at(i)); i++) {
		CHECK(io_engine_parse_fio(io_engine_fio_name(e), &back) == 0 && back == e);
	}
	CHECK(io_engine_fio_default() == test_engine("psync"));
	CHECK_EQ_STR(io_engine_fio_name(test_engine("uring")), "io_uring");
}

TEST(engine_capabilities_drive_the_checks)
{
	CHECK(io_engine_caps(test_engine("null")) & IO_ENGINE_DISKLESS);
	CHECK(io_engine_caps(test_engine("mmap")) & IO_ENGINE_NO_DIRECT);
	CHECK(io_engine_caps(test_engine("psync")) & IO_ENGINE_SYNC);
	CHECK(!(io_engine_caps(test_engine("uring")) & IO_ENGINE_SYNC));
	CHECK_EQ_INT((int)io_engine_caps(NULL), 0);
	/* fio's engines that are not block I/O say what they need of the rest of io/ */
	CHECK(io_engine_caps(test_engine("filecreate")) & IO_ENGINE_NO_LAYOUT);
	CHECK(io_engine_caps(test_engine("filestat")) & IO_ENGINE_NO_OPEN);
	CHECK(!(io_engine_caps(test_engine("filestat")) & IO_ENGINE_NO_LAYOUT));
	CHECK(io_engine_caps(test_engine("cpuio")) & IO_ENGINE_NO_DATA);
	CHECK(io_engine_caps(test_engine("net")) & IO_ENGINE_DISKLESS);
	CHECK(!(io_engine_caps(test_engine("net")) & IO_ENGINE_NO_DATA));
	char err[256];
	struct io_job j;
	io_job_init(&j);
	j.targets[0] = "/tmp";
	j.ntargets = 1;
	j.size = 1 << 20;
	j.engine = test_engine("mmap");
	j.direct = DIRECT_ON;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "the mmap engine cannot do O_DIRECT");
	/* a diskless engine needs no target, but a size or a runtime */
	io_job_init(&j);
	j.engine = test_engine("null");
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "the null engine needs a size or a runtime");
	j.size = 1 << 20;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_OK);
	/* an engine's own options are checked before anything runs */
	j.engine = test_engine("cpuio");
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "cpuload");
	j.eng.cpuload = 50;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_OK);
	j.engine = test_engine("net");
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "port=");
	j.eng.port = 8888;
	j.eng.listen = 1;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_OK);
	j.rw = IO_RANDREAD;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	j.rw = IO_READ;
	j.engine = test_engine("exec");
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "program=");
}
