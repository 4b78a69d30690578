/* fio's command line: its own switches (--output, --section, ...), then --name=... jobs with
 * their options, then job file names, read after the command-line jobs as fio does. Each word
 * is read as fio's getopt_long_only reads it (longopts.c): one dash or two, a name or its
 * unambiguous abbreviation, fio's one-letter switches. */
#include "fio/longopts.h"
#include "fio/options.h"
#include "fio/parse_util.h"
#include "io/engine.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the command line ---------------------------------------------------------------------- */

static int set_formats(struct fio_plan *p, const char *v, char *err, size_t errlen)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	p->formats = 0;
	for (const char *s = v; s;) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 6 && !strncmp(s, "normal", 6))
			p->formats |= FIO_OUT_NORMAL;
		else if (n == 4 && !strncmp(s, "json", 4))
			p->formats |= FIO_OUT_JSON;
		else if (n == 5 && !strncmp(s, "json+", 5))
			p->formats |= FIO_OUT_JSONPLUS;
		else if (n == 5 && !strncmp(s, "terse", 5))
			p->formats |= FIO_OUT_TERSE;
		else
			return nm_errf(err, errlen, "--output-format: \"%s\": expected normal, json, json+ or terse",
				       fio_q(v, qb, sizeof qb));
		s = e ? e + 1 : NULL;
	}
	if ((p->formats & FIO_OUT_JSON) && (p->formats & FIO_OUT_JSONPLUS))
		p->formats &= ~FIO_OUT_JSON; /* json+ is json with bins */
	return 0;
}

/* One of fio's own switches (longopts.c lists them), by its full name: 1 when done, -1 on error
 * (one nodemark does not run is refused). */
static int cli_switch(struct fio_plan *p, const char *key, const char *val, char *err, size_t errlen)
{
	static const char *const ignored[] = { "alloc-size", "debug", "warnings-fatal" };
	char qb[64];
	if (!strcmp(key, "output")) {
		if (fio_need_value(val, err, errlen) < 0)
			return nm_errf(err, errlen, "--output: needs a file name");
		for (const char *c = val; *c; c++)
			if (iscntrl((unsigned char)*c))
				return nm_errf(err, errlen, "--output: the file name has control characters");
		char why[512]; /* refused now, not after the jobs ran */
		if (afile_check(val, why, sizeof why) < 0)
			return nm_errf(err, errlen, "--output: %s", why);
		free(p->output);
		p->output = xstrdup(val);
		return 1;
	}
	if (!strcmp(key, "output-format"))
		return set_formats(p, val, err, errlen) < 0 ? -1 : 1;
	if (!strcmp(key, "minimal")) {
		p->formats = FIO_OUT_TERSE;
		return 1;
	}
	if (!strcmp(key, "terse-version")) {
		if (!val || strlen(val) != 1 || val[0] < '2' || val[0] > '5') /* fio's own range */
			return nm_errf(err, errlen, "--terse-version: \"%s\": expected 2, 3, 4 or 5",
				       fio_q(val, qb, sizeof qb));
		p->terse_version = val[0] - '0';
		return 1;
	}
	if (!strcmp(key, "status-interval")) {
		char why[256];
		if (fio_duration(val, &p->status_interval_ns, why, sizeof why) < 0)
			return nm_errf(err, errlen, "--status-interval: %s", why);
		if (!p->status_interval_ns)
			return nm_errf(err, errlen, "--status-interval: 0: expected a time like 1, 10s, 500ms");
		return 1;
	}
	if (!strcmp(key, "eta")) { /* fio's status line: auto (a terminal), always, never */
		if (val && !strcmp(val, "always"))
			p->eta_when = FIO_ETA_ALWAYS;
		else if (val && !strcmp(val, "never"))
			p->eta_when = FIO_ETA_NEVER;
		else if (val && !strcmp(val, "auto"))
			p->eta_when = FIO_ETA_AUTO;
		else
			return nm_errf(err, errlen, "--eta: \"%s\": expected auto, always or never", fio_q(val, qb, sizeof qb));
		return 1;
	}
	if (!strcmp(key, "eta-interval") || !strcmp(key, "eta-newline")) {
		char why[256];
		uint64_t ns;
		int nl = key[4] == 'n';
		if (fio_duration(val, &ns, why, sizeof why) < 0)
			return nm_errf(err, errlen, "--%s: %s", key, why);
		if (!nl && ns < 250000000ull) /* fio's floor: the line is not redrawn more often */
			return nm_errf(err, errlen, "--eta-interval: %s: at least 250ms", fio_q(val, qb, sizeof qb));
		if (nl && ns < 1000000ull)
			return nm_errf(err, errlen, "--eta-newline: %s: too short (1ms at least)", fio_q(val, qb, sizeof qb));
		*(nl ? &p->eta_newline_ns : &p->eta_interval_ns) = ns;
		return 1;
	}
	if (!strcmp(key, "cmdhelp") || !strcmp(key, "enghelp")) { /* a table is printed, nothing runs */
		int eng = key[0] == 'e';
		free(p->cmdhelp);
		if (asprintf(&p->cmdhelp, "%s%s", eng ? FIO_ENGHELP_PREFIX : "", val && *val ? val : eng ? "" : "all") < 0)
			abort();
		return 1;
	}
	if (!strcmp(key, "bandwidth-log")) {
		p->bandwidth_log = 1;
		return 1;
	}
	if (!strcmp(key, "parse-only")) {
		p->parse_only = 1;
		return 1;
	}
	if (!strcmp(key, "readonly")) {
		p->readonly = 1;
		return 1;
	}
	if (!strcmp(key, "aux-path")) { /* fio's verify state files go there (fio/vstate.c) */
		if (fio_need_value(val, err, errlen) < 0)
			return nm_errf(err, errlen, "--aux-path: needs a directory");
		free(p->aux_path);
		p->aux_path = xstrdup(val);
		return 1;
	}
	if (!strcmp(key, "section")) {
		if (fio_need_value(val, err, errlen) < 0)
			return nm_errf(err, errlen, "--section: needs a job name");
		fio_strv_push(&p->sections, &p->nsections, xstrdup(val));
		return 1;
	}
	if (!strcmp(key, "max-jobs")) /* fio 3.33 reads it and drops it, without a word */
		return 1;
	for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
		if (!strcmp(key, ignored[i])) {
			char *w;
			if (asprintf(&w, "--%s: ignored (fio bookkeeping)", key) < 0)
				abort();
			fio_strv_push(&p->warnings, &p->nwarnings, w);
			return 1;
		}
	if (!strcmp(key, "help")) /* main's --help, spelled in full, prints nodemark fio's */
		return nm_errf(err, errlen, "--help: spelled in full it prints nodemark fio's help");
	return nm_errf(err, errlen, "--%s is not supported by nodemark fio", key);
}

/* Where the command line is: the job its options go to (NULL: the globals, before the first
 * --name) and the engine whose options fio takes on the command line now. fio reads its command
 * line with getopt, and an engine's options are among getopt's words only once that engine is
 * loaded: the globals' engine (psync unless named) when --name= starts a job, the new one after
 * an --ioengine=. So --hipri=1 before --ioengine=io_uring is fio's "unrecognized option" (a job
 * file's section is read whole, engine options after the engine: there the order is free). */
struct cli_pos {
	struct fio_job *job;
	const struct io_engine_ops *engine;
	const char *engine_name;    /* as typed (fio compares names: sync and psync differ) */
};

/* The engine the globals name so far, else fio's default. */
static void globals_engine(struct fio_plan *p, struct cli_pos *pos)
{
	int found = 0;
	const char *v = fio_optlist_get(&p->globals, "ioengine", &found);
	pos->engine = io_engine_fio_default();
	pos->engine_name = io_engine_fio_name(pos->engine);
	if (found && v && io_engine_parse_fio(v, &pos->engine) == 0)
		pos->engine_name = v;
}

/* fio loads another engine: what the options of the one before set is dropped (fio frees its
 * engine options and starts the new engine's from their defaults); they stay in the list, as
 * fio's "job options" keep them. */
static void drop_engine_options(struct fio_optlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct fio_option *d = fio_option_find(l->kv[i].key);
		if ((d && d->eopt) || fio_is_engine_option(l->kv[i].key)) /* cmdprio_* too: fio's are io_uring's */
			l->kv[i].dropped = 1;
	}
}

/* A job option on the command line: before the first --name (or after --name=global) a
 * global, else the job's. */
static int job_option(struct fio_plan *p, struct cli_pos *pos, const char *key, const char *val, char *err,
		      size_t errlen)
{
	if (strcmp(key, "name") != 0) {
		const struct fio_option *d = fio_option_find(key);
		struct fio_optlist *l = pos->job ? &pos->job->opts : &p->globals;
		key = d->name; /* fio's own name for it, as fio shows it */
		if (d->apply == fio_apply_ioengine) {
			const struct io_engine_ops *e = NULL;
			if (val && io_engine_parse_fio(val, &e) == 0 && strcmp(val, pos->engine_name) != 0) {
				drop_engine_options(l);
				pos->engine = e;
				pos->engine_name = val;
			}
		}
		if (pos->job)
			fio_optlist_append(l, key, val);
		else
			fio_optlist_set(l, key, val);
		if (!pos->job && d->apply == fio_apply_ioengine) /* the name: the globals' own copy */
			globals_engine(p, pos);
		return 0;
	}
	if (!val || !*val)
		return nm_errf(err, errlen, "--name: needs a job name");
	/* --name=global (fio looks at 6 letters), or a job --section leaves out (fio skips it at
	 * its --name): the options after it have no job to go to, and are global ones for the
	 * jobs named after them */
	int global = strncmp(val, "global", 6) == 0, wanted = !p->nsections;
	for (size_t k = 0; k < p->nsections; k++)
		wanted |= strcmp(p->sections[k], val) == 0;
	if (global) /* fio lists it among the global options */
		fio_optlist_set(&p->globals, "name", val);
	if (global || !wanted) {
		pos->job = NULL;
		globals_engine(p, pos);
		return 0;
	}
	pos->job = fio_plan_add_job(p, val, &p->globals, err, errlen);
	if (!pos->job)
		return -1;
	pos->job->from_cli = 1;
	fio_optlist_append(&pos->job->opts, "name", val); /* fio lists it in "job options" */
	globals_engine(p, pos);
	return 0;
}

/* A job or engine option by its full name (m from longopts.c), with its value (NULL: given bare). */
static int cli_job_option(struct fio_plan *p, struct cli_pos *pos, const struct fio_word *m, const char *val,
			  char *err, size_t errlen)
{
	char qb[64];
	const char *key = m->name;
	const struct fio_option *opt = fio_option_find(key);
	/* the engine's option in fio's table (longopts.c found it there) that nodemark's engine for
	 * that name lacks: fio takes it, nodemark cannot do what it asks */
	if (fio_is_engine_option(key) && (!opt || (opt->eopt && !io_engine_option_of(pos->engine, key))))
		return nm_errf(err, errlen, "--%s: fio's ioengine=%s option is not supported by nodemark fio "
			       "(docs/fio-compat.md)", fio_q(key, qb, sizeof qb), pos->engine_name);
	if (fio_option_check(p, "--", key, err, errlen) < 0)
		return -1;
	char why[320];
	if (strcmp(key, "name") != 0 && fio_option_value_check(opt, val, why, sizeof why) < 0) {
		if (pos->job)
			return nm_errf(err, errlen, "job '%s': --%s: %s", fio_q(pos->job->name, qb, sizeof qb), key, why);
		return nm_errf(err, errlen, "--%s: %s", key, why);
	}
	return job_option(p, pos, key, val, err, errlen);
}

/* A bare --write_lat_log (at the end, or before another option): the job's name is the prefix
 * (fio would take the next option as the prefix, or refuse the last word). */
static int bare_log(const struct fio_word *m, int argc, char **argv, int i)
{
	const struct fio_option *d = m->is_switch ? NULL : fio_option_find(m->name);
	return d && d->type == FIO_T_STR_OPT && (i + 1 >= argc || opt_is_option_word(argv[i + 1]));
}

/* argv[*i], a word that starts with '-' (not "-" or "--"), read as getopt_long_only reads it;
 * *i moves past a value taken from the next word. */
static int one_option(struct fio_plan *p, struct cli_pos *pos, int argc, char **argv, int *i, char *err,
		      size_t errlen)
{
	struct fio_word m;
	if (fio_word_match(argv[*i], pos->engine_name, &m, err, errlen) < 0)
		return -1;
	for (;;) {
		const char *val = m.has_value ? m.value : NULL;
		/* getopt takes the next word, whatever it is; nodemark not another option's word
		 * (fio would write --output --bs=4k's report to a file named --bs=4k) */
		if (!m.has_value && m.arg == FIO_ARG_REQUIRED && !bare_log(&m, argc, argv, *i)) {
			if (*i + 1 >= argc || opt_is_option_word(argv[*i + 1]))
				return nm_errf(err, errlen, "--%s: needs %s", m.name,
					       !strcmp(m.name, "output") ? "a file name"
					       : !strcmp(m.name, "section") ? "a job name" : "a value");
			val = argv[++*i];
		}
		if (!m.is_switch && m.arg == FIO_ARG_REQUIRED && val && !*val) /* fio: "requires an argument" */
			return nm_errf(err, errlen, "--%s: needs a value", m.name);
		if (!m.is_switch)
			return cli_job_option(p, pos, &m, val, err, errlen);
		if (cli_switch(p, m.name, val, err, errlen) < 0)
			return -1;
		if (!m.rest)
			return 0;
		if (fio_word_short(m.rest, &m, err, errlen) < 0) /* "-rP": the next letter */
			return -1;
	}
}

int fio_parse_args(struct fio_plan *p, int argc, char **argv, char *err, size_t errlen)
{
	struct cli_pos pos = { NULL, NULL, NULL };
	const char **files = calloc((size_t)argc + 1, sizeof *files);
	size_t nfiles = 0;
	int rc = -1;
	if (!files)
		abort();
	globals_engine(p, &pos);
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) { /* getopt: the words after it are not options */
			while (++i < argc)
				files[nfiles++] = argv[i];
		} else if (argv[i][0] != '-' || argv[i][1] == '\0') {
			files[nfiles++] = argv[i];
		} else if (one_option(p, &pos, argc, argv, &i, err, errlen) < 0) {
			goto out;
		}
	}
	if (p->cmdhelp) { /* --cmdhelp prints the table; nothing runs */
		rc = 0;
		goto out;
	}
	if (nfiles && p->no_jobfiles) {
		nm_errf(err, errlen, "job files are not allowed here");
		goto out;
	}
	for (size_t f = 0; f < nfiles; f++) {
		size_t first = p->njobs;
		p->jobfiles = xrealloc(p->jobfiles, (p->njobfiles + 1) * sizeof *p->jobfiles);
		p->jobfiles[p->njobfiles++] = xstrdup(files[f]);
		if (fio_parse_jobfile(p, files[f], err, errlen) < 0)
			goto out;
		/* as fio: a stonewall between job files (the job's own stonewall= still wins) */
		if (f && first < p->njobs)
			p->jobs[first].stonewall = 1;
	}
	rc = fio_plan_finish(p, err, errlen);
out:
	free(files);
	return rc;
}
