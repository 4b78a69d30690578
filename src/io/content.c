/* Write buffers with fio's data patterns, refilled before each write (fio's refill_buffers):
 *
 *   buffer_compress_percentage=C   each chunk (buffer_compress_chunk, default 512 bytes) is
 *                                  (100 - C) % random bytes, then zeros;
 *   dedupe_percentage=P            P % of the buffers repeat one made before: the last unique
 *                                  one (dedupe_mode=repeat; fio's repeats the next, the share
 *                                  of distinct blocks is the same), or one of the working set,
 *                                  the first dedupe_working_set_percentage % of the job's
 *                                  size in unique buffers (dedupe_mode=working_set); with
 *                                  dedupe_global the set spans every thread's (fio's rotation).
 *
 * A buffer's bytes come from one seed: thread t's k-th unique buffer from seed(t, k), so any
 * thread can make any other's buffer again (what dedupe_global needs), in O(1) memory. */
#include "io/internal.h"

#include <stdlib.h>
#include <string.h>

struct io_content {
	unsigned thread;            /* this thread's number over the whole run */
	unsigned nthreads;          /* all threads of the run (dedupe_global's rotation) */
	uint64_t made;              /* unique buffers so far */
	uint64_t rng;               /* the dedupe draws */
	uint64_t ws_pages, per_src; /* working set: pages, and how many come from each thread */
};

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t seed_of(unsigned thread, uint64_t k)
{
	return mix64(mix64(0x6e6d636f6e74656eull + thread) + k * 0x9e3779b97f4a7c15ull);
}

struct io_content *io_content_new(const struct io_job *job, unsigned thread)
{
	struct io_content *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->thread = job->buf.content.thread0 + thread;
	c->nthreads = job->buf.content.nthreads ? job->buf.content.nthreads : job->numjobs;
	c->rng = mix64(seed_of(c->thread, ~0ull));
	if (job->buf.content.working_set) {
		uint64_t bs = job->bs[DIR_WRITE];
		c->ws_pages = job->size * job->buf.content.ws_pct / 100 / bs;
		if (!c->ws_pages)
			c->ws_pages = 1;
		c->per_src = job->buf.content.global ? c->ws_pages / c->nthreads : c->ws_pages;
		if (!c->per_src)
			c->per_src = 1;
	}
	return c;
}

void io_content_free(struct io_content *c)
{
	free(c);
}

/* The seed of the next buffer: a new one, or one made before (dedupe). */
static uint64_t pick_seed(struct io_content *c, const struct io_job *job)
{
	unsigned pct = job->buf.content.dedupe_pct;
	if (pct == 100) /* fio: every buffer the same */
		return seed_of(c->thread, 0);
	if (pct && prng_below(&c->rng, 100) < pct) {
		if (!job->buf.content.working_set)
			return seed_of(c->thread, c->made ? c->made - 1 : 0);
		uint64_t i = prng_below(&c->rng, c->ws_pages);
		unsigned src = job->buf.content.global ? (unsigned)((c->thread + i / c->per_src) % c->nthreads) : c->thread;
		return seed_of(src, job->buf.content.global ? i % c->per_src : i);
	}
	return seed_of(c->thread, c->made++);
}

void io_content_fill(struct io_content *c, const struct io_job *job, char *buf, uint64_t len)
{
	uint64_t seed = pick_seed(c, job);
	uint64_t chunk = job->buf.content.chunk ? job->buf.content.chunk : len;
	for (uint64_t off = 0, j = 0; off < len; off += chunk, j++) {
		uint64_t n = len - off < chunk ? len - off : chunk;
		uint64_t rnd = n * (100 - job->buf.content.compress_pct) / 100, st = mix64(seed + j);
		for (uint64_t i = 0; i < rnd; i += 8) {
			uint64_t v = prng_next(&st);
			memcpy(buf + off + i, &v, rnd - i < 8 ? rnd - i : 8);
		}
		if (job->buf.fill == FILL_PATTERN) /* fio: buffer_pattern in place of the zeros */
			io_pattern_fill(buf + off + rnd, n - rnd, job->buf.pattern, job->buf.pattern_len, 0);
		else
			memset(buf + off + rnd, 0, n - rnd);
	}
}
