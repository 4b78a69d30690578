#include "hash/bench.h"
#include "hash/cpufeat.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/randfill.h"
#include "util/workdir.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct stream {
	const struct hash_bench_plan *plan;
	const unsigned char *data;
	size_t data_len;
	uint64_t bytes;         /* this thread's share */
	size_t start;           /* where in data it starts, so threads do not share cache lines */
	int *go, *abort_run;
	uint64_t t0, t1;
	uint64_t c0, c1;        /* the cycle counter over the same span as t0..t1 */
	uint64_t cpu_ns;
	int failed;
	uint8_t digest[HASH_MAX_DIGEST];
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *stream_run(void *arg)
{
	struct stream *s = arg;
	struct hash_ctx h = { 0 };
	size_t pos = s->start, block = s->plan->block;
	uint64_t left = s->bytes;

	if (hash_init(&h, s->plan->algo) < 0)
		s->failed = 1;
	while (!__atomic_load_n(s->go, __ATOMIC_ACQUIRE))
		sched_yield();
	if (__atomic_load_n(s->abort_run, __ATOMIC_ACQUIRE))
		s->failed = 1;
	/* the CPU clock is read inside the wall span, so a thread's CPU time is never more than
	 * the span it is measured against */
	s->t0 = clock_now_ns();
	s->c0 = cycles_now();
	uint64_t cpu0 = thread_cpu_ns();
	while (left && !s->failed) {
		size_t n = block;
		if (n > s->data_len - pos)
			n = s->data_len - pos;
		if (n > left)
			n = (size_t)left;
		hash_update(&h, s->data + pos, n);
		left -= n;
		pos += n;
		if (pos == s->data_len)
			pos = 0;
	}
	if (!s->failed)
		hash_final(&h, s->digest);
	s->cpu_ns = thread_cpu_ns() - cpu0;
	s->c1 = cycles_now();
	s->t1 = clock_now_ns();
	hash_release(&h);
	return NULL;
}

int hash_bench(const struct hash_bench_plan *p, struct hash_bench_result *r, char *err, size_t errlen)
{
	unsigned nt = p->threads ? p->threads : 1;
	const unsigned char *data = p->data;
	size_t data_len = p->data_len;
	unsigned char *owned = NULL;
	int rc = -1;

	memset(r, 0, sizeof *r);
	r->cycles_per_byte = -1;
	if (!p->size || !p->block)
		return nm_errf(err, errlen, "size and block must be above 0");
	if (!data || !data_len) {
		data_len = p->size < HASH_BENCH_BUFFER ? (size_t)p->size : HASH_BENCH_BUFFER;
		if (!(owned = malloc(data_len)))
			return nm_errf(err, errlen, "cannot allocate %zu bytes", data_len);
		rand_fill(owned, data_len, random_u64());
		data = owned;
	}

	struct stream *s = calloc(nt, sizeof *s);
	pthread_t *tid = calloc(nt, sizeof *tid);
	int go = 0, abort_run = 0;
	if (!s || !tid) {
		nm_errf(err, errlen, "out of memory");
		goto out_free;
	}
	unsigned started = 0;
	for (unsigned i = 0; i < nt; i++) {
		s[i] = (struct stream){ .plan = p, .data = data, .data_len = data_len,
				      .go = &go, .abort_run = &abort_run };
		s[i].bytes = p->size / nt + (i < p->size % nt);
		s[i].start = nt > 1 ? (size_t)((data_len / nt) * i) & ~(size_t)63 : 0;
		int e = pthread_create(&tid[i], NULL, stream_run, &s[i]);
		if (e) {
			nm_errf(err, errlen, "cannot start a thread: %s", strerror(e));
			break;
		}
		started++;
	}
	if (started < nt)
		__atomic_store_n(&abort_run, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	if (started < nt)
		goto out_free;

	/* Cycles are counted by each thread over the span it hashed, as its time is: counted
	 * around the threads' start and join they added that cost, which on a 1 MiB run is most
	 * of it (9.16 cycles/B beside a throughput that meant 0.47). */
	uint64_t t0 = UINT64_MAX, t1 = 0, cpu = 0, cycles = 0;
	int failed = 0;
	for (unsigned i = 0; i < nt; i++) {
		cpu += s[i].cpu_ns;
		cycles += s[i].c1 - s[i].c0;
		failed |= s[i].failed;  /* only OpenSSL failing to start a digest */
		if (s[i].t0 < t0)
			t0 = s[i].t0;
		if (s[i].t1 > t1)
			t1 = s[i].t1;
	}
	if (failed) {
		nm_errf(err, errlen, "%s: OpenSSL could not start the digest", hash_algo_name(p->algo));
		goto out_free;
	}
	r->bytes = p->size;
	r->seconds = (double)(t1 - t0) / 1e9;
	if (r->seconds <= 0)
		r->seconds = 1e-9;
	r->bytes_per_sec = (double)r->bytes / r->seconds;
	r->cpu_seconds = (double)cpu / 1e9;
	if (cycles_readable())
		r->cycles_per_byte = (double)cycles / (double)r->bytes;
	memcpy(r->digest, s[0].digest, sizeof r->digest);
	rc = 0;
out_free:
	free(s);
	free(tid);
	free(owned);
	return rc;
}
