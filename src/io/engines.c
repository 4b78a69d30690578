/* The engine table: every engine nodemark has, in the order listings show them. Adding an
 * engine is its file (the ops) and one line here (with its name in enum io_engine_kind);
 * names, parsing, help and error lists, and the capability checks all come from this table. */
#include "io/internal.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const struct io_engine_ops *const engines[] = {
	[ENGINE_URING] = &io_uring_ops,
	[ENGINE_PSYNC] = &io_psync_ops,
	[ENGINE_MMAP] = &io_mmap_ops,
	[ENGINE_NULL] = &io_null_ops,
	[ENGINE_FILECREATE] = &io_filecreate_ops,
	[ENGINE_FILESTAT] = &io_filestat_ops,
	[ENGINE_FILEDELETE] = &io_filedelete_ops,
	[ENGINE_FTRUNCATE] = &io_ftruncate_ops,
	[ENGINE_FALLOC] = &io_falloc_ops,
	[ENGINE_CPUIO] = &io_cpuio_ops,
	[ENGINE_EXEC] = &io_exec_ops,
	[ENGINE_NET] = &io_net_ops,
};

#define NENGINES (sizeof engines / sizeof engines[0])

const struct io_engine_ops *io_engine_ops(enum io_engine_kind k)
{
	return (unsigned)k < NENGINES ? engines[k] : NULL;
}

const struct io_engine_ops *io_engine_at(unsigned i, enum io_engine_kind *kind)
{
	for (unsigned k = 0; k < NENGINES; k++)
		if (engines[k] && i-- == 0) {
			if (kind)
				*kind = (enum io_engine_kind)k;
			return engines[k];
		}
	return NULL;
}

unsigned io_engine_caps(enum io_engine_kind k)
{
	const struct io_engine_ops *e = io_engine_ops(k);
	return e ? e->caps : 0;
}

int io_engine_available(enum io_engine_kind k)
{
	const struct io_engine_ops *e = io_engine_ops(k);
	return e && (!e->available || e->available());
}

const char *io_engine_name(enum io_engine_kind k)
{
	if (k == ENGINE_AUTO)
		return "auto";
	const struct io_engine_ops *e = io_engine_ops(k);
	return e ? e->name : NULL;
}

int io_engine_parse(const char *s, enum io_engine_kind *out)
{
	if (strcmp(s, "auto") == 0) {
		*out = ENGINE_AUTO;
		return 0;
	}
	for (unsigned k = 0; k < NENGINES; k++) {
		const struct io_engine_ops *e = engines[k];
		if (!e)
			continue;
		int match = strcmp(s, e->name) == 0;
		for (unsigned a = 0; !match && a < sizeof e->aliases / sizeof e->aliases[0] && e->aliases[a]; a++)
			match = strcmp(s, e->aliases[a]) == 0;
		if (match) {
			*out = (enum io_engine_kind)k;
			return 0;
		}
	}
	return -1;
}

static char choices[512], expected[540];

static void build_choices(void)
{
	size_t n = (size_t)snprintf(choices, sizeof choices, "auto");
	const struct io_engine_ops *e, *next;
	for (unsigned i = 0; (e = io_engine_at(i, NULL)) && n < sizeof choices; i++) {
		next = io_engine_at(i + 1, NULL);
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
