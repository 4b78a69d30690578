/* nodemark fio: fio's command lines and job files, run on nodemark's engine, reported in fio's
 * formats.  The front end is src/fio/ (parser, option table, scheduler, reports); this file
 * splits nodemark's own options from fio's, checks what may be written, and saves the run. */
#include "cmd/cmd.h"
#include "cli/output.h"
#include "cli/run_opts.h"
#include "fio/iolog.h"
#include "fio/options.h"
#include "fio/run.h"
#include "fio/targets.h"
#include "fio/vstate.h"
#include "io/engine.h"
#include "util/cleanup.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char cmd_fio_usage[] =
	"usage: nodemark fio [fio options] [--name=JOB [job options]]... [JOBFILE...]\n"
	"\n"
	"Runs fio command lines and job files unchanged on nodemark's engine and prints\n"
	"fio's output formats. Options before the first --name (or after --name=global)\n"
	"are global; as in fio, an option takes one dash or two and may be shortened\n"
	"where that is not ambiguous (-output-format=json, --runt=10). INI job files\n"
	"take [global] and [job] sections, ';' and '#' comments and 'include FILE'.\n"
	"\n"
	"fio's own switches:\n"
	"  --output=FILE          write the report to FILE (atomically), not stdout\n"
	"  --output-format=LIST   normal (default), json, json+, terse; comma-separated\n"
	"  --minimal              terse output; --terse-version=3 is the only version\n"
	"  --parse-only           check the options and job files, run nothing\n"
	"  --section=NAME         run only the named job (repeatable)\n"
	"  --readonly             refuse jobs that write\n"
	"  --status-interval=T    a full report of the figures so far every T (seconds,\n"
	"                         or 500ms)\n"
	"  --eta=WHEN             fio's status line (Jobs: ... [eta 00m:11s]) while jobs\n"
	"                         run: auto (a terminal, the default), always, never\n"
	"  --eta-interval=T       redraw it every T (default 1s, at least 250ms)\n"
	"  --eta-newline=T        start a new status line every T\n"
	"  --bandwidth-log, -b    agg-read_bw.log, agg-write_bw.log, agg-trim_bw.log: the\n"
	"                         run's bandwidth, sampled with the status line (fio's)\n"
	"\n"
	"Job options: fio's, with fio's defaults and units (4k = 4096 unless\n"
	"kb_base=1000).\n"
	"  --cmdhelp[=OPTION]     every job option (or one): type, fio's default,\n"
	"                         whether nodemark supports, ignores (with a warning) or\n"
	"                         refuses it and what it maps to; the parser's own table\n"
	"  --enghelp[=ENGINE]     the engines (or one engine's options)\n"
	"  ioengine: io_uring and posixaio run on nodemark's uring engine (posixaio\n"
	"  without io_uring's options, as fio's); psync, sync, pvsync and vsync on psync;\n"
	"  libaio (Linux AIO: a buffered I/O is done inside io_submit, as in fio),\n"
	"  pvsync2, mmap, null, filecreate, filestat, filedelete, ftruncate, falloc,\n"
	"  cpuio, exec and net on the same; unset = psync (fio's). An option nodemark\n"
	"  does not implement stops the run (exit 2); one that only touches fio's\n"
	"  bookkeeping is named in a warning. The lists: docs/fio-compat.md.\n"
	"\n"
	"nodemark's own options:\n"
	"  --allow-write=PATH     allow writing the block device or existing file PATH\n"
	"                         (repeatable); a mounted device is never written\n" RUN_OPT_USAGE
	"\n"
	"Files a job creates stay for later jobs and after the run, as fio's unlink=0\n"
	"(its default); unlink=1 removes them at the end. They are removed on Ctrl-C.\n"
	"They carry nodemark's mark (the user.nodemark attribute), so a later run may\n"
	"rewrite them; any other existing file needs --allow-write=PATH.\n"
	"\n"
	"Examples:\n"
	"  nodemark fio --name=rr --rw=randread --bs=4k --size=1g --directory=/mnt/x \\\n"
	"      --output-format=json\n"
	"  nodemark fio --output-format=json+ jobs.fio > out.json\n"
	"  fio_jsonplus_clat2csv out.json lat.csv\n";

#define MAX_ALLOW_WRITE 64

struct fio_cmd {
	struct fio_plan plan;
	struct run_opts ro;
	const char *allow_write[MAX_ALLOW_WRITE];
	unsigned nallow_write;
	char **fio_argv;
	int fio_argc;
};

/* nodemark's own options out of argv; the rest is fio's. */
static void split_args(struct fio_cmd *c, int argc, char **argv)
{
	static const struct opt_spec specs[] = { RUN_OPT_SPECS, { "allow-write", OPT_ARG, 1 }, { 0 } };
	c->fio_argv = calloc((size_t)argc + 1, sizeof *c->fio_argv);
	if (!c->fio_argv)
		abort();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int mine = 0;
		for (const struct opt_spec *s = specs; s->name; s++) {
			size_t n = strlen(s->name);
			if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, s->name, n) != 0 ||
			    (a[2 + n] != '\0' && a[2 + n] != '='))
				continue;
			/* hand this one option (and its value) to the usual iterator */
			char *one[3] = { argv[0], argv[i], NULL };
			int take = s->has_arg == OPT_ARG && a[2 + n] == '\0' && i + 1 < argc;
			if (take)
				one[2] = argv[i + 1];
			struct opt_iter it;
			opt_init(&it, take ? 3 : 2, one);
			int id = opt_next(&it, specs);
			if (id == 1) {
				if (c->nallow_write == MAX_ALLOW_WRITE)
					nm_usage_fail("--allow-write: at most %d paths", MAX_ALLOW_WRITE);
				c->allow_write[c->nallow_write++] = it.arg;
			} else {
				run_opts_handle(&c->ro, id, &it);
			}
			i += take;
			mine = 1;
			break;
		}
		if (!mine)
			c->fio_argv[c->fio_argc++] = argv[i];
	}
}

/* The record goes where the run was: the first job's directory, when it has one. */
static int run_and_save(struct fio_cmd *c, int argc, char **argv)
{
	struct record *rec;
	int rc = fio_run_plan(&c->plan, argc, argv, &rec);
	if (!rec)
		return rc;
	const struct io_job *first = &c->plan.jobs[0].io;
	const char *where = first->ntargets ? first->targets[0] : NULL;
	struct stat st;
	run_opts_apply(&c->ro, rec, where && stat(where, &st) == 0 && S_ISDIR(st.st_mode) ? where : NULL);
	if (run_save(&c->ro, rec) < 0 && rc == NM_EXIT_OK)
		rc = NM_EXIT_FAILED;
	record_free(rec);
	return rc;
}

int cmd_fio(int argc, char **argv)
{
	cleanup_stop_at_safe_points(); /* its loops poll cleanup_interrupted() */
	struct fio_cmd c;
	char err[768];
	memset(&c, 0, sizeof c);
	fio_plan_init(&c.plan);
	split_args(&c, argc, argv);
	if (fio_parse_args(&c.plan, c.fio_argc, c.fio_argv, err, sizeof err) < 0) {
		fio_plan_free(&c.plan);
		free(c.fio_argv);
		run_opts_free(&c.ro);
		nm_usage_fail("%s", err);
	}
	if (c.plan.cmdhelp) {
		int bad = fio_option_help(stdout, c.plan.cmdhelp) < 0;
		char name[64];
		snprintf(name, sizeof name, "%.60s", c.plan.cmdhelp);
		fio_plan_free(&c.plan);
		free(c.fio_argv);
		run_opts_free(&c.ro);
		if (bad && strncmp(name, FIO_ENGHELP_PREFIX, strlen(FIO_ENGHELP_PREFIX)) == 0)
			nm_usage_fail("--enghelp: %s: not an engine nodemark runs", name + strlen(FIO_ENGHELP_PREFIX));
		if (bad)
			nm_usage_fail("--cmdhelp: %s: not a fio option nodemark knows", name);
		return NM_EXIT_OK;
	}
	/* a replayed log's files are the job's: known before what is written is checked */
	if (!c.plan.parse_only && fio_iologs_load(&c.plan, err, sizeof err) < 0) {
		fio_plan_free(&c.plan);
		free(c.fio_argv);
		run_opts_free(&c.ro);
		nm_usage_fail("%s", err);
	}
	/* fio reads the verify states before any job starts */
	if (!c.plan.parse_only &&
	    (fio_vstate_names(&c.plan, err, sizeof err) < 0 || fio_vstate_load(&c.plan, err, sizeof err) < 0)) {
		fio_plan_free(&c.plan);
		free(c.fio_argv);
		run_opts_free(&c.ro);
		nm_usage_fail("%s", err);
	}
	struct file_roles roles = { 0 };
	roles_output(&roles, "--output", c.plan.output);
	for (size_t i = 0; i < c.plan.njobfiles; i++)
		roles_input(&roles, "job file", c.plan.jobfiles[i]);
	for (size_t i = 0; i < c.plan.njobs; i++) { /* a record never replaces a log, a job's file */
		const struct fio_job *j = &c.plan.jobs[i];
		roles_output(&roles, "write_iolog", j->iolog.write);
		roles_input(&roles, "read_iolog", j->iolog.read);
		for (unsigned t = 0; t < j->io.ntargets && !j->dir_targets; t++)
			roles_input(&roles, "filename", j->io.targets[t]);
		for (unsigned t = 0; t < j->io.numjobs; t++) { /* a saved state never replaces an input */
			if (j->vstate.paths)
				roles_output(&roles, "verify_state_save", j->vstate.paths[t]);
			if (j->vstate.load_paths)
				roles_input(&roles, "verify_state_load", j->vstate.load_paths[t]);
		}
	}
	roles_check(&roles, c.ro.db); /* exits on a clash, before anything is written */
	for (size_t i = 0; i < c.plan.nwarnings; i++)
		nm_warn("%s", c.plan.warnings[i]);
	for (size_t i = 0; i < c.plan.nnotes; i++)
		nm_warn("%s", c.plan.notes[i]);
	if (!c.plan.parse_only && fio_check_targets(&c.plan, c.allow_write, c.nallow_write, err, sizeof err) < 0) {
		fio_plan_free(&c.plan);
		free(c.fio_argv);
		run_opts_free(&c.ro);
		nm_usage_fail("%s", err);
	}

	int rc = NM_EXIT_OK;
	for (size_t i = 0; i < c.plan.njobs && rc == NM_EXIT_OK; i++)
		if (io_job_check(&c.plan.jobs[i].io, err, sizeof err) != IO_OK) {
			nm_error("job '%s': %s", c.plan.jobs[i].name, err);
			rc = NM_EXIT_USAGE;
		}
	if (rc == NM_EXIT_OK && !c.plan.parse_only) {
		if (fio_iologs_open(&c.plan, err, sizeof err) < 0) {
			nm_error("%s", err);
			rc = NM_EXIT_FAILED;
		} else {
			rc = run_and_save(&c, argc, argv);
			if (fio_iologs_close(&c.plan, 1, err, sizeof err) < 0) { /* what ran is recorded */
				nm_error("%s", err);
				if (rc == NM_EXIT_OK)
					rc = NM_EXIT_FAILED;
			}
		}
	}
	fio_plan_free(&c.plan);
	free(c.fio_argv);
	run_opts_free(&c.ro);
	return rc;
}
