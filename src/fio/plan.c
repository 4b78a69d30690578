/* The plan: the jobs as typed, then resolved into io_jobs.  Each job's options are applied in
 * order -- the inherited globals, then its own -- later ones winning; as in fio, kb_base
 * changes how the sizes after it read, not those before it.  Then groups are numbered. */
#include "fio/expand.h"
#include "fio/iolog.h"
#include "fio/logs.h"
#include "fio/longopts.h"
#include "fio/options.h"
#include "fio/parse_util.h"
#include "fio/targets.h"
#include "fio/vstate.h"
#include "io/engine.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void fio_plan_init(struct fio_plan *p)
{
	memset(p, 0, sizeof *p);
}

void fio_job_free(struct fio_job *j)
{
	free(j->name);
	fio_optlist_free(&j->inherited);
	fio_optlist_free(&j->opts);
	free(j->wait_for);
	free(j->ioengine);
	free(j->filename);
	free(j->directory);
	for (int k = 0; k < FIO_LOG_NKINDS; k++)
		free(j->logs.prefix[k]);
	free(j->prios.bssplit);
	fio_iolog_free(&j->iolog);
	fio_vstate_free(j);
	fio_strv_free(j->strs, j->nstrs);
}

void fio_plan_free(struct fio_plan *p)
{
	fio_optlist_free(&p->globals);
	for (size_t i = 0; i < p->njobs; i++)
		fio_job_free(&p->jobs[i]);
	free(p->jobs);
	free(p->output);
	free(p->aux_path);
	free(p->cmdhelp);
	fio_strv_free(p->sections, p->nsections);
	fio_strv_free(p->warnings, p->nwarnings);
	fio_strv_free(p->notes, p->nnotes);
	fio_strv_free(p->jobfiles, p->njobfiles);
	fio_plan_free_flows(p);
	memset(p, 0, sizeof *p);
}

struct fio_job *fio_plan_add_job(struct fio_plan *p, const char *name, const struct fio_optlist *globals,
			       char *err, size_t errlen)
{
	if (p->njobs == FIO_MAX_JOBS) {
		nm_errf(err, errlen, "more than %d jobs", FIO_MAX_JOBS);
		return NULL;
	}
	if (p->njobs == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->jobs = xrealloc(p->jobs, p->cap * sizeof *p->jobs);
	}
	struct fio_job *j = &p->jobs[p->njobs++];
	memset(j, 0, sizeof *j);
	j->name = xstrdup(name);
	fio_optlist_copy(&j->inherited, globals);
	return j;
}

/* nodemark's job (io_job_init) with fio's defaults where they differ: fio's engine, buffered,
 * fio's buffer content (the engine's options get fio's defaults once the engine is known). */
static void job_defaults(struct fio_job *j)
{
	struct io_job *io = &j->io;
	io_job_init(io);
	io->engine = io_engine_fio_default();
	io->direct = DIRECT_OFF;
	io->buf.content.chunk = 512;    /* fio's buffer_compress_chunk and dedupe_working_set_percentage */
	io->buf.content.ws_pct = 5;
	io->buf.scramble = 1;           /* fio's scramble_buffers (fio_job_content says which writes) */
	io->report.per_second_series = 1; /* fio's bw and iops lines come from per-second samples */
	io->files.keep_created = 1;     /* fio's unlink=0: a job's files stay for the next job */
	io->files.fio_setup = 1;        /* a new file made as fio's layout makes it (fallocate=native) */
	io->place.cpus_shared = 1;      /* fio's cpus_allowed_policy=shared */
	io->place.cpu_fio_order = 1;
	j->numa_cpus = NULL;
	j->flow_id = 0;
	j->kb_base = 1024;
	j->unit_base = 8;
	j->zonemode = FIO_ZONE_UNSET;
	j->disk_util = 1;
	j->create_serialize = 1;
	io->verify.save_state = 1;      /* fio's verify_state_save */
	j->clat_percentiles = 1;
	for (int k = 0; k < FIO_LOG_NKINDS; k++)
		free(j->logs.prefix[k]);
	memset(&j->logs, 0, sizeof j->logs);
	j->logs.per_job = 1;
	free(j->prios.bssplit);
	memset(&j->prios, 0, sizeof j->prios);
	j->prios.cls = j->prios.level = -1;
	fio_job_ss_defaults(&j->ss);
	fio_iolog_free(&j->iolog);
	for (int d = 0; d < DIR_COUNT; d++)
		j->prios.cmd_cls[d] = j->prios.cmd_level[d] = -1;
}

/* How fio reads a "(...)" part of a numeric option: a count or size, or a time whose bare
 * number is microseconds (think times) or seconds (the rest). */
static enum fio_arith_kind arith_kind(const struct fio_option *d)
{
	if (d->type != FIO_T_TIME)
		return FIO_ARITH_NUMBER;
	return d->apply == fio_apply_thinktime || d->apply == fio_apply_thinktime_spin ? FIO_ARITH_USEC : FIO_ARITH_SECONDS;
}

/* d's value applied to j, each ','-separated part of a numeric option that is a "(...)"
 * expression computed first, as fio's number parser does (the options shown keep v as typed). */
static int apply_value(const struct fio_option *d, struct fio_job *j, const char *v, char *err, size_t errlen)
{
	int numeric = d->type == FIO_T_INT || d->type == FIO_T_SIZE || d->type == FIO_T_TIME;
	if (!numeric || !v || !strchr(v, '('))
		return fio_option_apply(d, j, v, err, errlen);
	char qb[64];
	size_t parts = 1;
	for (const char *c = v; *c; c++)
		parts += *c == ',';
	char *out = xcalloc(1, strlen(v) + parts * 24 + 1), *o = out; /* a part becomes at most 22 */
	for (const char *part = v; part;) {
		const char *comma = strchr(part, ',');
		size_t n = comma ? (size_t)(comma - part) : strlen(part);
		char *text = xstrndup(part, n);
		long long x = 0;
		int rc = text[0] == '(' ? fio_arith_eval(text, arith_kind(d), &x, err, errlen) : 0;
		if (rc == 0 && text[0] == '(' && x < 0)
			rc = nm_errf(err, errlen, "\"%s\": the expression is negative", fio_q(text, qb, sizeof qb));
		if (rc == 0 && text[0] == '(')
			o += sprintf(o, "%lld%s", x, d->type == FIO_T_TIME ? "us" : "");
		else if (rc == 0)
			o += sprintf(o, "%s", text);
		free(text);
		if (rc < 0) {
			free(out);
			return -1;
		}
		if (comma)
			*o++ = ',';
		part = comma ? comma + 1 : NULL;
	}
	int rc = fio_option_apply(d, j, out, err, errlen);
	free(out);
	return rc;
}

/* inherited: the globals, where name= does not rename the job (in fio a job's name is its
 * section's or its --name's). */
int fio_option_value_check(const struct fio_option *d, const char *v, char *err, size_t errlen)
{
	if (!d->apply)
		return 0;
	struct fio_job j;
	memset(&j, 0, sizeof j);
	job_defaults(&j);
	if (d->eopt) /* the value alone: whether the job's engine has it is seen once it is known */
		io_engine_option_find(d->name, &j.io.engine);
	j.name = xstrdup("check");
	int rc = apply_value(d, &j, v, err, errlen);
	fio_job_free(&j);
	return rc;
}

/* l's options on j: the engines' options (engine: the globals' engine) or the others (NULL). */
static int apply_list(struct fio_job *j, const struct fio_optlist *l, int inherited,
		      const struct io_engine_ops *engine, char *err, size_t errlen)
{
	char msg[320];
	for (size_t i = 0; i < l->n; i++) {
		const struct fio_kv *kv = &l->kv[i];
		const struct fio_option *d = fio_option_find(kv->key);
		if (!d || !d->apply || !d->eopt != !engine || kv->dropped)
			continue; /* refused options never get this far; dropped ones: fio's command line */
		if (inherited && d->apply == fio_apply_name)
			continue;
		/* the globals' engine options are those of the globals' engine (fio reads them there),
		 * and a job has them only when it runs that engine too */
		if (inherited && engine && !io_engine_option_of(engine, kv->key)) {
			snprintf(msg, sizeof msg, "not an option of ioengine=%s", io_engine_fio_name(engine));
			return nm_errf(err, errlen, "global options: %s: %s", kv->key, msg);
		}
		if (inherited && engine && j->io.engine != engine)
			continue;
		if (apply_value(d, j, kv->value, msg, sizeof msg) < 0) {
			char qb[64];
			return nm_errf(err, errlen, "job '%s': %s: %s", fio_q(j->name, qb, sizeof qb), kv->key, msg);
		}
	}
	return 0;
}

/* The engine the globals choose (their ioengine=, else fio's default). */
static const struct io_engine_ops *globals_engine(const struct fio_optlist *l)
{
	const struct io_engine_ops *e = io_engine_fio_default();
	for (size_t i = 0; i < l->n; i++)
		if (fio_option_find(l->kv[i].key) && fio_option_find(l->kv[i].key)->apply == fio_apply_ioengine)
			io_engine_parse_fio(l->kv[i].value ? l->kv[i].value : "", &e);
	return e;
}

/* fio's engine options (each engine's fio_options) are the engine's as fio names it: posixaio
 * runs on nodemark's uring engine but has none of io_uring's options, and cmdprio_* (nodemark's
 * table's own rows) are io_uring's and libaio's only. The globals' against the globals'
 * engine, the job's own against the job's (fio's "Bad option" either way). */
static int fio_names_check(const struct fio_job *j, char *err, size_t errlen)
{
	char qb[64];
	int found = 0;
	const char *gname = fio_optlist_get(&j->inherited, "ioengine", &found);
	if (!found || !gname)
		gname = io_engine_fio_name(io_engine_fio_default());
	const char *jname = j->ioengine ? j->ioengine : io_engine_fio_name(j->io.engine);
	for (int own = 0; own < 2; own++) {
		const struct fio_optlist *l = own ? &j->opts : &j->inherited;
		const char *ename = own ? jname : gname;
		for (size_t i = 0; i < l->n; i++) {
			const char *key = l->kv[i].key;
			if (l->kv[i].dropped || !fio_is_engine_option(key) || !fio_engine_known(ename) ||
			    fio_engine_has_option(ename, key))
				continue;
			if (own)
				return nm_errf(err, errlen, "job '%s': %s: not an option of ioengine=%s",
					       fio_q(j->name, qb, sizeof qb), key, ename);
			return nm_errf(err, errlen, "global options: %s: not an option of ioengine=%s", key, ename);
		}
	}
	return 0;
}

/* The globals' cmdprio_* (io_uring's and libaio's options, rows of nodemark's table) reach a
 * job only when it runs the globals' engine, as the globals' engine options do in fio 3.33: a
 * psync job under io_uring globals runs without them. The job's own are read again alone. */
static void drop_inherited_cmdprio(struct fio_job *j)
{
	int found = 0, inherited = 0;
	const char *gname = fio_optlist_get(&j->inherited, "ioengine", &found);
	if (!found || !gname)
		gname = io_engine_fio_name(io_engine_fio_default());
	const char *jname = j->ioengine ? j->ioengine : io_engine_fio_name(j->io.engine);
	for (size_t i = 0; i < j->inherited.n; i++)
		inherited |= !j->inherited.kv[i].dropped && !strncmp(j->inherited.kv[i].key, "cmdprio", 7);
	if (!inherited || !strcmp(gname, jname))
		return;
	free(j->prios.bssplit);
	j->prios.bssplit = NULL;
	for (int d = 0; d < DIR_COUNT; d++) {
		j->prios.pct[d] = 0;
		j->prios.cmd_cls[d] = j->prios.cmd_level[d] = -1;
	}
	char msg[320];
	for (size_t i = 0; i < j->opts.n; i++) {
		const struct fio_option *d = fio_option_find(j->opts.kv[i].key);
		if (d && d->apply && !strncmp(d->name, "cmdprio", 7)) /* checked once already: it parses */
			apply_value(d, j, j->opts.kv[i].value, msg, sizeof msg);
	}
}

/* The options in two rounds, as fio reads a section: the job's own after the globals', the
 * engine's options after the others, so that ioengine= may come after them; they then go to
 * the engine the job runs, and one it does not have is an error (fio's "Bad option"). */
static int apply_options(struct fio_job *j, char *err, size_t errlen)
{
	if (apply_list(j, &j->inherited, 1, NULL, err, errlen) < 0 || apply_list(j, &j->opts, 0, NULL, err, errlen) < 0)
		return -1;
	io_engine_options_fio_defaults(&j->io);
	drop_inherited_cmdprio(j);
	const struct io_engine_ops *ge = globals_engine(&j->inherited);
	return apply_list(j, &j->inherited, 1, ge, err, errlen) < 0 || apply_list(j, &j->opts, 0, ge, err, errlen) < 0 ||
	       fio_names_check(j, err, errlen) < 0 ? -1 : 0;
}

static int resolve_job(struct fio_plan *p, struct fio_job *j, char *err, size_t errlen)
{
	char qb[64], msg[320];
	job_defaults(j);
	j->io_size = 0;
	if (apply_options(j, err, errlen) < 0)
		return -1;
	/* The engine names files NAME.THREAD.FILE: a '/' in the name would put them outside the
	 * directory nodemark made (--name=../../x), so the file name gets '_' there (fio's would not). */
	snprintf(j->io.name, sizeof j->io.name, "%s", j->name);
	for (char *c = j->io.name; *c; c++)
		if (*c == '/')
			*c = '_';
	if (fio_job_targets(j, err, errlen) < 0)
		return -1;
	/* fio's filename=a:b: every thread works on every file, size= shared among them */
	if (j->filename && !j->dir_targets && j->io.ntargets > 1) {
		j->io.files.all_targets = 1;
		if (!j->io.filesize && j->io.size) {
			/* fio's size / files each: what does not divide is not done (size=10k over 3
			 * files of 1k blocks: 3413 bytes each, 3 blocks of each file) */
			j->io.filesize = j->io.size / j->io.ntargets;
			if (!j->io_size)
				j->io.size = j->io.filesize * j->io.ntargets;
		}
	}
	if (fio_job_fill(j, err, errlen) < 0)
		return -1;
	/* fio's filesize= alone: the job's size is its files' (filesize x files) */
	if (!j->io.size && j->io.filesize)
		j->io.size = j->io.filesize * (j->io.files.all_targets ? j->io.ntargets : j->io.nrfiles);
	fio_job_logs(j);
	j->io.report.prio_total_lat = j->lat_percentiles; /* fio: lat_percentiles makes the per-priority figures total latency */
	if (fio_job_place(j, msg, sizeof msg) < 0 || fio_job_zones(j, msg, sizeof msg) < 0 ||
	    fio_job_content(j, msg, sizeof msg) < 0)
		return nm_errf(err, errlen, "job '%s': %s", fio_q(j->name, qb, sizeof qb), msg);
	/* size/nrfiles leaves a remainder: fio gives its whole smallest blocks (the smallest of
	 * every direction's) to the first files, one each (size=8007 nrfiles=8 bs=2: 3 files of
	 * 1002 bytes, 5 of 1000) */
	if (j->dir_targets && !j->io.filesize && j->io.nrfiles > 1 && j->io.size >= j->io.nrfiles) {
		uint64_t unit = UINT64_MAX;
		for (int d = 0; d < DIR_COUNT; d++)
			if (io_bs_smallest(&j->io, d) < unit)
				unit = io_bs_smallest(&j->io, d);
		j->io.files.files_longer = (unsigned)(j->io.size % j->io.nrfiles / unit);
		j->io.files.longer_by = unit;
	}
	if (j->io_size) { /* the engine's size is the I/O amount; fio's size stays the region */
		if (!j->io.filesize && j->io.size)
			j->io.filesize = j->io.size / j->io.nrfiles;
		j->io.size = j->io_size;
		j->io.files.io_limit = 1;
	}
	/* fio gives each of nrfiles files size/nrfiles bytes, and the size is then theirs. The
	 * size is not rounded to the block: where the files' ends end a pass the engine ends it
	 * at their last whole blocks (io/worker.c), and elsewhere fio's byte count goes on to
	 * the I/O that reaches the size (norandommap, rw, io_size) */
	if (!j->io_size && j->dir_targets && !j->io.filesize && j->io.nrfiles > 1 && j->io.size >= j->io.nrfiles) {
		j->io.filesize = j->io.size / j->io.nrfiles;
		j->io.size = j->io.filesize * j->io.nrfiles + (uint64_t)j->io.files.files_longer * j->io.files.longer_by;
	}
	/* fio cuts a size= beyond the job's files (nrfiles x filesize) to them */
	uint64_t files_total = (uint64_t)j->io.nrfiles * j->io.filesize + (uint64_t)j->io.files.files_longer * j->io.files.longer_by;
	if (!j->io_size && j->dir_targets && j->io.filesize && j->io.size > files_total)
		j->io.size = files_total;
	/* fio's runtime bounds the whole job, whatever loops says; the engine's bounds each loop
	 * (its deadline is runtime x loops).  time_based repeats until the runtime anyway. */
	if (j->io.time_based) {
		j->io.loops = 1;
		j->io.number_ios = 0; /* fio's number_ios does not end a time_based job */
	}
	else if (j->io.runtime_ns && j->io.loops > 1)
		j->io.runtime_ns = (j->io.runtime_ns + j->io.loops - 1) / j->io.loops;
	if (j->io.rw != IO_READ && j->io.rw != IO_RANDREAD && p->readonly)
		return nm_errf(err, errlen, "job '%s': --readonly given but the job writes", fio_q(j->name, qb, sizeof qb));
	/* a fio name that is not the engine's own (libaio, sync, ...): say which engine runs it */
	if (j->ioengine && strcmp(j->ioengine, io_engine_fio_name(j->io.engine)) != 0) {
		char *n;
		if (asprintf(&n, "ioengine=%s runs on nodemark's %s engine", j->ioengine, io_engine_name(j->io.engine)) < 0)
			abort();
		int dup = 0;
		for (size_t i = 0; i < p->nnotes; i++)
			dup |= strcmp(p->notes[i], n) == 0;
		if (dup)
			free(n);
		else
			fio_strv_push(&p->notes, &p->nnotes, n);
	}
	return 0;
}

int fio_plan_finish(struct fio_plan *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->njobs; i++)
		if (resolve_job(p, &p->jobs[i], err, errlen) < 0)
			return -1;

	/* --section: keep only the named jobs (before groups are numbered, as fio does); a --name
	 * job was chosen at its --name, by the --section words before it (fio's order). */
	if (p->nsections) {
		size_t kept = 0;
		for (size_t i = 0; i < p->njobs; i++) {
			int keep = p->jobs[i].from_cli;
			for (size_t s = 0; s < p->nsections; s++)
				keep |= strcmp(p->jobs[i].name, p->sections[s]) == 0;
			if (keep)
				p->jobs[kept++] = p->jobs[i];
			else
				fio_job_free(&p->jobs[i]);
		}
		p->njobs = kept;
	}
	if (!p->njobs)
		return nm_errf(err, errlen, "no jobs to run: give --name=NAME options or a job file");
	fio_plan_threads(p);

	/* fio's group numbering: stonewall or new_group opens a new group, unless the job is the
	 * first of its group already. */
	int group = 0;
	unsigned in_group = 0;
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_job *j = &p->jobs[i];
		if ((j->stonewall || j->new_group) && in_group) {
			group++;
			in_group = 0;
		}
		j->io.report.group = group;
		in_group += j->io.numjobs;
		if (j->wait_for) {
			size_t k;
			for (k = 0; k < i; k++)
				if (strcmp(p->jobs[k].name, j->wait_for) == 0)
					break;
			if (k == i) {
				char qa[64], qw[64];
				return nm_errf(err, errlen, "job '%s': wait_for: \"%s\": no earlier job has that name",
					       fio_q(j->name, qa, sizeof qa), fio_q(j->wait_for, qw, sizeof qw));
			}
		}
	}
	if (fio_ss_check_groups(p, err, errlen) < 0)
		return -1;
	if (fio_plan_flows(p, err, errlen) < 0)
		return -1;
	return fio_logs_check(p, err, errlen);
}
