#include "cli/output.h"
#include "results/store.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_output(const char *path, int (*write)(FILE *fp, void *ctx), void *ctx)
{
	struct atomic_file af;
	char err[512];
	if (!path)
		path = "-";
	FILE *fp = afile_open(&af, path, err, sizeof err);
	if (!fp) {
		nm_error("%s", err);
		return -1;
	}
	if (write(fp, ctx) < 0) {
		nm_error("%s: write failed", path);
		afile_abort(&af);
		return -1;
	}
	if (afile_commit(&af, err, sizeof err) < 0) {
		nm_error("%s", err);
		return -1;
	}
	return 0;
}

struct json_out {
	const json_t *j;
	size_t flags;
};

static int write_json(FILE *fp, void *ctx)
{
	const struct json_out *o = ctx;
	json_dumpf(o->j, fp, o->flags);
	fputc('\n', fp);
	return 0;
}

int cli_output_json(const char *path, const json_t *j, size_t flags)
{
	struct json_out o = { j, flags };
	return cli_output(path, write_json, &o);
}

static void add(struct file_role **v, size_t *n, const char *what, const char *path)
{
	if (!path || !*path || strcmp(path, "-") == 0)
		return;
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	snprintf((*v)[*n].what, sizeof (*v)[*n].what, "%s", what);
	(*v)[(*n)++].path = path;
}

void roles_output(struct file_roles *r, const char *what, const char *path)
{
	add(&r->out, &r->nout, what, path);
}

void roles_input(struct file_roles *r, const char *what, const char *path)
{
	add(&r->in, &r->nin, what, path);
}

void roles_outputs_of(struct file_roles *r, const struct cli_option *t)
{
	for (; t->kind != CLI_KIND_END; t++)
		if (t->kind == CLI_KIND_OUTPUT && *(const char *const *)t->value) {
			char what[64];
			snprintf(what, sizeof what, "--%s", t->name);
			roles_output(r, what, *(const char *const *)t->value);
		}
}

/* What a path names: an existing file by device and inode; a file still to be made by its
 * directory's real path and its own name, so "x", "./x" and "dir/../x" are one file. */
struct ident {
	int exists, in_place; /* in_place: a character device or FIFO, written where it is */
	dev_t dev;
	ino_t ino;
	char path[PATH_MAX + NAME_MAX + 2];
};

static void identify(const char *path, struct ident *id)
{
	struct stat st;
	memset(id, 0, sizeof *id);
	if (stat(path, &st) == 0) {
		id->exists = 1;
		id->in_place = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode);
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return;
	}
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];
	const char *base = slash ? slash + 1 : path;
	if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (realpath(dir, real))
		snprintf(id->path, sizeof id->path, "%s/%s", real, base);
	else
		snprintf(id->path, sizeof id->path, "%s", path);
}

static int same(const struct ident *a, const struct ident *b)
{
	if (a->exists != b->exists)
		return 0;
	return a->exists ? a->dev == b->dev && a->ino == b->ino : strcmp(a->path, b->path) == 0;
}

static void refuse(struct file_roles *r, const struct file_role *o, const char *is, const struct file_role *x)
{
	char line[PATH_MAX * 2 + 256];
	snprintf(line, sizeof line, "%s \"%s\" is %s \"%s\": an output never replaces an input (choose another file)",
		 o->what, o->path, is, x->path);
	free(r->out);
	free(r->in);
	nm_usage_fail("%s", line);
}

void roles_check(struct file_roles *r, const char *db)
{
	char defpath[PATH_MAX], side[3][PATH_MAX + 16];
	static const char *const side_names[3] = { "-wal", "-shm", "-journal" };
	struct file_role store[4];
	if (!db)
		db = store_default_path(defpath, sizeof defpath);
	snprintf(store[0].what, sizeof store[0].what, "the results store");
	store[0].path = db;
	for (int i = 0; i < 3; i++) {
		snprintf(side[i], sizeof side[i], "%s%s", db, side_names[i]);
		snprintf(store[i + 1].what, sizeof store[i + 1].what, "the results store's %s file", side_names[i] + 1);
		store[i + 1].path = side[i];
	}

	for (size_t i = 0; i < r->nout; i++) {
		struct ident o, x;
		identify(r->out[i].path, &o);
		if (o.in_place)
			continue;
		for (int k = 0; k < 4; k++) {
			identify(store[k].path, &x);
			if (same(&o, &x))
				refuse(r, &r->out[i], store[k].what, &store[k]);
		}
		for (size_t k = 0; k < r->nin; k++) {
			identify(r->in[k].path, &x);
			if (x.exists && same(&o, &x)) {
				char is[96];
				snprintf(is, sizeof is, "the %s", r->in[k].what);
				refuse(r, &r->out[i], is, &r->in[k]);
			}
		}
		for (size_t k = 0; k < i; k++) {
			identify(r->out[k].path, &x);
			if (same(&o, &x)) {
				char is[96];
				snprintf(is, sizeof is, "also the output of %s", r->out[k].what);
				refuse(r, &r->out[i], is, &r->out[k]);
			}
		}
	}
	free(r->out);
	free(r->in);
	memset(r, 0, sizeof *r);
}

void cli_outputs_check(const struct cli_option *table, const char *const *inputs, size_t ninputs, const char *db)
{
	struct file_roles r = { 0 };
	roles_outputs_of(&r, table);
	for (size_t i = 0; i < ninputs; i++)
		roles_input(&r, "input", inputs[i]);
	roles_check(&r, db);
}