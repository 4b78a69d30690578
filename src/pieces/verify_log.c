/* pieces verify, the log backend: each shard's index, the pieces it points at, and a walk of
 * every log from its start along the pieces' own footers.
 *
 * The walk is what makes a damaged index harmless: a piece whose index record was lost (a zeroed
 * record, a deleted or damaged index.tbl) is found by its footer, checked by its hash, reported,
 * and put back by --repair, which rebuilds the index (written aside, synced, renamed).  Bytes
 * past the last committed piece are an unfinished append: reported, and cut by --repair.  A
 * piece counts as committed when the index holds a later one, when the run finished (the
 * marker's count), or when the index is missing or damaged (no way to tell: kept).  Nothing that
 * verifies is ever cut. */
#include "pieces/verify_internal.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { INDEX_OK, INDEX_MISSING, INDEX_DAMAGED };

struct logfile {
	uint32_t no;
	uint64_t size;
};

/* The ids of a shard's pieces, open addressing: a log file copied beside itself holds every
 * piece twice, and indexing both copies would give an index with every id twice. */
struct idset {
	uint8_t (*id)[PIECE_ID_LEN];
	uint8_t *used;
	size_t cap, n;
};

/* 1 when id was there already, 0 when added, -1 when out of memory (then nothing is refused). */
static int idset_add(struct idset *s, const uint8_t id[PIECE_ID_LEN])
{
	if (2 * (s->n + 1) > s->cap) {
		struct idset g = { .cap = s->cap ? 2 * s->cap : 1024 };
		g.id = malloc(g.cap * PIECE_ID_LEN);
		g.used = calloc(g.cap, 1);
		if (!g.id || !g.used) {
			free(g.id);
			free(g.used);
			return -1;
		}
		for (size_t i = 0; i < s->cap; i++)
			if (s->used[i])
				idset_add(&g, s->id[i]);
		free(s->id);
		free(s->used);
		*s = g;
	}
	uint64_t h;
	memcpy(&h, id, sizeof h); /* ids are random */
	for (size_t i = (size_t)(h & (s->cap - 1));; i = (i + 1) & (s->cap - 1)) {
		if (!s->used[i]) {
			s->used[i] = 1;
			memcpy(s->id[i], id, PIECE_ID_LEN);
			s->n++;
			return 0;
		}
		if (!memcmp(s->id[i], id, PIECE_ID_LEN))
			return 1;
	}
}

struct shard {
	int dfd;
	char dir[4200];
	int index_state;
	int finished;                   /* the run finished: every whole piece in a log is committed */
	struct index_record *recs;      /* the index's used records, sorted by log and offset */
	size_t nrecs, caprecs;
	struct index_record *found;     /* committed pieces not in the index, found by their footers */
	size_t nfound, capfound;
	struct logfile *logs;
	size_t nlogs, caplogs;
	uint32_t last_log;              /* the end of the last indexed piece */
	uint64_t last_end;
	int has_last;
	struct idset ids;               /* every piece id met: a second copy is no piece to index */
	int fd;                         /* the log open for check_record */
	uint32_t fd_no;
	uint8_t *scan;
};

static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 64;
	void *p = realloc(*arr, c * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = c;
	return 0;
}

static int by_place(const void *a, const void *b)
{
	const struct index_record *x = a, *y = b;
	if (x->log_no != y->log_no)
		return x->log_no < y->log_no ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int by_no(const void *a, const void *b)
{
	const struct logfile *x = a, *y = b;
	return x->no < y->no ? -1 : x->no > y->no;
}

static void log_name(uint32_t no, char *out, size_t len)
{
	snprintf(out, len, "log-%08u.log", no);
}

static void on_shard_entry(struct verifier *v, int dfd, const char *dirpath, const char *name, void *ctx)
{
	struct shard *sh = ctx;
	char path[4200], canon[32];
	struct stat st;
	unsigned no;
	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	if (!strcmp(name, "index.tbl"))
		return;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!strcmp(name, "index.tbl.new") && S_ISREG(st.st_mode)) {
		/* An index rebuild that was interrupted: ours, and never renamed into place. */
		v->rep->temp_files++;
		if (v->repair && unlinkat(dfd, name, 0) == 0)
			v->rep->removed++;
		return;
	}
	if (sscanf(name, "log-%8u.log", &no) == 1) {
		log_name(no, canon, sizeof canon);
		if (!strcmp(canon, name) && S_ISREG(st.st_mode) && st.st_dev == v->dev) {
			if (grow((void **)&sh->logs, &sh->caplogs, sh->nlogs, sizeof *sh->logs) == 0)
				sh->logs[sh->nlogs++] = (struct logfile){ no, (uint64_t)st.st_size };
			return;
		}
	}
	verify_note(v, PIECES_LEFT_ALONE, path, "not a file nodemark writes (a link, or another name), left alone");
}

static void index_damaged(struct verifier *v, struct shard *sh, const char *path, const char *why)
{
	v->rep->bad_records++;
	verify_note(v, PIECES_DAMAGED, path, why);
	if (sh)
		sh->index_state = INDEX_DAMAGED;
}

/* Read the index's used records into sh->recs; damaged ones are reported. */
static void read_index(struct verifier *v, struct shard *sh)
{
	char path[4300];
	uint8_t hdr[INDEX_RECORD_SIZE];
	struct stat st;
	uint64_t nslots;
	const char *why;
	snprintf(path, sizeof path, "%s/index.tbl", sh->dir);
	int fd = verify_open_file(v, sh->dfd, sh->dir, "index.tbl", O_RDONLY, &st);
	if (fd == -2) {
		sh->index_state = INDEX_MISSING;
		return;
	}
	if (fd < 0) {
		sh->index_state = INDEX_DAMAGED;
		return;
	}
	int n = pread_full(fd, hdr, sizeof hdr, 0);
	if (n < 0)
		index_damaged(v, sh, path, strerror(errno));
	else if (index_header_decode(hdr, (size_t)n, &nslots, &why) < 0)
		index_damaged(v, sh, path, why);
	else if ((uint64_t)st.st_size < (nslots + 1) * INDEX_RECORD_SIZE)
		index_damaged(v, sh, path, "index shorter than its slot count");
	else {
		size_t per = VERIFY_BUF / INDEX_RECORD_SIZE;
		for (uint64_t s = 0; s < nslots && !verify_stopping(v); s += per) {
			size_t k = nslots - s < per ? (size_t)(nslots - s) : per;
			n = pread_full(fd, sh->scan, k * INDEX_RECORD_SIZE, (s + 1) * INDEX_RECORD_SIZE);
			if (n < (int)(k * INDEX_RECORD_SIZE)) {
				index_damaged(v, sh, path, "index cannot be read");
				break;
			}
			for (size_t i = 0; i < k; i++) {
				struct index_record r;
				int u = index_record_decode(sh->scan + i * INDEX_RECORD_SIZE, INDEX_RECORD_SIZE, &r, &why);
				if (u < 0) {
					char where[4400];
					snprintf(where, sizeof where, "%s slot %llu", path, (unsigned long long)(s + i));
					/* The piece it pointed at is found by the walk; the index needs rebuilding. */
					v->rep->bad_records++;
					verify_note(v, PIECES_DAMAGED, where, why);
				} else if (u > 0 && grow((void **)&sh->recs, &sh->caprecs, sh->nrecs, sizeof r) == 0) {
					sh->recs[sh->nrecs++] = r;
				}
			}
		}
	}
	close(fd);
}

static const struct logfile *find_log(const struct shard *sh, uint32_t no)
{
	for (size_t i = 0; i < sh->nlogs; i++)
		if (sh->logs[i].no == no)
			return &sh->logs[i];
	return NULL;
}

static void check_record(struct verifier *v, struct shard *sh, const struct index_record *r)
{
	char name[32], where[4400];
	uint8_t footer[LOG_FOOTER_SIZE];
	struct piece_info pi;
	const char *why = NULL;
	int unverified = 0;

	v->rep->pieces++;
	log_name(r->log_no, name, sizeof name);
	snprintf(where, sizeof where, "%s/%s@%llu", sh->dir, name, (unsigned long long)r->offset);
	if (!find_log(sh, r->log_no))
		return verify_corrupt(v, where, "its log file is missing (or is no regular file)");
	if (sh->fd < 0 || sh->fd_no != r->log_no) {
		if (sh->fd >= 0)
			close(sh->fd);
		sh->fd = openat(sh->dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		sh->fd_no = r->log_no;
		if (sh->fd < 0)
			return verify_corrupt(v, where, strerror(errno));
	}
	int n = pread_full(sh->fd, footer, sizeof footer, r->offset + r->size);
	if (n < 0)
		why = strerror(errno);
	else if (log_footer_decode(footer, (size_t)n, &pi, &why) < 0)
		;
	else if (pi.size != r->size || memcmp(pi.id, r->id, PIECE_ID_LEN))
		why = "footer does not match the index record (records swapped or moved?)";
	else
		why = verify_data(v, sh->fd, r->offset, pi.size, pi.algo, pi.hash, &unverified);
	if (why)
		return verify_corrupt(v, where, why);
	if (unverified)
		v->rep->unverified++;
	else
		v->rep->ok++;
}

/* The offset of the footer of a piece starting at pos, ending by end; -1 when there is none
 * (or a signal came: the caller asks verify_stopping). */
static int64_t find_footer(struct verifier *v, struct shard *sh, int fd, uint64_t pos, uint64_t end,
			   struct piece_info *pi)
{
	for (uint64_t b = pos; b + LOG_FOOTER_SIZE <= end && !verify_stopping(v);) {
		size_t want = end - b < VERIFY_BUF ? (size_t)(end - b) : VERIFY_BUF;
		int n = pread_full(fd, sh->scan, want, b);
		if (n < LOG_FOOTER_SIZE)
			return -1;
		for (size_t i = 0; i + LOG_FOOTER_SIZE <= (size_t)n;) {
			uint8_t *m = memmem(sh->scan + i, (size_t)n - i, "NMLF", 4);
			if (!m)
				break;
			size_t k = (size_t)(m - sh->scan);
			if (k + LOG_FOOTER_SIZE > (size_t)n)
				break;
			if (log_footer_decode(m, LOG_FOOTER_SIZE, pi, NULL) == 0 && pi->size == b + k - pos)
				return (int64_t)(b + k);
			i = k + 1;
		}
		b += (uint64_t)n - (LOG_FOOTER_SIZE - 1); /* a footer across two reads is seen whole */
	}
	return -1;
}

static int committed_at(const struct shard *sh, uint32_t log_no, uint64_t pos)
{
	if (sh->finished || sh->index_state != INDEX_OK)
		return 1;
	return sh->has_last && (log_no < sh->last_log || (log_no == sh->last_log && pos < sh->last_end));
}

static void cut_tail(struct verifier *v, struct shard *sh, const struct logfile *lf, uint64_t pos)
{
	char name[32];
	struct stat st;
	v->rep->tail_bytes += lf->size - pos;
	if (!v->repair || v->stopped)
		return;
	log_name(lf->no, name, sizeof name);
	int fd = openat(sh->dfd, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == v->dev && ftruncate(fd, (off_t)pos) == 0)
		v->rep->removed++;
	close(fd);
}

/* A committed piece found by its footer at pos, not in the index. */
static void found_piece(struct verifier *v, struct shard *sh, int fd, const struct logfile *lf, uint64_t pos,
			const struct piece_info *pi)
{
	char where[4400];
	int unverified;
	snprintf(where, sizeof where, "%s/log-%08u.log@%llu", sh->dir, lf->no, (unsigned long long)pos);
	if (idset_add(&sh->ids, pi->id) == 1) {
		v->rep->duplicates++;
		return verify_note(v, PIECES_DAMAGED, where, "a second copy of a piece already in the store (a copied "
							     "log file?): not a piece to index");
	}
	v->rep->pieces++;
	const char *why = verify_data(v, fd, pos, pi->size, pi->algo, pi->hash, &unverified);
	if (why)
		return verify_corrupt(v, where, why);
	if (unverified)
		v->rep->unverified++;
	else
		v->rep->ok++;
	v->rep->unindexed++;
	if (sh->index_state == INDEX_OK)
		verify_note(v, PIECES_DAMAGED, where, "a committed piece that is not in the index (its record was "
						      "lost); --repair puts it back");
	if (grow((void **)&sh->found, &sh->capfound, sh->nfound, sizeof *sh->found) == 0) {
		struct index_record *r = &sh->found[sh->nfound++];
		memset(r, 0, sizeof *r);
		memcpy(r->id, pi->id, PIECE_ID_LEN);
		r->log_no = lf->no;
		r->flags = INDEX_USED;
		r->offset = pos;
		r->size = pi->size;
		r->created_s = (uint32_t)(pi->created_ns / 1000000000);
	}
}

/* Walk one log along its pieces; *ri is the first index record of this log. */
static void walk_log(struct verifier *v, struct shard *sh, const struct logfile *lf, size_t *ri)
{
	char name[32], where[4400];
	struct piece_info pi;
	log_name(lf->no, name, sizeof name);
	int fd = openat(sh->dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	uint64_t pos = 0;
	while (pos < lf->size && !verify_stopping(v)) {
		while (*ri < sh->nrecs && sh->recs[*ri].log_no == lf->no && sh->recs[*ri].offset < pos)
			(*ri)++; /* overlaps the piece before: already judged by its footer */
		int indexed_next = *ri < sh->nrecs && sh->recs[*ri].log_no == lf->no;
		if (indexed_next && sh->recs[*ri].offset == pos) {
			pos += sh->recs[*ri].size + LOG_FOOTER_SIZE;
			(*ri)++;
			continue;
		}
		uint64_t next = indexed_next ? sh->recs[*ri].offset : lf->size;
		int64_t f = find_footer(v, sh, fd, pos, next, &pi);
		if (verify_stopping(v))
			break;
		if (f >= 0 && committed_at(sh, lf->no, pos)) {
			found_piece(v, sh, fd, lf, pos, &pi);
			pos = (uint64_t)f + LOG_FOOTER_SIZE;
			continue;
		}
		if (f < 0 && indexed_next) {
			snprintf(where, sizeof where, "%s/%s@%llu", sh->dir, name, (unsigned long long)pos);
			v->rep->pieces++;
			verify_corrupt(v, where, "bytes before the next indexed piece are no whole piece");
			pos = next;
			continue;
		}
		/* An append that never committed, or bytes that are no piece (a committed piece lost
		 * with its footer shows in the marker's count: missing). */
		cut_tail(v, sh, lf, pos);
		break;
	}
	close(fd);
}

/* Write the index anew from what verifies: aside, synced, renamed over, directory synced. */
static int rebuild_index(struct verifier *v, struct shard *sh)
{
	size_t n = sh->nrecs + sh->nfound;
	uint64_t nslots = 64;
	while (nslots < 2 * (uint64_t)n)
		nslots *= 2;
	uint8_t *used = calloc(nslots, 1), rec[INDEX_RECORD_SIZE];
	int fd = -1, rc = -1;
	if (!used)
		goto out;
	unlinkat(sh->dfd, "index.tbl.new", 0);
	fd = openat(sh->dfd, "index.tbl.new", O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)((nslots + 1) * INDEX_RECORD_SIZE)) < 0)
		goto out;
	index_header_encode(nslots, rec);
	if (pwrite_full(fd, rec, sizeof rec, 0) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct index_record *r = i < sh->nrecs ? &sh->recs[i] : &sh->found[i - sh->nrecs];
		uint64_t slot = index_slot(r->id, nslots);
		while (used[slot])
			slot = (slot + 1) & (nslots - 1);
		used[slot] = 1;
		index_record_encode(r, rec);
		if (pwrite_full(fd, rec, sizeof rec, (slot + 1) * INDEX_RECORD_SIZE) < 0)
			goto out;
	}
	if (fsync(fd) < 0 || renameat(sh->dfd, "index.tbl.new", sh->dfd, "index.tbl") < 0 || fsync(sh->dfd) < 0)
		goto out;
	rc = 0;
	v->rep->reindexed += sh->nfound;
out:
	if (rc < 0) {
		nm_errf(v->err, v->errlen, "%s/index.tbl: cannot rebuild the index: %s", sh->dir, strerror(errno));
		if (fd >= 0)
			unlinkat(sh->dfd, "index.tbl.new", 0);
	}
	if (fd >= 0)
		close(fd);
	free(used);
	return rc;
}

static int verify_shard(struct verifier *v, int dfd, const char *dirpath, const char *name, int finished)
{
	struct shard sh = { .fd = -1, .finished = finished };
	int rc = 0;
	snprintf(sh.dir, sizeof sh.dir, "%s/%s", dirpath, name);
	if ((sh.dfd = verify_open_dir(v, dfd, dirpath, name)) < 0)
		return 0;
	if (!(sh.scan = malloc(VERIFY_BUF))) {
		close(sh.dfd);
		return nm_errf(v->err, v->errlen, "out of memory");
	}
	if (verify_each(v, sh.dfd, sh.dir, on_shard_entry, &sh) < 0)
		rc = -1;
	uint64_t bad_before = v->rep->bad_records;
	read_index(v, &sh);
	if (sh.nlogs)
		qsort(sh.logs, sh.nlogs, sizeof *sh.logs, by_no);
	if (sh.nrecs)
		qsort(sh.recs, sh.nrecs, sizeof *sh.recs, by_place);
	for (size_t i = 0; i < sh.nrecs && !verify_stopping(v); i++) {
		check_record(v, &sh, &sh.recs[i]);
		sh.has_last = 1;
		sh.last_log = sh.recs[i].log_no;
		sh.last_end = sh.recs[i].offset + sh.recs[i].size + LOG_FOOTER_SIZE;
	}
	if (sh.fd >= 0)
		close(sh.fd);
	for (size_t i = 0; i < sh.nrecs; i++)
		idset_add(&sh.ids, sh.recs[i].id);
	size_t ri = 0;
	for (size_t i = 0; i < sh.nlogs && !verify_stopping(v); i++) {
		while (ri < sh.nrecs && sh.recs[ri].log_no < sh.logs[i].no)
			ri++;
		walk_log(v, &sh, &sh.logs[i], &ri);
	}
	/* No index and no whole piece: killed before the index existed; nothing was committed. */
	int never_indexed = sh.index_state == INDEX_MISSING && !sh.nfound;
	if (!never_indexed && !v->stopped && (sh.index_state != INDEX_OK || sh.nfound || v->rep->bad_records > bad_before)) {
		if (sh.index_state != INDEX_OK) {
			char path[4300], why[200];
			snprintf(path, sizeof path, "%s/index.tbl", sh.dir);
			snprintf(why, sizeof why, "%s; %zu committed pieces found by their footers%s",
				 sh.index_state == INDEX_MISSING ? "the index is missing" : "the index is damaged",
				 sh.nfound, v->repair ? "" : "; --repair rebuilds the index");
			verify_note(v, PIECES_DAMAGED, path, why);
		}
		v->rep->index_damaged++;
		if (v->repair && rc == 0) {
			if (rebuild_index(v, &sh) < 0)
				rc = -1;
			else
				v->rep->index_rebuilt++;
		}
	}
	close(sh.dfd);
	free(sh.scan);
	free(sh.recs);
	free(sh.found);
	free(sh.logs);
	free(sh.ids.id);
	free(sh.ids.used);
	return rc;
}

struct log_walk {
	int finished, rc;
};

static void on_shard(struct verifier *v, int dfd, const char *dirpath, const char *name, void *ctx)
{
	struct log_walk *lw = ctx;
	char path[4200];
	unsigned no;
	char canon[16];
	if (sscanf(name, "w%3u", &no) == 1 && snprintf(canon, sizeof canon, "w%03u", no) > 0 && !strcmp(canon, name)) {
		if (verify_shard(v, dfd, dirpath, name, lw->finished) < 0)
			lw->rc = -1;
		return;
	}
	snprintf(path, sizeof path, "%s/%s", dirpath, name);
	verify_note(v, PIECES_LEFT_ALONE, path, "not a shard directory nodemark writes, left alone");
}

int verify_log_store(struct verifier *v, int rfd, const char *root, int64_t committed)
{
	char path[4200];
	struct log_walk lw = { .finished = committed >= 0 };
	int fd = verify_open_dir(v, rfd, root, "log");
	if (fd < 0)
		return 0;
	snprintf(path, sizeof path, "%s/log", root);
	if (verify_each(v, fd, path, on_shard, &lw) < 0)
		lw.rc = -1;
	close(fd);
	return lw.rc;
}
