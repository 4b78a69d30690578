/* Flow control between jobs (see io/flow.h), with fio's rule: a thread of weight w that has
 * issued c of the flow's C I/Os, in a flow of total weight W, is held while c / C > w / W
 * (compared as c * W > w * C, so no rounding).  Held, it tries again at its next chance (fio
 * spins), or, with flow_sleep, lets what it has in flight finish and sleeps that long first
 * (io/rate.c does the waiting).  Everything is relaxed atomics: one add per I/O on a line the
 * flow's threads share, as fio's. */
#include "io/flow.h"
#include "io/internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct io_flow {
	_Atomic uint64_t ios;       /* the flow's I/Os, from 1 */
	_Atomic uint32_t weight;    /* of the threads that run or are still to run; 32 bits that
	                             * wrap, as fio's (flow=-1 makes a weight of 2^32 - 1) */
	char pad[48];               /* a line of its own */
};

struct io_flow *io_flow_new(void)
{
	struct io_flow *f = aligned_alloc(64, sizeof *f);
	if (!f)
		return NULL;
	memset(f, 0, sizeof *f);
	atomic_init(&f->ios, 1);
	atomic_init(&f->weight, 0);
	return f;
}

void io_flow_free(struct io_flow *f)
{
	free(f);
}

void io_flow_weigh(struct io_flow *f, int64_t delta)
{
	atomic_fetch_add_explicit(&f->weight, (uint32_t)delta, memory_order_relaxed);
}

uint64_t io_flow_count(const struct io_flow *f)
{
	return atomic_load_explicit(&((struct io_flow *)f)->ios, memory_order_relaxed);
}

uint32_t io_flow_weight(const struct io_flow *f)
{
	return atomic_load_explicit(&((struct io_flow *)f)->weight, memory_order_relaxed);
}

int io_flow_ahead(struct io_flow *f, unsigned weight, uint64_t *count)
{
	uint64_t all = atomic_load_explicit(&f->ios, memory_order_relaxed);
	uint32_t w_all = atomic_load_explicit(&f->weight, memory_order_relaxed);
	/* fio's ratio with a total of 0 is infinite: never held */
	if (w_all && (unsigned __int128)*count * w_all > (unsigned __int128)weight * all)
		return 1;
	atomic_fetch_add_explicit(&f->ios, 1, memory_order_relaxed);
	++*count;
	return 0;
}

void io_flow_leave(struct io_flow *f, uint64_t count)
{
	if (count)
		atomic_fetch_sub_explicit(&f->ios, count, memory_order_relaxed);
}
