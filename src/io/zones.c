/* fio's strided zones (zonemode=strided): a file's I/O goes to one zone at a time, zone_range
 * bytes from its start, for zone_size bytes of I/O; io/loop.c moves to the next zone. */
#include "io/internal.h"

void io_zone_enter(struct io_worker *w, struct io_file *f, uint64_t start)
{
	const struct io_job *job = w->job;
	uint64_t left = f->size > start ? f->size - start : 0;
	f->region_start = start;
	f->region_len = job->pattern.zone_range < left ? job->pattern.zone_range : left;
	for (int d = 0; d < DIR_COUNT; d++) {
		f->seq_pos[d] = start;
		randperm_init(&f->perm[d], f->region_len / job->bs[d], prng_next(&w->rng));
		f->perm_i[d] = 0;
	}
	if (job->pattern.lfsr) /* the zone's blocks, from the file's seed */
		io_lfsr_setup(job, f, f->lfsr_seed);
}

/* The next zone starts zone_range + zone_skip on, or back at the region's start past the
 * file's end (fio's). */
uint64_t io_zone_next(struct io_worker *w, uint64_t issued, uint64_t pass_size)
{
	const struct io_job *job = w->job;
	struct io_file *f = &w->files[0];
	uint64_t start = f->region_start + job->pattern.zone_range + job->pattern.zone_skip;
	if (start >= f->size)
		start = io_job_offset(job, w->index);
	io_zone_enter(w, f, start);
	return pass_size - issued > job->pattern.zone_size ? issued + job->pattern.zone_size : pass_size;
}

/* Where fio's pass over the zones ends (io/pass.c): its file is done where a zone's next
 * sequential I/O of bs bytes would go past the file's end, so a pass from the first zone is
 * the zones' bytes up to that one's whole blocks; none (UINT64_MAX) where the zones wrap first,
 * as then only the byte counts end a pass. */
uint64_t io_zone_pass_bytes(struct io_worker *w, uint64_t bs)
{
	const struct io_job *job = w->job;
	uint64_t size = w->files[0].size, zs = job->pattern.zone_size, zr = job->pattern.zone_range;
	uint64_t total = 0;
	for (uint64_t start = io_job_offset(job, w->index); start < size && bs;
	     start += zr + job->pattern.zone_skip) {
		uint64_t whole = (size - start) / bs * bs;
		if (size - start < zr && whole < zs)
			return total + whole;
		total += zs;
	}
	return UINT64_MAX;
}
