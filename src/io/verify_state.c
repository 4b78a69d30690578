/* fio's verify state: how far a thread's writes got, saved when the thread ends
 * (verify_state_save) so that a later job reads back only what they completed
 * (verify_state_load).
 *
 * As fio 3.33 keeps it: per file a ring of the offsets of its last iodepth completed writes,
 * the thread's writes issued (the state's numberio) and completed, both counted from the end
 * of the ramp; the state lists each file's ring newest first, as many entries as the thread
 * completed writes, at most iodepth (slots never written are offset 0, as in fio). A job that
 * loads a state checks each read it verifies: once the reads completed are within depth of
 * the saved numberio (from the first read when numberio is at most depth), a read whose file
 * and offset are not among the saved completions ends the job. The file's bytes are below
 * (io_vstate_encode, io_vstate_parse: the layout in io/verify.h); the front end names, reads
 * and writes the files (fio/vstate.c). */
#include "io/internal.h"
#include "hash/fiosums.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct io_vring {
	uint32_t depth, nfiles;
	uint64_t *slots;        /* nfiles x depth offsets */
	uint32_t *next;         /* per file: the slot the next completion takes */
	uint64_t issued, done;  /* writes finished (fio's io_issues at the end), and those that moved bytes */
};

int io_vstate_saved_by(const struct io_job *job)
{
	enum io_rw rw = job->rw; /* fio's td_write: the mode writes, whatever verify_only or rwmix say */
	return job->verify.save_state && job->verify.kind != IO_VERIFY_NONE &&
	       (rw == IO_WRITE || rw == IO_RANDWRITE || rw == IO_RW || rw == IO_RANDRW || rw == IO_TRIMWRITE ||
		rw == IO_RANDTRIMWRITE);
}

void io_vstate_free(struct io_vstate *s)
{
	if (!s)
		return;
	free(s->comps);
	free(s);
}

int io_vstate_setup(struct io_worker *w)
{
	w->vring = NULL;
	if (!io_vstate_saved_by(w->job))
		return 0;
	uint32_t depth = w->job->iodepth ? w->job->iodepth : 1;
	if ((uint64_t)depth * w->nfiles > IO_VSTATE_MAX_SLOTS) {
		snprintf(w->err, sizeof w->err, "verify_state_save: iodepth %u x %u files is over %u completions "
			 "to keep (verify_state_save=0 keeps none)", depth, w->nfiles, IO_VSTATE_MAX_SLOTS);
		return -E2BIG;
	}
	struct io_vring *vr = xcalloc(1, sizeof *vr);
	vr->depth = depth;
	vr->nfiles = w->nfiles;
	vr->slots = xcalloc((size_t)vr->depth * (vr->nfiles ? vr->nfiles : 1), sizeof *vr->slots);
	vr->next = xcalloc(vr->nfiles ? vr->nfiles : 1, sizeof *vr->next);
	w->vring = vr;
	return 0;
}

void io_vstate_cleanup(struct io_worker *w)
{
	if (!w->vring)
		return;
	free(w->vring->slots);
	free(w->vring->next);
	free(w->vring);
	w->vring = NULL;
}

void io_vstate_write_done(struct io_vring *vr, const struct io_req *r, int ok)
{
	vr->issued++;
	if (!ok)
		return;
	vr->done++;
	if (r->file >= vr->nfiles)
		return;
	uint32_t *n = &vr->next[r->file];
	vr->slots[(size_t)r->file * vr->depth + *n] = r->offset;
	*n = *n + 1 == vr->depth ? 0 : *n + 1;
}

void io_vstate_measuring(struct io_vring *vr)
{
	vr->issued = vr->done = 0;
}

void io_vstate_finish(struct io_worker *w)
{
	const struct io_vring *vr = w->vring;
	if (!vr)
		return;
	struct io_vstate *s = xcalloc(1, sizeof *s);
	s->numberio = vr->issued;
	s->depth = vr->depth;
	s->nfiles = vr->nfiles;
	uint32_t per = vr->done < vr->depth ? (uint32_t)vr->done : vr->depth;
	s->comps = xcalloc((size_t)per * vr->nfiles + 1, sizeof *s->comps);
	for (uint32_t f = 0; f < vr->nfiles; f++) {
		uint32_t k = vr->next[f];
		for (uint32_t i = 0; i < per; i++) {
			k = k ? k - 1 : vr->depth - 1;
			s->comps[s->ncomps++] = (struct io_vstate_comp){ f, vr->slots[(size_t)f * vr->depth + k] };
		}
	}
	io_vstate_free(w->res->vstate);
	w->res->vstate = s;
}

int io_vstate_stops(const struct io_worker *w, const struct io_req *r)
{
	const struct io_verify_opts *o = &w->job->verify;
	if (!o->loaded || w->index >= o->nloaded)
		return 0;
	const struct io_vstate *s = &o->loaded[w->index];
	uint64_t done = w->res->dir[DIR_READ].ios; /* fio's io_blocks of reads */
	/* before the window of the last depth writes (the difference wraps past numberio, as fio's) */
	if ((done < s->depth || s->numberio - done > s->depth) && s->numberio > s->depth)
		return 0;
	for (uint64_t i = 0; i < s->ncomps; i++)
		if (s->comps[i].file == r->file && s->comps[i].offset == r->offset)
			return 0;
	return 1;
}

/* --- fio's file ----------------------------------------------------------------------------- */

#define VERSION 3
#define NAME_AT 88       /* the record's name: 64 bytes, 0-padded */
#define NAME_LEN 64
#define COMP 16          /* a slot: file index, offset */
#define MAX_REC (IO_VSTATE_REC + (uint64_t)IO_VSTATE_MAX_SLOTS * COMP)

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

int io_vstate_parse(const void *buf, size_t len, struct io_vstate *out, char *err, size_t errlen)
{
	const unsigned char *b = buf;
	memset(out, 0, sizeof *out);
	if (len < IO_VSTATE_HDR)
		return nm_errf(err, errlen, "truncated: %zu bytes, fio's header alone has %d", len, IO_VSTATE_HDR);
	uint64_t version = get64(b), size = get64(b + 8), crc = get64(b + 16);
	if (version != VERSION)
		return nm_errf(err, errlen, "version %llu, fio 3.33 writes %d", (unsigned long long)version, VERSION);
	if (size < IO_VSTATE_REC || size > MAX_REC)
		return nm_errf(err, errlen, "the header gives a %llu-byte thread record (fio's: %d bytes and 16 a "
			       "completion, %u at most)", (unsigned long long)size, IO_VSTATE_REC, IO_VSTATE_MAX_SLOTS);
	if (size > len - IO_VSTATE_HDR)
		return nm_errf(err, errlen, "truncated: the header gives a %llu-byte record, %zu bytes follow it",
			       (unsigned long long)size, len - IO_VSTATE_HDR);
	const unsigned char *r = b + IO_VSTATE_HDR;
	uint32_t sum = fio_sum_crc32c(r, (size_t)size);
	if (crc != sum)
		return nm_errf(err, errlen, "corrupt: the record's crc32c is %08x, the header says %llx", sum,
			       (unsigned long long)crc);
	uint64_t ncomps = get64(r);
	if (ncomps > (size - IO_VSTATE_REC) / COMP)
		return nm_errf(err, errlen, "%llu completions do not fit the %llu-byte record",
			       (unsigned long long)ncomps, (unsigned long long)size);
	out->ncomps = ncomps;
	out->depth = get32(r + 8);
	out->nfiles = get32(r + 12);
	out->numberio = get64(r + 16);
	out->comps = xcalloc((size_t)ncomps + 1, sizeof *out->comps);
	for (uint64_t i = 0; i < ncomps; i++) {
		const unsigned char *c = r + IO_VSTATE_REC + i * COMP;
		out->comps[i] = (struct io_vstate_comp){ get64(c), get64(c + 8) };
	}
	return 0;
}

size_t io_vstate_encode(const struct io_vstate *s, const char *name, uint64_t index, unsigned char **out)
{
	size_t size = IO_VSTATE_REC + (size_t)s->depth * s->nfiles * COMP;
	unsigned char *b = xcalloc(1, IO_VSTATE_HDR + size), *r = b + IO_VSTATE_HDR;
	put64(r, s->ncomps);
	put32(r + 8, s->depth);
	put32(r + 12, s->nfiles);
	put64(r + 16, s->numberio);
	put64(r + 24, index);
	snprintf((char *)r + NAME_AT, NAME_LEN, "%s", name); /* the random state before it stays 0 */
	for (uint64_t i = 0; i < s->ncomps && i < (uint64_t)s->depth * s->nfiles; i++) {
		put64(r + IO_VSTATE_REC + i * COMP, s->comps[i].file);
		put64(r + IO_VSTATE_REC + i * COMP + 8, s->comps[i].offset);
	}
	put64(b, VERSION);
	put64(b + 8, size);
	put64(b + 16, fio_sum_crc32c(r, size));
	*out = b;
	return IO_VSTATE_HDR + size;
}

