/* fio's command lines and job files into plans (cmd/fio_parse.c). */
#include "test.h"

#include <stdlib.h>

#include "fio/iolog_state.h"
#include "fio/longopts.h"
#include "fio/plan.h"
#include "fio/vstate.h"
#include "io/engine.h"

static int parse_argv(struct fio_plan *p, const char *const *args, char *err, size_t errlen)
{
	int n = 0;
	while (args[n])
		n++;
	fio_plan_init(p);
	return fio_parse_args(p, n, (char **)args, err, errlen);
}

static int parse_text(struct fio_plan *p, const char *text, char *err, size_t errlen)
{
	fio_plan_init(p);
	if (fio_parse_jobfile_text(p, text, strlen(text), "t.fio", err, errlen) < 0)
		return -1;
	return fio_plan_finish(p, err, errlen);
}

TEST(fio_cli_globals_apply_to_every_job)
{
	const char *args[] = { "--bs=8k", "--size=1m", "--name=a", "--rw=randread", "--name=b", "--bs=16k", NULL };
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.njobs, 2);
	CHECK_EQ_STR(p.jobs[0].name, "a");
	CHECK_EQ_INT(p.jobs[0].io.rw, IO_RANDREAD);
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 8192);
	CHECK_EQ_U64(p.jobs[0].io.size, 1 << 20);
	CHECK_EQ_U64(p.jobs[1].io.bs[DIR_WRITE], 16384);
	CHECK_EQ_INT(p.jobs[1].io.rw, IO_READ);
	CHECK_EQ_INT(p.globals.n, 2);
	CHECK_EQ_STR(p.globals.kv[0].key, "bs");
	/* fio lists --name among the job's own options */
	CHECK_EQ_STR(p.jobs[1].opts.kv[0].key, "name");
	fio_plan_free(&p);
}

TEST(fio_defaults_are_fios_not_nodemarks)
{
	const char *args[] = { "--name=a", "--size=4k", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.jobs[0].io.direct, DIRECT_OFF); /* fio is buffered unless direct=1 */
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 4096);
	CHECK_EQ_INT(p.jobs[0].io.iodepth, 1);
	CHECK_EQ_INT(p.jobs[0].io.rwmix_read, 50);
	CHECK_EQ_INT(p.jobs[0].io.pattern.randrepeat, 1);
	CHECK_EQ_INT(p.jobs[0].clat_percentiles, 1);
	fio_plan_free(&p);
}

TEST(fio_sizes_follow_kb_base)
{
	const char *args[] = { "--kb_base=1000", "--name=a", "--size=4k", "--bs=1k", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_U64(p.jobs[0].io.size, 4000);
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 1000);
	fio_plan_free(&p);

	/* as in fio, kb_base reaches only the sizes after it */
	const char *args2[] = { "--name=a", "--size=4k", "--kb_base=1000", "--bs=1KiB", NULL };
	CHECK(parse_argv(&p, args2, err, sizeof err) == 0);
	CHECK_EQ_U64(p.jobs[0].io.size, 4096);
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 1024);
	fio_plan_free(&p);

	/* the size stays 4096 with 1000-byte blocks: the engine ends a pass at the file's last
	 * whole block (4000 bytes), or goes on to the block that reaches it (norandommap: 5000),
	 * as fio does */
	const char *args4[] = { "--name=a", "--size=4k", "--kb_base=1000", "--bs=1k", NULL };
	CHECK(parse_argv(&p, args4, err, sizeof err) == 0);
	CHECK_EQ_U64(p.jobs[0].io.size, 4096);
	fio_plan_free(&p);

	const char *args3[] = { "--name=a", "--size=4kB", NULL };
	CHECK(parse_argv(&p, args3, err, sizeof err) == 0);
	CHECK_EQ_U64(p.jobs[0].io.size, 4096); /* fio's default: every prefix is 1024 */
	fio_plan_free(&p);
}

TEST(fio_bs_per_direction_and_rw_offsets)
{
	const char *args[] = { "--name=a", "--bs=4k,64k", "--rw=read:8k", "--rwmixwrite=30", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 4096);
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_WRITE], 65536);
	CHECK_EQ_U64(p.jobs[0].io.pattern.rw_seq_skip, 8192);
	CHECK_EQ_INT(p.jobs[0].io.rwmix_read, 70);
	fio_plan_free(&p);
}

TEST(fio_filename_lists_become_targets)
{
	const char *args[] = { "--name=a", "--filename=/tmp/x:/tmp/y", "--cpus_allowed=0-1", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.jobs[0].io.ntargets, 2);
	CHECK_EQ_STR(p.jobs[0].io.targets[1], "/tmp/y");
	CHECK_EQ_STR(p.jobs[0].io.place.cpus, "0-1");
	fio_plan_free(&p);
}

TEST(fio_groups_follow_stonewall_and_new_group)
{
	const char *args[] = { "--name=a", "--stonewall", "--name=b", "--name=c", "--stonewall",
			       "--name=d", "--new_group", "--name=e", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.jobs[0].io.report.group, 0); /* the first job's stonewall opens no new group */
	CHECK_EQ_INT(p.jobs[1].io.report.group, 0);
	CHECK_EQ_INT(p.jobs[2].io.report.group, 1);
	CHECK_EQ_INT(p.jobs[3].io.report.group, 2);
	CHECK_EQ_INT(p.jobs[4].io.report.group, 2);
	fio_plan_free(&p);
}

TEST(fio_unsupported_option_is_an_error_naming_it)
{
	const char *args[] = { "--name=a", "--verify=crc64", NULL };
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_argv(&p, args, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "--verify");
	CHECK_CONTAINS(err, "not implemented");
	fio_plan_free(&p);

	const char *args2[] = { "--name=a", "--frobnicate=1", NULL };
	CHECK(parse_argv(&p, args2, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "--frobnicate");
	fio_plan_free(&p);
}

TEST(fio_bookkeeping_option_is_a_warning)
{
	const char *args[] = { "--name=a", "--iodepth_low=8", "--gtod_reduce=1", "--gtod_reduce=1", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.nwarnings, 2); /* once per option name */
	CHECK_CONTAINS(p.warnings[0], "iodepth_low");
	CHECK_CONTAINS(p.warnings[1], "gtod_reduce");
	fio_plan_free(&p);
}

TEST(fio_bad_values_name_job_and_option)
{
	const char *args[] = { "--name=j1", "--bs=4q", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "j1");
	CHECK_CONTAINS(err, "bs");
	fio_plan_free(&p);

	const char *args2[] = { "--name=j1", "--rw=trimread", NULL };
	CHECK(parse_argv(&p, args2, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "randtrimwrite"); /* the list of modes, trims included */
	fio_plan_free(&p);

	const char *args3[] = { "--name=j1", "--size=50%", NULL };
	CHECK(parse_argv(&p, args3, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "percentages");
	fio_plan_free(&p);
}

TEST(fio_output_switches)
{
	const char *args[] = { "--output-format=json,normal", "--output", "out.json", "--name=a", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.formats, FIO_OUT_JSON | FIO_OUT_NORMAL);
	CHECK_EQ_STR(p.output, "out.json");
	fio_plan_free(&p);

	const char *args2[] = { "--output-format=xml", "--name=a", NULL };
	CHECK(parse_argv(&p, args2, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "xml");
	fio_plan_free(&p);
}

TEST(fio_no_jobs_is_an_error)
{
	const char *args[] = { "--size=1m", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "no jobs");
	fio_plan_free(&p);
}

TEST(fio_jobfile_sections_globals_and_comments)
{
	const char *text = "; a comment\n"
			   "# another\n"
			   "[global]\n"
			   "ioengine=psync\n"
			   "size = 2m   ; trailing comment\n"
			   "[seq-read]\n"
			   "rw=read\n"
			   "numjobs=2\n"
			   "[global]\n"
			   "bs=8k\n"
			   "[rand write]\n"
			   "rw=randwrite\n"
			   "stonewall\n"
			   "wait_for=seq-read\n";
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_text(&p, text, err, sizeof err) == 0);
	CHECK_EQ_INT(p.njobs, 2);
	CHECK_EQ_STR(p.jobs[0].name, "seq-read");
	CHECK_EQ_U64(p.jobs[0].io.size, 2 << 20);
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 4096); /* the later [global] does not reach back */
	CHECK_EQ_INT(p.jobs[0].io.numjobs, 2);
	CHECK_EQ_INT(p.jobs[0].io.engine, test_engine("psync"));
	CHECK_EQ_STR(p.jobs[1].name, "rand write");
	CHECK_EQ_U64(p.jobs[1].io.bs[DIR_READ], 8192);
	CHECK_EQ_INT(p.jobs[1].io.report.group, 1);
	CHECK_EQ_STR(p.jobs[1].wait_for, "seq-read");
	/* job files do not list the section name among the job's options */
	CHECK_EQ_INT(p.jobs[1].opts.n, 3);
	CHECK_EQ_STR(p.jobs[1].opts.kv[1].key, "stonewall");
	CHECK(p.jobs[1].opts.kv[1].value == NULL);
	fio_plan_free(&p);
}

TEST(fio_jobfile_errors_name_file_and_line)
{
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_text(&p, "[a]\nsize=1m\nverify=crc64\n", err, sizeof err) < 0);
	CHECK_CONTAINS(err, "t.fio:3");
	CHECK_CONTAINS(err, "verify");
	fio_plan_free(&p);

	CHECK(parse_text(&p, "size=1m\n[a]\n", err, sizeof err) < 0);
	CHECK_CONTAINS(err, "t.fio:1");
	fio_plan_free(&p);

	CHECK(parse_text(&p, "[a\n", err, sizeof err) < 0);
	CHECK_CONTAINS(err, "section");
	fio_plan_free(&p);

	/* a keyword in a value bc cannot compute (fio's parse fails too) */
	CHECK(parse_text(&p, "[a]\nfilename=/x/$ncpus\n", err, sizeof err) < 0);
	CHECK_CONTAINS(err, "t.fio:2");
	CHECK_CONTAINS(err, "bc");
	fio_plan_free(&p);

	CHECK(parse_text(&p, "[a]\nwait_for=nobody\n", err, sizeof err) < 0);
	CHECK_CONTAINS(err, "nobody");
	fio_plan_free(&p);
}

TEST(fio_jobfile_include_is_relative_to_the_file)
{
	char dir[512], inc[600], main_path[600];
	snprintf(dir, sizeof dir, "%s", test_tmpdir());
	snprintf(inc, sizeof inc, "%s/common.fio", dir);
	snprintf(main_path, sizeof main_path, "%s/main.fio", dir);
	FILE *f = fopen(inc, "w");
	CHECK(f != NULL);
	fputs("[global]\nbs=64k\n", f);
	fclose(f);
	f = fopen(main_path, "w");
	CHECK(f != NULL);
	fputs("include common.fio\n[a]\nsize=1m\n", f);
	fclose(f);
	struct fio_plan p;
	char err[512] = "";
	fio_plan_init(&p);
	CHECK(fio_parse_jobfile(&p, main_path, err, sizeof err) == 0);
	CHECK(fio_plan_finish(&p, err, sizeof err) == 0);
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 65536);
	fio_plan_free(&p);

	/* a file that includes itself is a loop, found at once (not at the depth limit) */
	f = fopen(main_path, "w");
	CHECK(f != NULL);
	fputs("include main.fio\n", f);
	fclose(f);
	fio_plan_init(&p);
	CHECK(fio_parse_jobfile(&p, main_path, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "loop");
	fio_plan_free(&p);
}

TEST(fio_section_selects_jobs)
{
	const char *args[] = { "--section=b", "--name=a", "--name=b", "--stonewall", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.njobs, 1);
	CHECK_EQ_STR(p.jobs[0].name, "b");
	CHECK_EQ_INT(p.jobs[0].io.report.group, 0);
	fio_plan_free(&p);
}

TEST(fio_ioengine_mapping_is_noted)
{
	const char *args[] = { "--ioengine=posixaio", "--name=a", "--name=b", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.jobs[0].io.engine, test_engine("uring"));
	CHECK_EQ_INT(p.nnotes, 1);
	CHECK_CONTAINS(p.notes[0], "posixaio");
	fio_plan_free(&p);

	/* libaio is an engine of its own (Linux AIO): nothing to note */
	const char *args1[] = { "--ioengine=libaio", "--name=a", NULL };
	CHECK(parse_argv(&p, args1, err, sizeof err) == 0);
	CHECK_EQ_INT(p.jobs[0].io.engine, test_engine("libaio"));
	CHECK_EQ_INT(p.nnotes, 0);
	fio_plan_free(&p);

	const char *args2[] = { "--ioengine=rbd", "--name=a", NULL };
	CHECK(parse_argv(&p, args2, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "rbd");
	fio_plan_free(&p);
}

TEST(fio_percentile_list_parses)
{
	const char *args[] = { "--name=a", "--percentile_list=50:99:99.9", NULL };
	struct fio_plan p;
	char err[512];
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.jobs[0].io.report.npercentiles, 3);
	CHECK_NEAR(p.jobs[0].io.report.percentiles[2], 99.9, 1e-9);
	fio_plan_free(&p);
}

TEST(fio_opt_support_classifies)
{
	CHECK_EQ_INT(fio_opt_support("iodepth"), FIO_OPT_SUPPORTED);
	CHECK_EQ_INT(fio_opt_support("gtod_reduce"), FIO_OPT_IGNORED);
	CHECK_EQ_INT(fio_opt_support("rwmixcycle"), FIO_OPT_REFUSED);
	CHECK_EQ_INT(fio_opt_support("threads"), FIO_OPT_IGNORED); /* tiobench's, not an alias of thread */
	CHECK_EQ_INT(fio_opt_support("no_such_option"), FIO_OPT_UNKNOWN);
}

TEST(fio_options_are_kept_under_fios_names)
{
	/* fio shows an option under its own name whatever the spelling: blockalign= as ba */
	const char *args[] = { "--blocksize=8k", "--name=a", "--blockalign=4k", "--readwrite=randread",
			       "--nr_files=1", NULL };
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_STR(p.globals.kv[0].key, "bs");
	CHECK_EQ_STR(p.jobs[0].opts.kv[1].key, "ba");
	CHECK_EQ_STR(p.jobs[0].opts.kv[2].key, "rw");
	CHECK_EQ_STR(p.jobs[0].opts.kv[3].key, "nrfiles");
	CHECK_EQ_U64(p.jobs[0].io.pattern.blockalign[DIR_READ], 4096);
	fio_plan_free(&p);

	CHECK(parse_text(&p, "[j]\nblocksize=16k\niodepth_batch_complete=4\n", err, sizeof err) == 0);
	CHECK_EQ_STR(p.jobs[0].opts.kv[0].key, "bs");
	CHECK_EQ_STR(p.jobs[0].opts.kv[1].key, "iodepth_batch_complete_min");
	fio_plan_free(&p);
}

TEST(fio_exitall_exit_what_number_ios)
{
	const char *args[] = { "--exitall", "--name=a", "--exit_what=stonewall", "--number_ios=1k", "--name=b",
			       "--exit_what=all", "--exitall_on_error", "--name=c", NULL };
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.jobs[0].exitall, 1);
	CHECK_EQ_INT(p.jobs[0].exit_what, FIO_EXIT_STONEWALL);
	CHECK_EQ_U64(p.jobs[0].io.number_ios, 1024);
	CHECK_EQ_INT(p.jobs[1].exit_what, FIO_EXIT_ALL);
	CHECK_EQ_INT(p.jobs[1].exitall_on_error, 1);
	CHECK_EQ_INT(p.jobs[2].exit_what, FIO_EXIT_GROUP);
	CHECK_EQ_INT(p.jobs[2].exitall, 1);
	fio_plan_free(&p);

	const char *bad[] = { "--name=a", "--exit_what=everything", NULL };
	CHECK(parse_argv(&p, bad, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "exit_what");
	fio_plan_free(&p);
}

TEST(fio_filename_list_shares_size_and_file_service)
{
	const char *args[] = { "--name=a", "--filename=x:y", "--size=8m", "--file_service_type=roundrobin:4",
			       "--rw=read:-8k", NULL };
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.jobs[0].io.files.all_targets, 1);
	CHECK_EQ_U64(p.jobs[0].io.filesize, 4 << 20);
	CHECK_EQ_INT(p.jobs[0].io.files.file_service, FILES_ROUNDROBIN);
	CHECK_EQ_INT(p.jobs[0].io.files.file_service_nr, 4);
	CHECK(p.jobs[0].io.pattern.rw_seq_skip == -8192);
	fio_plan_free(&p);

	const char *bad[] = { "--name=a", "--file_service_type=zipf:1.2", NULL };
	CHECK(parse_argv(&p, bad, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "file_service_type");
	fio_plan_free(&p);
}

TEST(fio_terse_versions)
{
	const char *args[] = { "--terse-version=5", "--name=a", NULL };
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_INT(p.terse_version, 5);
	fio_plan_free(&p);
	const char *bad[] = { "--terse-version=6", "--name=a", NULL };
	CHECK(parse_argv(&p, bad, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "terse-version");
	fio_plan_free(&p);
}

/* fio reads its command line with getopt_long_only: one dash or two, abbreviations that start
 * one name only, its one-letter switches (src/fio/longopts.c). */
TEST(fio_cmdline_reads_words_as_getopt_long_only)
{
	const char *args[] = { "-output-format=json", "-minimal", "--output-form=json", "-o", "o.json", "-rP",
			       "--na=a", "--runt=2", "--size", "1m", "-bs=8k", "--eta=never", NULL };
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_STR(err, "");
	CHECK_EQ_INT(p.formats, FIO_OUT_JSON); /* the last of -minimal and --output-form wins */
	CHECK_EQ_STR(p.output, "o.json");
	CHECK_EQ_INT(p.readonly, 1);
	CHECK_EQ_INT(p.parse_only, 1);
	CHECK_EQ_INT(p.eta_when, FIO_ETA_NEVER); /* --eta in full is not --eta-interval */
	CHECK_EQ_INT(p.njobs, 1);
	CHECK_EQ_STR(p.jobs[0].name, "a");
	CHECK_EQ_U64(p.jobs[0].io.runtime_ns, 2000000000ull);
	CHECK_EQ_U64(p.jobs[0].io.size, 1 << 20);
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 8192);
	CHECK_EQ_STR(p.jobs[0].opts.kv[1].key, "runtime"); /* kept under fio's full name */
	fio_plan_free(&p);

	/* -ofile: no name starts "ofile", so the letter o with the rest as its value */
	const char *glued[] = { "-oout.txt", "--name=a", NULL };
	CHECK(parse_argv(&p, glued, err, sizeof err) == 0);
	CHECK_EQ_STR(p.output, "out.txt");
	fio_plan_free(&p);

	/* two names start the same way: refused, naming both, as fio's getopt */
	const char *amb[] = { "--name=a", "--rwmix=30", NULL };
	CHECK(parse_argv(&p, amb, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "ambiguous");
	CHECK_CONTAINS(err, "--rwmixread, --rwmixwrite");
	fio_plan_free(&p);
	const char *amb2[] = { "--name=a", "--blocksize_=4k", NULL }; /* blocksize_range, blocksize_unaligned */
	CHECK(parse_argv(&p, amb2, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "ambiguous");
	fio_plan_free(&p);
	/* fio's table has its profiles' options too: size twice (the job's, tiobench's), threads */
	const char *siz[] = { "--name=a", "--siz=1m", NULL };
	CHECK(parse_argv(&p, siz, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "--size, --size");
	fio_plan_free(&p);
	const char *thr[] = { "--name=a", "--threa", NULL };
	CHECK(parse_argv(&p, thr, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "ambiguous");
	fio_plan_free(&p);

	/* a switch without a value refuses one; an option that needs one refuses another option */
	const char *noval[] = { "--minimal=1", "--name=a", NULL };
	CHECK(parse_argv(&p, noval, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "--minimal");
	fio_plan_free(&p);
	const char *bare[] = { "--name=a", "--direct", "--bs=4k", NULL };
	CHECK(parse_argv(&p, bare, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "--direct: needs a value");
	fio_plan_free(&p);
	const char *sep[] = { "--name=a", "--direct", "1", NULL };
	CHECK(parse_argv(&p, sep, err, sizeof err) == 0);
	CHECK_EQ_INT(p.jobs[0].io.direct, DIRECT_ON);
	fio_plan_free(&p);
	const char *unk[] = { "--name=a", "--frob=1", NULL };
	CHECK(parse_argv(&p, unk, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "--frob: unrecognized option");
	fio_plan_free(&p);
	const char *letter[] = { "-q", "--name=a", NULL };
	CHECK(parse_argv(&p, letter, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "-q");
	fio_plan_free(&p);
}

/* --name=global: the options after it are global again, for the jobs named after them. */
TEST(fio_cmdline_name_global)
{
	const char *args[] = { "--bs=8k", "--name=a", "--name=global", "--bs=16k", "--iodepth=4", "--name=b",
			       "--name=globalish", "--rw=write", "--name=c", NULL };
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_argv(&p, args, err, sizeof err) == 0);
	CHECK_EQ_STR(err, "");
	CHECK_EQ_INT(p.njobs, 3);
	CHECK_EQ_STR(p.jobs[1].name, "b");
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 8192);
	CHECK_EQ_INT(p.jobs[0].io.iodepth, 1);
	CHECK_EQ_U64(p.jobs[1].io.bs[DIR_READ], 16384);
	CHECK_EQ_INT(p.jobs[1].io.iodepth, 4);
	CHECK_EQ_INT(p.jobs[1].io.rw, IO_READ);
	CHECK_EQ_INT(p.jobs[2].io.rw, IO_WRITE); /* fio looks at 6 letters */
	CHECK_EQ_INT(p.jobs[2].io.iodepth, 4);
	fio_plan_free(&p);

	/* a job --section leaves out is skipped at its --name: what follows it is global, as fio's */
	const char *sec[] = { "--section=b", "--name=a", "--rw=write", "--name=b", NULL };
	CHECK(parse_argv(&p, sec, err, sizeof err) == 0);
	CHECK_EQ_INT(p.njobs, 1);
	CHECK_EQ_STR(p.jobs[0].name, "b");
	CHECK_EQ_INT(p.jobs[0].io.rw, IO_WRITE);
	fio_plan_free(&p);
}

/* An engine's options are those fio gives the engine's name: posixaio (run on uring) has
 * none of io_uring's, pvsync2 its own, cmdprio_* are io_uring's and libaio's. */
TEST(fio_engine_options_follow_fios_engine_name)
{
	struct fio_plan p;
	char err[512] = "";
	const char *posix[] = { "--name=a", "--ioengine=posixaio", "--hipri", NULL };
	CHECK(parse_argv(&p, posix, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "--hipri: unrecognized option");
	fio_plan_free(&p);
	const char *uring[] = { "--name=a", "--ioengine=io_uring", "--hipri", NULL };
	CHECK(parse_argv(&p, uring, err, sizeof err) == 0);
	fio_plan_free(&p);
	const char *pv[] = { "--name=a", "--ioengine=pvsync2", "--hipri", "--hipri_percentage=50", "--nowait=1", NULL };
	err[0] = '\0';
	CHECK(parse_argv(&p, pv, err, sizeof err) == 0);
	CHECK_EQ_STR(err, "");
	CHECK(p.jobs[0].io.engine == test_engine("pvsync2"));
	CHECK(p.jobs[0].io.eopts.of == test_engine("pvsync2"));
	CHECK_EQ_INT(p.nnotes, 0); /* its own engine: no mapping to note */
	fio_plan_free(&p);
	const char *unc[] = { "--name=a", "--ioengine=pvsync2", "--uncached=1", NULL };
	CHECK(parse_argv(&p, unc, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "not supported by nodemark");
	fio_plan_free(&p);
	const char *psync[] = { "--name=a", "--ioengine=psync", "--hipri", NULL };
	CHECK(parse_argv(&p, psync, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "unrecognized");
	fio_plan_free(&p);
	const char *cp[] = { "--name=a", "--cmdprio_percentage=10", NULL };
	CHECK(parse_argv(&p, cp, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "unrecognized");
	fio_plan_free(&p);
	/* dropped with the engine that had it, as fio drops it */
	const char *cpd[] = { "--name=a", "--ioengine=io_uring", "--cmdprio_percentage=10", "--ioengine=psync", NULL };
	CHECK(parse_argv(&p, cpd, err, sizeof err) == 0);
	fio_plan_free(&p);

	CHECK(parse_text(&p, "[a]\nioengine=posixaio\nhipri=1\nsize=4k\n", err, sizeof err) < 0);
	CHECK_CONTAINS(err, "hipri: not an option of ioengine=posixaio");
	fio_plan_free(&p);
	CHECK(parse_text(&p, "[a]\nioengine=posixaio\ncmdprio_percentage=10\nsize=4k\n", err, sizeof err) < 0);
	CHECK_CONTAINS(err, "cmdprio_percentage: not an option of ioengine=posixaio");
	fio_plan_free(&p);
	CHECK(parse_text(&p, "[a]\nioengine=pvsync2\nhipri=1\nsize=4k\n", err, sizeof err) == 0);
	fio_plan_free(&p);
}

/* Every option of an engine's table is fio's option of that engine's fio name. */
TEST(fio_engine_tables_are_within_fios)
{
	const struct io_engine_ops *e;
	const struct io_engine_option *o;
	for (unsigned i = 0; (o = io_engine_option_at(i, &e)); i++) {
		const char *name = io_engine_fio_name(e);
		if (!fio_engine_has_option(name, o->name)) {
			fprintf(stderr, "  %s: %s is not fio's\n", name, o->name);
			CHECK(0);
		}
	}
	for (unsigned i = 0; (e = io_engine_at(i)); i++)
		CHECK(fio_engine_known(io_engine_fio_name(e)));
}

/* A read_iolog gap slowed down by replay_time_scale saturates where it no longer fits 64 bits
 * (a double past 2^64 converted to an integer is undefined: UBSan found it in the blktrace
 * reader, and the text v3 reader had the same line). */
TEST(iolog_scaled_gap_saturates)
{
	struct fio_plan p;
	char err[256];
	const char *args[] = { "--name=x", "--size=1m", NULL };
	CHECK_EQ_INT(parse_argv(&p, args, err, sizeof err), 0);
	struct fio_log_state s = { .j = &p.jobs[0] };
	s.j->iolog.time_scale = 1; /* replay_time_scale=1: a gap 100 times as long */
	CHECK_EQ_U64(fio_log_scaled_gap(&s, 1000), 100000);
	CHECK_EQ_U64(fio_log_scaled_gap(&s, UINT64_MAX / 2), UINT64_MAX);
	s.j->iolog.time_scale = 200;
	CHECK_EQ_U64(fio_log_scaled_gap(&s, 1000), 500);
	s.j->iolog.time_scale = 100;
	CHECK_EQ_U64(fio_log_scaled_gap(&s, UINT64_MAX), UINT64_MAX);
	fio_plan_free(&p);
}

/* fio's verify state file: a job's name gives the file's ('/' a '.', the thread's index over
 * the run; the saved one from the name's first 63 bytes), and the bytes written read back. */
TEST(fio_vstate_names_and_bytes)
{
	struct fio_plan p;
	char err[256];
	const char *args[] = { "--name=r", "--rw=read", "--verify=md5", "--numjobs=2", "--name=a/b", "--rw=write",
			       "--verify=crc32c", "--verify_state_load=1", NULL };
	CHECK_EQ_INT(parse_argv(&p, args, err, sizeof err), 0);
	CHECK_EQ_INT(fio_vstate_names(&p, err, sizeof err), 0);
	CHECK(p.jobs[0].vstate.paths == NULL); /* a read job saves nothing, loads nothing */
	CHECK_EQ_STR(p.jobs[1].vstate.load_paths[0], "local-a.b-2-verify.state");
	CHECK(p.jobs[1].vstate.paths[0] == NULL); /* the file it loads is kept */
	fio_plan_free(&p);

	struct io_vstate_comp comps[3] = { { 0, 8192 }, { 0, 4096 }, { 1, 0 } };
	struct io_vstate s = { .numberio = 11, .depth = 2, .nfiles = 2, .ncomps = 3, .comps = comps }, back;
	unsigned char *buf;
	size_t n = io_vstate_encode(&s, "w", 5, &buf);
	CHECK_EQ_U64(n, IO_VSTATE_HDR + IO_VSTATE_REC + 4 * 16);
	CHECK_EQ_INT(io_vstate_parse(buf, n, &back, err, sizeof err), 0);
	CHECK_EQ_U64(back.numberio, 11);
	CHECK_EQ_U64(back.ncomps, 3);
	CHECK_EQ_U64(back.comps[2].file, 1);
	CHECK_EQ_U64(back.comps[0].offset, 8192);
	free(back.comps);
	buf[IO_VSTATE_HDR + 40] ^= 1; /* the random state: covered by the crc */
	CHECK_EQ_INT(io_vstate_parse(buf, n, &back, err, sizeof err), -1);
	CHECK_CONTAINS(err, "corrupt");
	CHECK_EQ_INT(io_vstate_parse(buf, n - 1, &back, err, sizeof err), -1);
	CHECK_CONTAINS(err, "truncated");
	free(buf);
}
