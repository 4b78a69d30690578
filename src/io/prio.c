/* I/O priorities as fio sets them: the thread's own (prio, prioclass: ioprio_set before the
 * first I/O, so every engine's I/O carries it) and, per I/O, cmdprio_percentage and
 * cmdprio_bssplit's shares, drawn per I/O as fio's cmdprio.c does (the uring engine puts them
 * in each request; a synchronous engine has no per-request priority). */
#include "io/internal.h"

#include <errno.h>
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
