/* fio's verify state files (see vstate.h): their names, the bytes of one, reading them before
 * the run and writing them after it. */
#include "fio/vstate.h"
#include "fio/parse_util.h"
#include "io/engine.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/fdio.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_LEN 64      /* fio's record keeps the name's first 63 bytes */

/* fio's verify_state_gen_name: PREFIX-NAME-INDEX-verify.state, each '/' of the name a '.'. */
static char *state_name(const struct fio_plan *p, const char *name, size_t name_len, unsigned index)
{
	char *ename = xmalloc(name_len + 1), *out;
	for (size_t i = 0; i < name_len; i++)
		ename[i] = name[i] == '/' ? '.' : name[i];
	ename[name_len] = 0;
	if (asprintf(&out, "%s%slocal-%s-%u-verify.state", p->aux_path ? p->aux_path : "", p->aux_path ? "/" : "",
		     ename, index) < 0)
		abort();
	free(ename);
	return out;
}

int fio_vstate_names(struct fio_plan *p, char *err, size_t errlen)
{
	unsigned index = 0;
	int any = 0;
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_job *j = &p->jobs[i];
		unsigned n = j->io.numjobs;
		int save = io_vstate_saved_by(&j->io), load = j->vstate.load && j->create_serialize;
		if (save || load) { /* fio loads a state only for the jobs whose files it sets up first */
			j->vstate.paths = xcalloc(n, sizeof *j->vstate.paths);
			j->vstate.load_paths = xcalloc(n, sizeof *j->vstate.load_paths);
			any = 1;
		}
		size_t len = strlen(j->name), saved_len = len < NAME_LEN - 1 ? len : NAME_LEN - 1;
		for (unsigned t = 0; t < n; t++, index++) {
			if (save)
				j->vstate.paths[t] = state_name(p, j->name, saved_len, index);
			if (load)
				j->vstate.load_paths[t] = state_name(p, j->name, len, index);
			if (save && load && !strcmp(j->vstate.paths[t], j->vstate.load_paths[t])) {
				/* the file this thread loads is an input: kept, where fio writes it again */
				char *w, qb[64];
				if (asprintf(&w, "job '%s': verify_state_save: %s is the state the job loads: kept, "
					     "not saved again", fio_q(j->name, qb, sizeof qb), j->vstate.paths[t]) < 0)
					abort();
				fio_strv_push(&p->warnings, &p->nwarnings, w);
				free(j->vstate.paths[t]);
				j->vstate.paths[t] = NULL;
			}
		}
	}
	struct stat st;
	char qb[64];
	if (any && p->aux_path && (stat(p->aux_path, &st) < 0 || !S_ISDIR(st.st_mode)))
		return nm_errf(err, errlen, "--aux-path: \"%s\": %s", fio_q(p->aux_path, qb, sizeof qb),
			       errno == ENOENT ? "no such directory" : "not a directory");
	return 0;
}

/* A state file's bytes, up to what the largest record takes (fio reads no further either). */
static int read_state(const char *path, struct io_vstate *s, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return nm_errf(err, errlen, "%s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = errno;
		close(fd);
		return nm_errf(err, errlen, "%s: %s", path, S_ISREG(st.st_mode) ? strerror(e) : "not a regular file");
	}
	size_t cap = IO_VSTATE_HDR + IO_VSTATE_REC + (size_t)IO_VSTATE_MAX_SLOTS * 16;
	size_t want = (uint64_t)st.st_size < cap ? (size_t)st.st_size : cap;
	unsigned char *buf = xmalloc(want + 1);
	ssize_t got = fd_read_upto(fd, buf, want);
	if (got < 0) {
		int e = errno;
		free(buf);
		close(fd);
		return nm_errf(err, errlen, "%s: %s", path, strerror(e));
	}
	size_t len = (size_t)got;
	close(fd);
	char why[256];
	int rc = io_vstate_parse(buf, len, s, why, sizeof why);
	free(buf);
	return rc < 0 ? nm_errf(err, errlen, "%s: %s", path, why) : 0;
}

int fio_vstate_load(struct fio_plan *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_job *j = &p->jobs[i];
		if (!j->vstate.load_paths || !j->vstate.load_paths[0])
			continue;
		unsigned n = j->io.numjobs;
		j->vstate.loaded = xcalloc(n, sizeof *j->vstate.loaded);
		for (unsigned t = 0; t < n; t++) {
			char msg[1024], qb[64];
			if (read_state(j->vstate.load_paths[t], &j->vstate.loaded[t], msg, sizeof msg) < 0)
				return nm_errf(err, errlen, "job '%s': verify_state_load: %s", fio_q(j->name, qb, sizeof qb), msg);
		}
		j->io.verify.loaded = j->vstate.loaded;
		j->io.verify.nloaded = n;
	}
	return 0;
}

/* Written as the other output files are (temp file, renamed), never through a link. */
static int write_state(const char *path, const unsigned char *buf, size_t len, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return nm_errf(err, errlen, "verify_state_save: %s: a symbolic link (not followed, not written)", path);
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return nm_errf(err, errlen, "verify_state_save: %s: not a regular file (not written)", path);
	char msg[1024];
	if (afile_write_all(path, buf, len, msg, sizeof msg) < 0)
		return nm_errf(err, errlen, "verify_state_save: %s", msg);
	return 0;
}

int fio_vstate_write(const struct fio_plan *p, struct io_job_result *const *res_of, char *err, size_t errlen)
{
	int rc = 0;
	unsigned index = 0;
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		for (unsigned t = 0; t < j->io.numjobs; t++, index++) {
			const struct io_vstate *s = res_of[i] ? res_of[i][t].vstate : NULL;
			if (!s || !j->vstate.paths || !j->vstate.paths[t])
				continue;
			unsigned char *buf;
			size_t len = io_vstate_encode(s, j->name, index, &buf);
			char msg[1200];
			if (write_state(j->vstate.paths[t], buf, len, msg, sizeof msg) < 0) {
				if (rc == 0)
					snprintf(err, errlen, "%s", msg);
				else
					nm_error("%s", msg);
				rc = -1;
			}
			free(buf);
		}
	}
	return rc;
}

void fio_vstate_free(struct fio_job *j)
{
	struct fio_vstate_opts *o = &j->vstate;
	for (unsigned t = 0; t < j->io.numjobs; t++) {
		if (o->paths)
			free(o->paths[t]);
		if (o->load_paths)
			free(o->load_paths[t]);
		if (o->loaded)
			free(o->loaded[t].comps);
	}
	free(o->paths);
	free(o->load_paths);
	free(o->loaded);
	int load = o->load;
	memset(o, 0, sizeof *o);
	o->load = load;
	j->io.verify.loaded = NULL;
	j->io.verify.nloaded = 0;
}
