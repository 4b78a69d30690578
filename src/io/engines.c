/* The engine table: every engine nodemark has, in the order listings show them. Adding an
 * engine is its file (the ops: names, fio's names, capabilities) and one line here; names,
 * parsing (nodemark's and fio's), help and error lists, and the capability checks all come
 * from this table. An engine is known by its ops pointer. */
#include "io/internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line per engine: its ops, defined in its own file. */
#define ENGINE_TABLE(E) \
	E(io_uring_ops) \
	E(io_libaio_ops) \
	E(io_psync_ops) \
	E(io_sync_ops) \
	E(io_pvsync2_ops) \
	E(io_mmap_ops) \
	E(io_null_ops) \
	E(io_filecreate_ops) \
	E(io_filestat_ops) \
	E(io_filedelete_ops) \
	E(io_ftruncate_ops) \
	E(io_falloc_ops) \
	E(io_cpuio_ops) \
	E(io_exec_ops) \
	E(io_net_ops)

#define DECLARE(ops) extern const struct io_engine_ops ops;
#define ENTRY(ops) &ops,
ENGINE_TABLE(DECLARE)
static const struct io_engine_ops *const engines[] = { ENGINE_TABLE(ENTRY) };

/* The engines auto picks from, per target (io/session.c: pick_auto), in the order of enum
 * IO_AUTO_*: the choice, its notes and help, and which engine an option goes to under auto. */
const struct io_engine_ops *const io_auto_engines[IO_AUTO_N] = {
	[IO_AUTO_RING] = &io_uring_ops,
	[IO_AUTO_PLAIN] = &io_psync_ops,
};

#define NENGINES (sizeof engines / sizeof engines[0])
#define NAMES(a) (sizeof(a) / sizeof(a)[0])

const struct io_engine_ops *io_engine_at(unsigned i)
{
	return i < NENGINES ? engines[i] : NULL;
}

unsigned io_engine_caps(const struct io_engine_ops *e)
{
	return e ? e->caps : 0;
}

int io_engine_available(const struct io_engine_ops *e)
{
	return e && (!e->available || e->available());
}

const char *io_engine_name(const struct io_engine_ops *e)
{
	return e ? e->name : "auto";
}

/* s among names[] (NULL-ended within n). */
static int named(const char *s, const char *const *names, size_t n)
{
	for (size_t a = 0; a < n && names[a]; a++)
		if (strcmp(s, names[a]) == 0)
			return 1;
	return 0;
}

int io_engine_parse(const char *s, const struct io_engine_ops **out)
{
	if (strcmp(s, "auto") == 0) {
		*out = NULL;
		return 0;
	}
	for (unsigned k = 0; k < NENGINES; k++)
		if (strcmp(s, engines[k]->name) == 0 || named(s, engines[k]->aliases, NAMES(engines[k]->aliases))) {
			*out = engines[k];
			return 0;
		}
	return -1;
}

const char *io_engine_fio_name(const struct io_engine_ops *e)
{
	return e->fio_names[0] ? e->fio_names[0] : e->name;
}

const char *io_engine_fio_name_at(unsigned i)
{
	for (unsigned k = 0; k < NENGINES; k++) {
		const struct io_engine_ops *e = engines[k];
		size_t n = 0;
		while (n < NAMES(e->fio_names) && e->fio_names[n])
			n++;
		if (i < (n ? n : 1))
			return n ? e->fio_names[i] : e->name;
		i -= (unsigned)(n ? n : 1);
	}
	return NULL;
}

int io_engine_parse_fio(const char *s, const struct io_engine_ops **out)
{
	for (unsigned k = 0; k < NENGINES; k++) {
		const struct io_engine_ops *e = engines[k];
		if (e->fio_names[0] ? named(s, e->fio_names, NAMES(e->fio_names)) : strcmp(s, e->name) == 0) {
			*out = e;
			return 0;
		}
	}
	return -1;
}

const struct io_engine_fio_option *io_engine_fio_options(const char *name)
{
	static const struct io_engine_fio_option none[] = { { 0 } };
	const struct io_engine_ops *e;
	if (io_engine_parse_fio(name, &e) < 0)
		return NULL;
	if (strcmp(io_engine_fio_name(e), name) != 0 || !e->fio_options)
		return none;
	return e->fio_options;
}

const struct io_engine_ops *io_engine_fio_default(void)
{
	for (unsigned k = 0; k < NENGINES; k++)
		if (engines[k]->caps & IO_ENGINE_FIO_DEFAULT)
			return engines[k];
	return NULL;
}

const struct io_engine_option *io_engine_option_at(unsigned i, const struct io_engine_ops **owner)
{
	for (unsigned k = 0; k < NENGINES; k++)
		for (const struct io_engine_option *o = engines[k]->options; o && o->name; o++)
			if (i-- == 0) {
				if (owner)
					*owner = engines[k];
				return o;
			}
	return NULL;
}

static int option_named(const struct io_engine_option *o, const char *name)
{
	return strcmp(name, o->name) == 0 || (o->alias && strcmp(name, o->alias) == 0);
}

const struct io_engine_option *io_engine_option_find(const char *name, const struct io_engine_ops **owner)
{
	const struct io_engine_option *o;
	for (unsigned i = 0; (o = io_engine_option_at(i, owner)); i++)
		if (option_named(o, name))
			return o;
	if (owner)
		*owner = NULL;
	return NULL;
}

const struct io_engine_option *io_engine_option_of(const struct io_engine_ops *e, const char *name)
{
	for (const struct io_engine_option *o = e ? e->options : NULL; o && o->name; o++)
		if (option_named(o, name))
			return o;
	return NULL;
}

static void store(unsigned char *at, const struct io_engine_option *o, uint64_t n, const char *s)
{
	at += o->off;
	switch (o->type) {
	case IO_EOPT_BOOL:
		*(int *)(void *)at = n != 0;
		break;
	case IO_EOPT_CHOICE:
		*(int *)(void *)at = (int)n;
		break;
	case IO_EOPT_UINT:
		*(unsigned *)(void *)at = (unsigned)n;
		break;
	case IO_EOPT_STR:
		*(const char **)(void *)at = s;
		break;
	}
}

/* e's options at nodemark's defaults (each option's init; strings NULL). */
static void defaults(const struct io_engine_ops *e, struct io_engine_optbuf *buf)
{
	memset(buf, 0, sizeof *buf);
	buf->of = e;
	for (const struct io_engine_option *o = e ? e->options : NULL; o && o->name; o++)
		store(buf->u.bytes, o, o->init, NULL);
}

void io_engine_option_set(struct io_job *job, const struct io_engine_ops *e, const struct io_engine_option *o,
			  uint64_t n, const char *s)
{
	if (job->eopts.of != e)
		defaults(e, &job->eopts);
	store(job->eopts.u.bytes, o, n, s);
}

const struct io_engine_ops *io_job_option_engine(const struct io_job *job, const char *name)
{
	if (job->engine)
		return io_engine_option_of(job->engine, name) ? job->engine : NULL;
	for (size_t i = 0; i < IO_AUTO_N; i++)
		if (io_engine_option_of(io_auto_engines[i], name))
			return io_auto_engines[i];
	return NULL;
}

/* The flag, whatever engine declares it (the first); *owner gets that engine. */
static const struct io_engine_flag *flag_find(const char *flag, const struct io_engine_ops **owner)
{
	for (unsigned k = 0; k < NENGINES; k++)
		for (const struct io_engine_flag *f = engines[k]->flags; f && f->flag; f++)
			if (strcmp(f->flag, flag) == 0) {
				*owner = engines[k];
				return f;
			}
	return NULL;
}

const char *io_engine_flag_help(const char *flag)
{
	const struct io_engine_ops *owner;
	const struct io_engine_flag *f = flag_find(flag, &owner);
	return f ? f->help : NULL;
}

int io_job_set_flag(struct io_job *job, const char *flag, char *err, size_t errlen)
{
	const struct io_engine_ops *owner = NULL;
	const struct io_engine_flag *f = flag_find(flag, &owner);
	const struct io_engine_ops *e = f ? io_job_option_engine(job, f->option) : NULL;
	if (!e) {
		snprintf(err, errlen, "--%s: the %s engine has no such option (%s has)", flag,
			 io_engine_name(job->engine), io_engine_name(owner));
		return -1;
	}
	io_engine_option_set(job, e, io_engine_option_of(e, f->option), 1, NULL);
	return 0;
}

static char auto_text[256];

static void build_auto_text(void)
{
	const char *ring = io_auto_engines[IO_AUTO_RING]->name, *plain = io_auto_engines[IO_AUTO_PLAIN]->name;
	snprintf(auto_text, sizeof auto_text,
		 "picks per target: %s for O_DIRECT and block devices; buffered files (and tmpfs, always "
		 "buffered): %s at iodepth 1, %s deeper", ring, plain, ring);
}

const char *io_engine_auto_text(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, build_auto_text);
	return auto_text;
}

void io_engine_options_fio_defaults(struct io_job *job)
{
	const struct io_engine_ops *e = job->engine;
	defaults(e, &job->eopts);
	for (const struct io_engine_option *o = e ? e->options : NULL; o && o->name; o++) {
		if (!o->def || o->type == IO_EOPT_STR)
			continue;
		uint64_t n = 0;
		if (o->type == IO_EOPT_CHOICE)
			while (o->choices[n] && strcmp(o->choices[n], o->def) != 0)
				n++;
		else
			n = strtoull(o->def, NULL, 10);
		store(job->eopts.u.bytes, o, n, NULL);
	}
}

const void *io_engine_opts_get(const struct io_job *job, const struct io_engine_ops *e, struct io_engine_optbuf *buf)
{
	if (e && job->eopts.of == e)
		*buf = job->eopts;
	else
		defaults(e, buf);
	return buf->u.bytes;
}

static char choices[512], expected[540];

static void build_choices(void)
{
	size_t n = (size_t)snprintf(choices, sizeof choices, "auto");
	const struct io_engine_ops *e, *next;
	for (unsigned i = 0; (e = io_engine_at(i)) && n < sizeof choices; i++) {
		next = io_engine_at(i + 1);
		n += (size_t)snprintf(choices + n, sizeof choices - n, "%s%s", next ? ", " : " or ", e->name);
	}
	snprintf(expected, sizeof expected, "expected %s", choices);
}

const char *io_engine_choices(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, build_choices);
	return choices;
}

const char *io_engine_expected(void)
{
	io_engine_choices();
	return expected;
}
