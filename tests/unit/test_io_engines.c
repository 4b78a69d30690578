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
	CHECK_EQ_STR(io_engine_choices(), "auto, uring, libaio, psync, sync, pvsync2, mmap, null, filecreate, filestat, "
					  "filedelete, ftruncate, falloc, cpuio, exec or net");
	CHECK_EQ_STR(io_engine_expected(), "expected auto, uring, libaio, psync, sync, pvsync2, mmap, null, filecreate, "
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
	CHECK(io_engine_parse_fio("pvsync2", &back) == 0 && back == test_engine("pvsync2")); /* its own: preadv2 */
	CHECK(io_engine_parse_fio("uring", &back) < 0); /* nodemark's name, not fio's */
	CHECK(io_engine_parse_fio("solarisaio", &back) < 0);
	for (unsigned i = 0; (e = io_engine_at(i)); i++) {
		CHECK(io_engine_parse_fio(io_engine_fio_name(e), &back) == 0 && back == e);
	}
	CHECK(io_engine_fio_default() == test_engine("psync"));
	CHECK_EQ_STR(io_engine_fio_name(test_engine("uring")), "io_uring");
}

/* An engine option set by name on the job's engine (as the front ends do). */
static void set_opt(struct io_job *j, const char *name, uint64_t n)
{
	const struct io_engine_option *o = io_engine_option_of(j->engine, name);
	CHECK(o != NULL);
	if (o)
		io_engine_option_set(j, j->engine, o, n, NULL);
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
	set_opt(&j, "cpuload", 50);
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_OK);
	j.engine = test_engine("net");
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "port=");
	set_opt(&j, "port", 8888);
	set_opt(&j, "listen", 1);
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_OK);
	j.rw = IO_RANDREAD;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	j.rw = IO_READ;
	j.engine = test_engine("exec");
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "program=");
}

/* Each engine's options live in the struct its file declares: the table's offsets stay inside
 * it, no two options share a place, and it fits the job's room for it. */
TEST(engine_options_fit_their_struct)
{
	const struct io_engine_ops *e;
	unsigned with = 0;
	for (unsigned i = 0; (e = io_engine_at(i)); i++) {
		CHECK_EQ_INT(e->options != NULL, e->options_size != 0);
		CHECK(e->options_size <= IO_ENGINE_OPTS_MAX);
		with += e->options != NULL;
		for (const struct io_engine_option *o = e->options; o && o->name; o++) {
			size_t w = o->type == IO_EOPT_STR ? sizeof(const char *) : sizeof(int);
			CHECK(o->off + w <= e->options_size);
			CHECK(io_engine_option_of(e, o->name) == o);
			for (const struct io_engine_option *p = e->options; p < o; p++)
				CHECK(p->off != o->off);
		}
	}
	CHECK(with >= 6); /* uring, libaio, filestat, cpuio, exec, net */
}

/* Options are set by name on one engine: its defaults come from its table, another engine's
 * options are not its, and a job copied by value carries them. */
TEST(engine_options_belong_to_one_engine)
{
	struct io_job j;
	struct io_engine_optbuf buf;
	io_job_init(&j);
	const struct io_engine_ops *uring = test_engine("uring"), *psync = test_engine("psync"),
				   *libaio = test_engine("libaio");
	/* auto: the engine auto may pick that has it; an engine without it: none */
	CHECK(io_job_option_engine(&j, "sqthread_poll") == uring);
	CHECK(io_job_option_engine(&j, "nowait") == NULL);
	CHECK(io_job_option_engine(&j, "no_such_option") == NULL);
	j.engine = psync;
	CHECK(io_job_option_engine(&j, "hipri") == NULL);
	j.engine = uring;
	CHECK(io_job_option_engine(&j, "hipri") == uring);
	CHECK(io_engine_option_of(psync, "hipri") == NULL);
	CHECK(io_engine_option_of(NULL, "hipri") == NULL);
	/* nothing set: each engine's defaults (nodemark registers files and buffers) */
	const int *u = io_engine_opts_get(&j, uring, &buf);
	const struct io_engine_option *fixedbufs = io_engine_option_of(uring, "fixedbufs");
	const struct io_engine_option *hipri = io_engine_option_of(uring, "hipri");
	CHECK_EQ_INT(u[fixedbufs->off / sizeof(int)], 1);
	CHECK_EQ_INT(u[hipri->off / sizeof(int)], 0);
	set_opt(&j, "hipri", 1);
	struct io_job copy = j;
	u = io_engine_opts_get(&copy, uring, &buf);
	CHECK_EQ_INT(u[hipri->off / sizeof(int)], 1);
	CHECK_EQ_INT(u[fixedbufs->off / sizeof(int)], 1);
	/* fio's defaults: no registered buffers */
	io_engine_options_fio_defaults(&j);
	u = io_engine_opts_get(&j, uring, &buf);
	CHECK_EQ_INT(u[fixedbufs->off / sizeof(int)], 0);
	CHECK_EQ_INT(u[hipri->off / sizeof(int)], 0);
	/* the job's options are uring's: libaio sees its own defaults, and setting one of libaio's
	 * drops uring's */
	const struct io_engine_option *nowait = io_engine_option_of(libaio, "nowait");
	const int *a = io_engine_opts_get(&j, libaio, &buf);
	CHECK_EQ_INT(a[nowait->off / sizeof(int)], 0);
	set_opt(&j, "hipri", 1);
	j.engine = libaio;
	set_opt(&j, "nowait", 1);
	CHECK(j.eopts.of == libaio);
	u = io_engine_opts_get(&j, uring, &buf);
	CHECK_EQ_INT(u[hipri->off / sizeof(int)], 0);
	a = io_engine_opts_get(&j, libaio, &buf);
	CHECK_EQ_INT(a[nowait->off / sizeof(int)], 1);
}

/* A command's flag (disk's --sqpoll) is resolved by the engine layer from the engine's own
 * flags table: the option it sets, on the job's engine or the one auto may pick; an engine
 * without it is refused with the engine that has it. */
TEST(engine_flags_resolve_in_the_engine_layer)
{
	struct io_job j;
	struct io_engine_optbuf buf;
	char err[256];
	const struct io_engine_ops *uring = test_engine("uring"), *psync = test_engine("psync");
	const struct io_engine_option *sqpoll = io_engine_option_of(uring, "sqthread_poll");
	const struct io_engine_option *hipri = io_engine_option_of(uring, "hipri");
	/* every flag names an option of its own engine, with help */
	const struct io_engine_ops *e;
	unsigned nflags = 0;
	for (unsigned i = 0; (e = io_engine_at(i)); i++)
		for (const struct io_engine_flag *f = e->flags; f && f->flag; f++, nflags++) {
			CHECK(io_engine_option_of(e, f->option) != NULL);
			CHECK(f->help && *f->help);
			CHECK_EQ_STR(io_engine_flag_help(f->flag), f->help);
		}
	CHECK(nflags >= 2);
	CHECK(io_engine_flag_help("no_such_flag") == NULL);
	io_job_init(&j); /* auto: uring's options */
	CHECK_EQ_INT(io_job_set_flag(&j, "sqpoll", err, sizeof err), 0);
	CHECK_EQ_INT(io_job_set_flag(&j, "hipri", err, sizeof err), 0);
	CHECK(j.eopts.of == uring);
	const int *u = io_engine_opts_get(&j, uring, &buf);
	CHECK_EQ_INT(u[sqpoll->off / sizeof(int)], 1);
	CHECK_EQ_INT(u[hipri->off / sizeof(int)], 1);
	io_job_init(&j);
	j.engine = psync;
	CHECK_EQ_INT(io_job_set_flag(&j, "sqpoll", err, sizeof err), -1);
	CHECK_EQ_STR(err, "--sqpoll: the psync engine has no such option (uring has)");
	CHECK(j.eopts.of == NULL);
	/* auto's help names the engines auto picks from */
	CHECK_EQ_STR(io_engine_auto_text(), "picks per target: uring for O_DIRECT and block devices; buffered "
					    "files (and tmpfs, always buffered): psync at iodepth 1, uring deeper");
}
