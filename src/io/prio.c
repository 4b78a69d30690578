/* I/O priorities as fio sets them: the thread's own (prio, prioclass: ioprio_set before the
 * first I/O, so every engine's I/O carries it) and, per I/O, cmdprio_percentage and
 * cmdprio_bssplit's shares, drawn per I/O as fio's cmdprio.c does (the uring engine puts them
 * in each request; a synchronous engine has no per-request priority). */
#include "io/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define IOPRIO_WHO_PROCESS 1

int io_prio_thread(struct io_worker *w)
{
	if (!w->job->place.ioprio_set)
		return 0;
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)w->job->place.ioprio) == 0)
		return 0;
	int e = errno;
	snprintf(w->err, sizeof w->err, "ioprio_set (class %u, level %u): %s", w->job->place.ioprio >> 13,
		 w->job->place.ioprio & 7, strerror(e));
	return -e;
}

uint16_t io_prio_pick(struct io_worker *w, int dir, uint64_t bs)
{
	const struct io_job *job = w->job;
	unsigned draw = (unsigned)prng_below(&w->rng, 100), acc = 0;
	for (unsigned i = 0; i < job->place.ncmdprio[dir]; i++) {
		const struct io_prio_share *s = &job->place.cmdprio[dir][i];
		if (s->bs && s->bs != bs)
			continue;
		acc += s->pct;
		if (draw < acc)
			return s->prio;
	}
	return job->place.ioprio;
}

/* --- per-priority figures (fio's clat_prio stats) ------------------------------------------- */

static struct io_prio_stat *prio_slot(struct io_prio_stats *ps, int dir, uint16_t prio)
{
	for (unsigned i = 0; i < ps->n[dir]; i++)
		if (ps->s[dir][i].prio == prio)
			return &ps->s[dir][i];
	struct io_prio_stat *a = realloc(ps->s[dir], (ps->n[dir] + 1) * sizeof *a);
	if (!a)
		abort();
	ps->s[dir] = a;
	a[ps->n[dir]].prio = prio;
	hist_init(&a[ps->n[dir]].lat);
	return &a[ps->n[dir]++];
}

struct io_prio_stats *io_prio_stats_new(const struct io_job *job)
{
	if (!job->place.ncmdprio[DIR_READ] && !job->place.ncmdprio[DIR_WRITE] && !job->place.ncmdprio[DIR_TRIM])
		return NULL;
	struct io_prio_stats *ps = calloc(1, sizeof *ps);
	if (!ps)
		abort();
	for (int d = 0; d < DIR_COUNT; d++) { /* fio's order: the thread's own, then the shares' */
		prio_slot(ps, d, job->place.ioprio);
		for (unsigned i = 0; i < job->place.ncmdprio[d]; i++)
			prio_slot(ps, d, job->place.cmdprio[d][i].prio);
	}
	return ps;
}

void io_prio_stats_add(struct io_prio_stats **ps, int dir, uint16_t prio, const struct hist *h)
{
	if (!*ps && !(*ps = calloc(1, sizeof **ps)))
		abort();
	hist_merge(&prio_slot(*ps, dir, prio)->lat, h);
}

void io_prio_stats_free(struct io_prio_stats *ps)
{
	if (!ps)
		return;
	for (int d = 0; d < DIR_COUNT; d++)
		free(ps->s[d]);
	free(ps);
}

void io_prio_book(struct io_prio_stats *ps, int dir, uint16_t prio, uint64_t ns)
{
	for (unsigned i = 0; i < ps->n[dir]; i++)
		if (ps->s[dir][i].prio == prio) {
			hist_add(&ps->s[dir][i].lat, ns);
			return;
		}
}

void io_prio_reset(struct io_prio_stats *ps)
{
	for (int d = 0; ps && d < DIR_COUNT; d++)
		for (unsigned i = 0; i < ps->n[d]; i++)
			hist_init(&ps->s[d][i].lat);
}
