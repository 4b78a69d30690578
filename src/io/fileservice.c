/* Which file a worker with several files (nrfiles in a directory, or every target of fio's
 * filename=a:b) gives its next I/O, as fio's file_service_type: round robin or random, moving
 * on after file_service_nr I/Os on a file, or sequential (a file's whole region, then the next). */
#include "io/internal.h"

static unsigned pick(struct io_worker *w, uint64_t bs);

/* Files done in this pass (a mix's file ends, io/loop.c) are passed by, as fio's. */
unsigned io_next_file(struct io_worker *w, uint64_t bs)
{
	unsigned fi = pick(w, bs);
	if (__builtin_expect(w->files_done != 0, 0))
		for (unsigned n = 0; w->files[fi].done && n < 4 * w->nfiles; n++) {
			w->file_left = 0;
			fi = pick(w, bs);
		}
	for (unsigned k = 0; w->files[fi].done && k < w->nfiles; k++) /* random picks that missed */
		if (!w->files[k].done)
			fi = w->next_file = k;
	return fi;
}

static unsigned pick(struct io_worker *w, uint64_t bs)
{
	const struct io_job *job = w->job;
	if (w->file_chosen && w->file_left) {
		w->file_left--;
		return w->next_file;
	}
	if (job->files.file_service == FILES_RANDOM)
		w->next_file = (unsigned)prng_below(&w->rng, w->nfiles);
	else if (w->file_chosen && ++w->next_file == w->nfiles)
		w->next_file = 0;
	w->file_chosen = 1;
	if (job->files.file_service == FILES_SEQUENTIAL) {
		uint64_t blocks = bs ? w->files[w->next_file].region_len / bs : 1;
		w->file_left = blocks ? blocks - 1 : 0;
	} else {
		w->file_left = job->files.file_service_nr > 1 ? job->files.file_service_nr - 1 : 0;
	}
	return w->next_file;
}
