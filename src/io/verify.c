/* fio's data verification (verify=), in fio 3.33's on-disk format so either tool checks the
 * other's files.
 *
 * Each interval of a written block (verify_interval, by default the block) starts with fio's
 * header, in host order:
 *
 *   u16 magic 0xacca | u16 type (fio's number) | u32 interval length | u64 random seed |
 *   u64 offset in the file | u32 s, u32 ns (time) | u16 thread | u16 write number |
 *   u32 crc32c of the 36 bytes before it
 *
 * then the checksum of the rest of the interval (hash/fiosums.c: fio's own variants), then
 * data: random bytes, or verify_pattern repeated from the block's start. verify=pattern writes
 * no header: the whole block is the pattern. verify_offset swaps the header with the bytes
 * that far in. A read is checked interval by interval: the header (magic, length, offset, the
 * write number where fio checks it, its crc), then the checksum or the pattern. The random seed
 * is not checked: fio takes it from the header itself except on mixed read/write jobs.
 *
 * Writes to read back are logged (offset, length, file, write number); after the write pass
 * (or every verify_backlog writes) they are read in fio's order and checked. */
#include "io/internal.h"
#include "hash/fiosums.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR_MAGIC 0xacca
#define HDR_LEN 40       /* fio's struct verify_header */
#define HDR_CRC_AT 36    /* its crc32c covers the bytes before this */

struct kind_info {
	enum io_verify_kind kind;
	const char *name;   /* as fio names it in its messages */
	unsigned sum_len;   /* bytes of the checksum after the header */
};

static const struct kind_info kinds[] = {
	{ IO_VERIFY_META, "meta", 0 },     { IO_VERIFY_MD5, "md5", 16 },       { IO_VERIFY_CRC32, "crc32", 4 },
	{ IO_VERIFY_CRC32C, "crc32c", 4 }, { IO_VERIFY_SHA256, "sha256", 64 }, { IO_VERIFY_SHA512, "sha512", 128 },
	{ IO_VERIFY_XXHASH, "xxhash", 4 }, { IO_VERIFY_SHA1, "sha1", 20 },     { IO_VERIFY_PATTERN, "pattern", 0 },
	{ IO_VERIFY_PATTERN_NO_HDR, "pattern", 0 },
};

static const struct kind_info *kind_info(enum io_verify_kind k)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].kind == k)
			return &kinds[i];
	return NULL;
}

struct vlog_entry {
	uint64_t offset;
	uint32_t len, seq, file;
	uint16_t numberio;
	uint8_t done, drop;
};

struct io_verify {
	const struct io_verify_opts *o;
	const struct kind_info *ki;
	unsigned interval, hdr_size;
	int log_writes;       /* writes are read back by this job */
	int readback_phase;   /* ... after each pass of writes (not time-based) */
	int check_reads;      /* the job only reads: every read is checked */
	int check_numberio;   /* as fio: a write job of one block size, not time-based */
	int sorted;           /* no random map: read back by offset, a rewritten block once (fio's tree) */
	int tree;             /* sorted with a backlog: a write drops the pending entries it overlaps
	                       * and the backlog reads the lowest offset first, as fio's tree */
	size_t live;          /* pending entries not dropped (fio's io_hist_len) */
	struct vlog_entry *log;
	size_t n, cap, head;  /* head: the oldest entry not yet read back */
	uint32_t base, seq;   /* base: the seq of log[0]; seq: the next write's */
	uint16_t numberio;
	uint64_t batch_left;  /* backlog reads left in the batch under way */
	int last_read;        /* the last I/O chosen was a read (fio starts no batch after one) */
	int state_stopped;    /* a loaded verify state ended the job */
	uint64_t max_len;     /* the largest write, for the overlap scan */
};

/* fio's interval: the smallest block, or one dividing every block size (fio's fixup). */
static unsigned resolve_interval(const struct io_job *job)
{
	uint64_t wmin = io_bs_smallest(job, DIR_WRITE), wmax = job->bs[DIR_WRITE];
	uint64_t rmin = io_bs_smallest(job, DIR_READ), iv = job->verify.interval;
	if (wmax != wmin && !iv)
		iv = wmin;
	if (iv > wmin)
		iv = wmin;
	else if (job->rw != IO_WRITE && job->rw != IO_RANDWRITE && iv > rmin)
		iv = rmin;
	if (!iv || wmin % iv || wmax % iv) {
		uint64_t a = wmin, b = wmax;
		while (b) {
			uint64_t t = a % b;
			a = b;
			b = t;
		}
		iv = a;
	}
	return (unsigned)iv;
}

static unsigned header_size(const struct kind_info *ki)
{
	return ki->kind == IO_VERIFY_PATTERN_NO_HDR ? 0 : HDR_LEN + ki->sum_len;
}

int io_verify_check_job(const struct io_job *job, char *err, size_t errlen)
{
	const struct io_verify_opts *o = &job->verify;
	if (o->kind == IO_VERIFY_NONE || o->kind == IO_VERIFY_NULL)
		return 0;
	const struct kind_info *ki = kind_info(o->kind);
	if (!ki)
		return nm_errf(err, errlen, "verify: unknown kind %d", (int)o->kind);
	if (io_engine_caps(job->engine) & (IO_ENGINE_NO_DATA | IO_ENGINE_NO_OPEN | IO_ENGINE_NO_PAYLOAD))
		return nm_errf(err, errlen, "verify=%s: the %s engine moves no data to check", ki->name,
			       io_engine_name(job->engine));
	if ((o->kind == IO_VERIFY_PATTERN || o->kind == IO_VERIFY_PATTERN_NO_HDR) && !o->pattern_len)
		return nm_errf(err, errlen, "verify=pattern needs verify_pattern");
	unsigned iv = resolve_interval(job), hs = header_size(ki);
	unsigned need = hs + (o->kind == IO_VERIFY_SHA512 ? 128 : 1);
	if (iv < need)
		return nm_errf(err, errlen, "verify=%s: blocks of %u bytes are too small for its %u-byte header "
			       "(fio: Blocksize too small)", ki->name, iv, hs);
	if (o->offset && (uint64_t)o->offset + hs > iv)
		return nm_errf(err, errlen, "verify_offset %u: the %u-byte header must fit in the %u-byte interval",
			       o->offset, hs, iv);
	return 0;
}

int io_verify_setup(struct io_worker *w)
{
	const struct io_job *job = w->job;
	const struct io_verify_opts *o = &job->verify;
	w->vfy = NULL;
	if (o->kind == IO_VERIFY_NONE || o->kind == IO_VERIFY_NULL || (w->ops->caps & IO_ENGINE_DISKLESS))
		return 0; /* the null engine only pretends, as fio's */
	struct io_verify *v = xcalloc(1, sizeof *v);
	v->o = o;
	v->ki = kind_info(o->kind);
	v->interval = resolve_interval(job);
	v->hdr_size = header_size(v->ki);
	int writes = io_job_writes(job);
	/* fio reads a time-based job's writes back only through the backlog: its write phase
	 * takes the whole runtime (fio says so: "verification read phase will never start") */
	v->log_writes = writes && !o->no_readback && (!job->time_based || o->backlog);
	v->readback_phase = v->log_writes && !job->time_based;
	v->check_reads = !writes || o->only;
	v->check_numberio = writes && !io_job_mixed_bs(job) && job->bs[DIR_READ] == job->bs[DIR_WRITE] &&
			    !job->time_based;
	v->sorted = !(io_job_random(job) && !job->pattern.norandommap && job->pattern.dist == DIST_UNIFORM && !io_job_mixed_bs(job));
	if (o->experimental) /* fio regenerates the writes in order: every one, no tree, no backlog */
		v->sorted = 0;
	v->tree = v->sorted && o->backlog;
	v->max_len = job->bs[DIR_WRITE];
	w->vfy = v;
	return 0;
}

void io_verify_cleanup(struct io_worker *w)
{
	if (!w->vfy)
		return;
	free(w->vfy->log);
	free(w->vfy);
	w->vfy = NULL;
}

void io_verify_state_stop(struct io_verify *v)
{
	v->state_stopped = 1;
}

int io_verify_state_stopped(const struct io_verify *v)
{
	return v && v->state_stopped;
}

int io_verify_reads_back(const struct io_verify *v)
{
	return v->readback_phase;
}

void io_verify_new_pass(struct io_verify *v)
{
	v->n = v->head = v->live = 0;
	v->base = v->seq = 0;
	v->numberio = 0;
	v->batch_left = 0;
	v->last_read = 0;
}

/* --- writing -------------------------------------------------------------------------------- */

static void put16(char *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(char *p, uint64_t v) { memcpy(p, &v, 8); }
static uint16_t get16(const char *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t get32(const char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static void checksum(enum io_verify_kind k, const char *data, size_t len, uint8_t *out)
{
	uint32_t c;
	switch (k) {
	case IO_VERIFY_MD5: fio_sum_md5(data, len, out); return;
	case IO_VERIFY_SHA1: fio_sum_sha1(data, len, out); return;
	case IO_VERIFY_SHA256: fio_sum_sha256(data, len, out); return;
	case IO_VERIFY_SHA512: fio_sum_sha512(data, len, out); return;
	case IO_VERIFY_CRC32C: c = fio_sum_crc32c(data, len); break;
	case IO_VERIFY_CRC32: c = fio_sum_crc32(data, len); break;
	case IO_VERIFY_XXHASH: c = fio_sum_xxhash(data, len); break;
	default: return; /* meta, pattern: no checksum */
	}
	memcpy(out, &c, 4);
}

static void swap_bytes(char *a, char *b, unsigned n)
{
	char t[HDR_LEN + 128];
	memcpy(t, a, n);
	memcpy(a, b, n);
	memcpy(b, t, n);
}

static void write_headers(struct io_verify *v, struct io_worker *w, struct io_req *r, uint16_t numberio)
{
	uint64_t now = clock_now_ns();
	for (uint32_t at = 0; at + v->interval <= r->len; at += v->interval) {
		char *p = r->buf + at;
		put16(p, HDR_MAGIC);
		put16(p + 2, (uint16_t)v->o->kind);
		put32(p + 4, v->interval);
		put64(p + 8, prng_next(&w->rng));
		put64(p + 16, r->offset + at);
		put32(p + 24, (uint32_t)(now / 1000000000ull));
		put32(p + 28, (uint32_t)(now % 1000000000ull));
		put16(p + 32, (uint16_t)(w->index + 1));
		put16(p + 34, numberio);
		put32(p + HDR_CRC_AT, fio_sum_crc32c(p, HDR_CRC_AT));
		checksum(v->o->kind, p + v->hdr_size, v->interval - v->hdr_size, (uint8_t *)p + HDR_LEN);
		if (v->o->offset)
			swap_bytes(p, p + v->o->offset, v->hdr_size);
	}
}

static void fill_block(struct io_verify *v, struct io_worker *w, struct io_req *r, uint16_t numberio)
{
	if (v->o->pattern_len)
		io_pattern_fill(r->buf, r->len, v->o->pattern, v->o->pattern_len, 0);
	else
		for (uint32_t i = 0; i + 8 <= r->len; i += 8) { /* memcpy: buf_offset may leave it unaligned */
			uint64_t x = prng_next(&w->rng);
			memcpy(r->buf + i, &x, 8);
		}
	if (v->hdr_size)
		write_headers(v, w, r, numberio);
}

static void log_write(struct io_verify *v, struct io_req *r, uint16_t numberio)
{
	if (v->head > 4096 && v->head * 2 > v->n) { /* backlog: drop what was read back */
		memmove(v->log, v->log + v->head, (v->n - v->head) * sizeof *v->log);
		v->n -= v->head;
		v->base += (uint32_t)v->head;
		v->head = 0;
	}
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 1024;
		v->log = xrealloc(v->log, v->cap * sizeof *v->log);
	}
	if (v->tree) /* fio's tree keeps the newest write of a block: older pending ones go */
		for (size_t i = v->head; i < v->n; i++) {
			struct vlog_entry *e = &v->log[i];
			if (!e->drop && e->file == r->file && e->offset < r->offset + r->len && r->offset < e->offset + e->len) {
				e->drop = 1;
				v->live--;
			}
		}
	v->log[v->n++] = (struct vlog_entry){ .offset = r->offset, .len = r->len, .seq = v->seq, .file = r->file,
					      .numberio = numberio };
	v->live++;
	r->vcheck = IO_VCHECK_WRITE;
	r->vtag = v->seq++;
}

void io_verify_prepare(struct io_worker *w, struct io_req *r)
{
	struct io_verify *v = w->vfy;
	if (r->dir == DIR_READ || v->o->only) {
		if (r->dir == DIR_WRITE && w->vring) /* fio's dry run counts the write as done */
			io_vstate_write_done(w->vring, r, 1);
		r->dir = DIR_READ; /* verify_only: the block the write would write is read instead */
		r->vcheck = v->check_reads ? IO_VCHECK_READ : 0;
		r->vtag = 0;
		v->last_read = 1;
		return;
	}
	v->last_read = 0;
	uint16_t numberio = v->numberio++;
	fill_block(v, w, r, numberio);
	if (v->log_writes)
		log_write(v, r, numberio);
}

/* --- reading back ---------------------------------------------------------------------------- */

static void readback_req(struct io_worker *w, const struct vlog_entry *e, struct io_req *r)
{
	r->dir = DIR_READ;
	r->file = e->file;
	r->offset = e->offset;
	r->len = e->len;
	r->prio = w->job->place.ioprio;
	r->vcheck = IO_VCHECK_READ;
	r->vtag = w->vfy->check_numberio ? e->numberio + 1u : 0; /* 0: not checked */
}

int io_verify_next_readback(struct io_worker *w, struct io_req *r)
{
	struct io_verify *v = w->vfy;
	while (v->head < v->n && v->log[v->head].drop) /* the backlog read it back */
		v->head++;
	if (v->head == v->n)
		return 0;
	readback_req(w, &v->log[v->head++], r);
	v->live--;
	return 1;
}

/* The pending entry the backlog reads next: the oldest, or in fio's tree the lowest file and
 * offset; NULL when none. */
static struct vlog_entry *backlog_next(struct io_verify *v)
{
	while (v->head < v->n && v->log[v->head].drop) /* read back or dropped */
		v->head++;
	if (v->head == v->n)
		return NULL;
	struct vlog_entry *best = &v->log[v->head];
	if (v->tree)
		for (size_t i = v->head + 1; i < v->n; i++) {
			struct vlog_entry *e = &v->log[i];
			if (!e->drop && (e->file < best->file || (e->file == best->file && e->offset < best->offset)))
				best = e;
		}
	return best;
}

/* fio's backlog: when the blocks written and not yet read back reach a multiple of
 * verify_backlog (after a write), the next verify_backlog_batch I/Os read back the oldest of
 * them, each once its write has completed. */
int io_verify_next_backlog(struct io_worker *w, struct io_req *r)
{
	struct io_verify *v = w->vfy;
	if (!v->o->backlog || v->o->experimental || !v->live)
		return 0;
	if (!v->batch_left) {
		if (v->live % v->o->backlog || v->last_read)
			return 0;
		v->batch_left = v->o->batch ? v->o->batch : v->o->backlog;
	}
	struct vlog_entry *e = backlog_next(v);
	if (!e || !e->done)
		return 0; /* still in flight: a write goes first */
	readback_req(w, e, r);
	e->drop = 1;
	v->live--;
	v->batch_left--;
	v->last_read = 1;
	return 1;
}

static int by_offset(const void *a, const void *b)
{
	const struct vlog_entry *x = a, *y = b;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* By offset, and an entry that a later write overlaps left out (that write is checked). */
static void sort_and_drop_rewritten(struct io_verify *v)
{
	struct vlog_entry *e = v->log + v->head;
	size_t n = v->n - v->head, kept = 0;
	qsort(e, n, sizeof *e, by_offset);
	for (size_t i = 0; i < n; i++) {
		uint64_t end = e[i].offset + e[i].len;
		for (size_t j = i + 1; j < n && e[j].file == e[i].file && e[j].offset < end && !e[i].drop; j++)
			e[i].drop = e[j].seq > e[i].seq;
		for (size_t j = i; j-- > 0 && e[j].file == e[i].file && e[j].offset + v->max_len > e[i].offset && !e[i].drop;)
			e[i].drop = e[j].offset + e[j].len > e[i].offset && e[j].seq > e[i].seq;
	}
	for (size_t i = 0; i < n; i++)
		if (!e[i].drop)
			e[kept++] = e[i];
	v->n = v->head + kept;
	v->live = kept;
}

int io_verify_begin_readback(struct io_worker *w)
{
	struct io_verify *v = w->vfy;
	if (v->sorted && v->n > v->head)
		sort_and_drop_rewritten(v);
	v->batch_left = 0;
	while (v->head < v->n && v->log[v->head].drop)
		v->head++;
	return v->head < v->n;
}

/* --- checking ---------------------------------------------------------------------------------- */

static void hex(char *out, const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
}

/* fio's two kinds of failure message: a header that is not right, and data that is not. */
static int header_failed(const struct io_worker *w, const struct io_req *r, uint64_t off, const char *what,
			 char *msg, size_t msglen)
{
	const struct io_verify *v = w->vfy;
	snprintf(msg, msglen, "verify: %s at file %s offset %llu, length %u (requested block: offset=%llu, length=%u)",
		 what, w->files[r->file].path, (unsigned long long)off, v->interval, (unsigned long long)r->offset, r->len);
	return -1;
}

static int data_failed(const struct io_worker *w, const struct io_req *r, uint64_t off, const char *detail,
		       char *msg, size_t msglen)
{
	const struct io_verify *v = w->vfy;
	snprintf(msg, msglen, "%s: verify failed at file %s offset %llu, length %u (requested block: offset=%llu, "
		 "length=%u)%s", v->ki->name, w->files[r->file].path, (unsigned long long)off, v->interval,
		 (unsigned long long)r->offset, r->len, detail);
	return -1;
}

static int check_header(const struct io_worker *w, const struct io_req *r, const char *p, uint64_t off, char *msg,
			size_t msglen)
{
	const struct io_verify *v = w->vfy;
	char what[96];
	uint32_t crc;
	if (get16(p) != HDR_MAGIC)
		snprintf(what, sizeof what, "bad magic header %x, wanted %x", get16(p), HDR_MAGIC);
	else if (get32(p + 4) != v->interval)
		snprintf(what, sizeof what, "bad header length %u, wanted %u", get32(p + 4), v->interval);
	else if (get64(p + 16) != off)
		snprintf(what, sizeof what, "bad header offset %llu, wanted %llu", (unsigned long long)get64(p + 16),
			 (unsigned long long)r->offset);
	else if (r->vtag && get16(p + 34) != (uint16_t)(r->vtag - 1))
		snprintf(what, sizeof what, "bad header numberio %u, wanted %u", get16(p + 34), (uint16_t)(r->vtag - 1));
	else if ((crc = fio_sum_crc32c(p, HDR_CRC_AT)) != get32(p + HDR_CRC_AT))
		snprintf(what, sizeof what, "bad header crc %x, calculated %x", get32(p + HDR_CRC_AT), crc);
	else
		return 0;
	return header_failed(w, r, off, what, msg, msglen);
}

static int check_pattern(const struct io_worker *w, const struct io_req *r, const char *p, uint64_t off,
			 uint32_t at, char *msg, size_t msglen)
{
	const struct io_verify *v = w->vfy;
	const uint8_t *pat = v->o->pattern;
	unsigned plen = v->o->pattern_len, k = (unsigned)(((uint64_t)at + v->hdr_size) % plen);
	for (unsigned i = v->hdr_size; i < v->interval; i++, k = k + 1 == plen ? 0 : k + 1)
		if ((uint8_t)p[i] != pat[k]) {
			char d[128];
			snprintf(d, sizeof d, "; got pattern '%02x', wanted '%02x' at byte %u of the interval",
				 (uint8_t)p[i], pat[k], i);
			return data_failed(w, r, off, d, msg, msglen);
		}
	return 0;
}

static int check_interval(const struct io_worker *w, struct io_req *r, uint32_t at, char *msg, size_t msglen)
{
	const struct io_verify *v = w->vfy;
	char *p = r->buf + at;
	uint64_t off = r->offset + at;
	if (v->hdr_size && v->o->offset)
		swap_bytes(p, p + v->o->offset, v->hdr_size);
	if (v->hdr_size && check_header(w, r, p, off, msg, msglen) < 0)
		return -1;
	enum io_verify_kind k = v->o->kind;
	if (k == IO_VERIFY_PATTERN || k == IO_VERIFY_PATTERN_NO_HDR || (k == IO_VERIFY_META && v->o->pattern_len))
		return check_pattern(w, r, p, off, at, msg, msglen);
	unsigned n = v->ki->sum_len;
	if (!n)
		return 0;
	uint8_t got[128];
	checksum(k, p + v->hdr_size, v->interval - v->hdr_size, got);
	if (memcmp(got, p + HDR_LEN, n) == 0)
		return 0;
	char want_hex[2 * 128 + 1], got_hex[2 * 128 + 1], d[600];
	unsigned shown = n > 32 ? 32 : n; /* the message is one line: the first 32 bytes of a long one */
	hex(want_hex, (const uint8_t *)p + HDR_LEN, shown);
	hex(got_hex, got, shown);
	snprintf(d, sizeof d, "; expected CRC %s%s, received CRC %s%s", want_hex, shown < n ? "..." : "", got_hex,
		 shown < n ? "..." : "");
	return data_failed(w, r, off, d, msg, msglen);
}

int io_verify_completed(struct io_worker *w, struct io_req *r, char *msg, size_t msglen)
{
	struct io_verify *v = w->vfy;
	if (r->vcheck == IO_VCHECK_WRITE) {
		size_t i = r->vtag - v->base;
		if (i < v->n)
			v->log[i].done = 1;
		return 0;
	}
	/* the first bad interval fails the block, and the job, as fio's error does */
	for (uint32_t at = 0; at + v->interval <= (uint32_t)r->res; at += v->interval)
		if (check_interval(w, r, at, msg, msglen) < 0)
			return -1;
	return 0;
}
