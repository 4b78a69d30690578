/* What every fio fuzz harness checks of a plan the parser accepted: what `nodemark fio` and the
 * engine rely on (at least one job, sizes and counts above zero, targets within the limit,
 * groups numbered from 0 without gaps in job order, names that fit). */
#ifndef NM_FUZZ_FIO_H
#define NM_FUZZ_FIO_H

#include "fuzz_util.h"
#include "fio/iolog.h"
#include "fio/plan.h"

static inline void fuzz_check_plan(const struct fio_plan *p)
{
	FUZZ_ASSERT(p->njobs >= 1);
	int group = 0;
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		FUZZ_ASSERT(j->name != NULL);
		FUZZ_ASSERT(j->io.bs[DIR_READ] > 0 && j->io.bs[DIR_WRITE] > 0);
		FUZZ_ASSERT(j->io.numjobs >= 1 && j->io.iodepth >= 1 && j->io.loops >= 1);
		FUZZ_ASSERT(j->io.ntargets >= 1 && j->io.ntargets <= IO_MAX_TARGETS);
		FUZZ_ASSERT(j->io.rwmix_read <= 100);
		FUZZ_ASSERT(j->io.report.group == group || j->io.report.group == group + 1);
		group = j->io.report.group;
		FUZZ_ASSERT(j->io.name[sizeof j->io.name - 1] == '\0');
		FUZZ_ASSERT(strchr(j->io.name, '/') == NULL); /* its files stay in nodemark's directory */
		for (unsigned t = 0; t < j->io.ntargets; t++)
			FUZZ_ASSERT(j->io.targets[t] && j->io.targets[t][0]);
	}
}

/* A read_iolog log (text or blktrace) parsed onto the plan's first job: refused with a message
 * fit to print, or a plan whose replay entries name its files and fit its block sizes. */
static inline void fuzz_check_iolog(struct fio_plan *p, char *text, size_t len)
{
	char err[1024];
	err[0] = '\0';
	struct fio_job *j = &p->jobs[0];
	if (fio_iolog_parse(p, j, text, len, err, sizeof err) < 0) {
		fuzz_check_message(err);
		return;
	}
	fuzz_check_plan(p);
	FUZZ_ASSERT(j->io.replay.entries != NULL && j->io.replay.n > 0);
	for (size_t i = 0; i < j->io.replay.n; i++) {
		const struct io_replay_entry *e = &j->io.replay.entries[i];
		FUZZ_ASSERT(e->file < j->io.ntargets);
		if (e->act <= IO_REPLAY_TRIM)
			FUZZ_ASSERT(e->len > 0 && e->len <= j->io.bs[e->act]);
	}
}

#endif
