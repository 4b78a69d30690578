/* fio's status line (see eta.h).  The state of each job comes from the scheduler (started,
 * done, how it ended) and from the engine's last progress report (ramping, elapsed, the time
 * it expects); the rates from the figures so far (a finished job's final ones, a running
 * job's snapshot), as the change since the line before. */
#include "fio/eta.h"
#include "fio/report.h"
#include "util/clock.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define ETA_UNKNOWN UINT64_MAX

int fio_eta_wanted(const struct fio_plan *p, int stdout_tty)
{
	if (p->eta_when == FIO_ETA_NEVER)
		return 0;
	/* stdout holds only JSON or terse output: a status line would corrupt it */
	if (p->formats && !(p->formats & FIO_OUT_NORMAL) && !p->output)
		return 0;
	return p->eta_when == FIO_ETA_ALWAYS || stdout_tty;
}

void fio_eta_begin(struct fio_eta *e)
{
	memset(e, 0, sizeof *e);
	e->start_ns = e->prev_ns = e->newline_ns = clock_now_ns();
}

void fio_eta_str(uint64_t sec, char *buf, size_t len)
{
	unsigned s = (unsigned)(sec % 60), m = (unsigned)(sec / 60 % 60), h = (unsigned)(sec / 3600 % 24);
	uint64_t d = sec / 86400;
	if (d)
		snprintf(buf, len, "%02llud:%02uh:%02um:%02us", (unsigned long long)d, h, m, s);
	else if (h)
		snprintf(buf, len, "%02uh:%02um:%02us", h, m, s);
	else
		snprintf(buf, len, "%02um:%02us", m, s);
}

/* fio's letter for a running job: R/r read, W/w write, M/m a mix, D/d trim (capital:
 * sequential); a mix that is all reads or all writes counts as that. */
static char running_char(const struct io_job *io)
{
	int rnd = io->rw == IO_RANDREAD || io->rw == IO_RANDWRITE || io->rw == IO_RANDRW || io->rw == IO_RANDTRIM ||
		  io->rw == IO_RANDTRIMWRITE;
	char c;
	switch (io->rw) {
	case IO_READ:
	case IO_RANDREAD:
		c = 'R';
		break;
	case IO_RW:
	case IO_RANDRW:
		c = io->rwmix_read >= 100 ? 'R' : io->rwmix_read == 0 ? 'W' : 'M';
		break;
	case IO_TRIM:
	case IO_RANDTRIM:
		c = 'D';
		break;
	default: /* write, trimwrite */
		c = 'W';
		break;
	}
	return rnd ? (char)(c - 'A' + 'a') : c;
}

/* Whether a job issues I/O of direction d (DIR_READ, DIR_WRITE, DIR_TRIM). */
static int job_does(const struct io_job *io, int d)
{
	switch (io->rw) {
	case IO_READ:
	case IO_RANDREAD:
		return d == DIR_READ;
	case IO_WRITE:
	case IO_RANDWRITE:
		return d == DIR_WRITE;
	case IO_RW:
	case IO_RANDRW:
		return d != DIR_TRIM;
	case IO_TRIM:
	case IO_RANDTRIM:
		return d == DIR_TRIM;
	default: /* trimwrite */
		return d != DIR_READ;
	}
}

/* "r(1)" for each run of one letter: the threads' letters condensed, as fio writes them. */
static void run_str_add(char *buf, size_t len, char *last, unsigned *count, char c, unsigned n)
{
	if (*count && *last != c) {
		size_t l = strlen(buf);
		snprintf(buf + l, len - l, "%s%c(%u)", l ? "," : "", *last, *count);
		*count = 0;
	}
	*last = c;
	*count += n;
}

/* The figures so far of job i: per direction bytes and I/Os, summed over its threads. */
static void job_counts(struct fio_sched *s, size_t i, int done, uint64_t bytes[3], uint64_t ios[3])
{
	const struct io_job *io = &s->plan->jobs[i].io;
	struct io_job_result *res = s->runs[i].res, *snap = NULL;
	if (!done) {
		struct io_session *ss = s->runs[i].started ? fio_sched_session(s, i) : NULL;
		if (!ss) /* not started, or still laying its files out */
			return;
		snap = calloc(io->numjobs, sizeof *snap);
		if (!snap)
			abort();
		io_session_snapshot(ss, snap, io->numjobs, 50); /* a stuck worker stays 0 */
		res = snap;
	}
	for (unsigned t = 0; t < io->numjobs; t++)
		for (int d = 0; d < 3; d++) {
			bytes[d] += res[t].dir[d].bytes;
			ios[d] += res[t].dir[d].ios;
		}
	free(snap);
}

void fio_eta_bytes(struct fio_sched *s, uint64_t bytes[3])
{
	uint64_t ios[3] = { 0 };
	bytes[0] = bytes[1] = bytes[2] = 0;
	for (size_t i = 0; i < s->plan->njobs; i++) {
		pthread_mutex_lock(&s->lock);
		int done = s->done[i];
		pthread_mutex_unlock(&s->lock);
		job_counts(s, i, done, bytes, ios);
	}
}

void fio_eta_line(struct fio_eta *e, struct fio_sched *s, uint64_t now_ns, char *buf, size_t len)
{
	const struct fio_plan *p = s->plan;
	unsigned running = 0, ramping = 0, files = 0, count = 0;
	char run[256] = "", last = 0;
	uint64_t elapsed_s = (now_ns - e->start_ns + 999999999ull) / 1000000000ull;
	uint64_t eta = 0, stone = 0, bytes[3] = { 0 }, ios[3] = { 0 }, lim_bps[2] = { 0 }, lim_iops[2] = { 0 };
	int unknown = elapsed_s < 3; /* fio waits 3 s before it guesses */
	for (size_t i = 0; i < p->njobs; i++) {
		const struct io_job *io = &p->jobs[i].io;
		struct fio_runner *r = &s->runs[i];
		pthread_mutex_lock(&s->lock);
		int done = s->done[i], started = r->started, has = r->has_progress, st = r->status;
		struct io_progress pr = r->progress;
		pthread_mutex_unlock(&s->lock);
		char c;
		uint64_t left = 0; /* this job's seconds left */
		if (done) {
			c = st == IO_OK ? '_' : st == IO_INTERRUPTED ? 'K' : 'X';
		} else if (!started) {
			c = 'P';
			uint64_t at = s->genesis_ns + p->jobs[i].startdelay_ns, now = now_ns;
			uint64_t delay = (at > now ? at - now : 0) / 1000000000ull, by_time = 0, by_rate = 0, bps = 0;
			if (io->runtime_ns)
				by_time = (io->ramp_ns + io->runtime_ns * io->loops) / 1000000000ull;
			/* a paced job that waits: its bytes at its rate (fio's estimate for it; the
			 * sooner of the two where it has a runtime as well) */
			for (int d = 0; d < 3; d++)
				if (job_does(io, d))
					bps += io->pace.rate_bps[d];
			if (bps && io->size)
				by_rate = io->size * (io->loops ? io->loops : 1) / bps;
			left = delay + (by_time && by_rate ? (by_time < by_rate ? by_time : by_rate) : by_time + by_rate);
		} else {
			running += io->numjobs;
			if (has && pr.ramping) {
				c = '/';
				ramping += io->numjobs;
			} else {
				c = running_char(io);
				files += io->numjobs * (io->ntargets ? io->ntargets : 1) * (io->nrfiles ? io->nrfiles : 1);
				for (int d = 0; d < 3; d++) { /* the caps and floors of what runs */
					if (!job_does(io, d))
						continue;
					lim_bps[0] += io->pace.rate_min_bps[d] * io->numjobs;
					lim_bps[1] += io->pace.rate_bps[d] * io->numjobs;
					lim_iops[0] += io->pace.rate_min_iops[d] * io->numjobs;
					lim_iops[1] += io->pace.rate_iops[d] * io->numjobs;
				}
			}
			if (has && pr.expected_ns)
				left = (pr.expected_ns > pr.elapsed_ns ? pr.expected_ns - pr.elapsed_ns : 0) / 1000000000ull;
			else
				unknown = 1;
		}
		if (!done && !started && p->jobs[i].stonewall)
			stone += left; /* runs after what runs now */
		else if (left > eta)
			eta = left;
		run_str_add(run, sizeof run, &last, &count, c, io->numjobs);
		job_counts(s, i, done, bytes, ios);
	}
	run_str_add(run, sizeof run, &last, &count, 0, 0);
	eta = unknown ? ETA_UNKNOWN : eta + stone;

	/* the rates since the line before */
	double dt = (double)(now_ns - e->prev_ns) / 1e9;
	uint64_t rate[3] = { 0 }, iops[3] = { 0 };
	for (int d = 0; d < 3; d++) {
		if (dt > 0 && bytes[d] > e->prev_bytes[d])
			rate[d] = (uint64_t)((double)(bytes[d] - e->prev_bytes[d]) / dt);
		if (dt > 0 && ios[d] > e->prev_ios[d])
			iops[d] = (uint64_t)((double)(ios[d] - e->prev_ios[d]) / dt + 0.5);
		e->prev_bytes[d] = bytes[d];
		e->prev_ios[d] = ios[d];
	}
	e->prev_ns = now_ns;

	const struct fio_job *j0 = &p->jobs[0];
	int pow2 = j0->kb_base != 1000, bits = j0->unit_base == 1;
	int n = snprintf(buf, len, "Jobs: %u (f=%u)", running, files);
	if ((lim_bps[0] || lim_bps[1]) && n >= 0 && (size_t)n < len) { /* rate limits: floor-cap */
		char a[32], b[32];
		n += snprintf(buf + n, len - (size_t)n, ", %s-%s", fio_num2str(lim_bps[0], 4, pow2, "B/s", a, sizeof a),
			      fio_num2str(lim_bps[1], 4, pow2, "B/s", b, sizeof b));
	} else if ((lim_iops[0] || lim_iops[1]) && n >= 0 && (size_t)n < len) {
		n += snprintf(buf + n, len - (size_t)n, ", %llu-%llu IOPS", (unsigned long long)lim_iops[0],
			      (unsigned long long)lim_iops[1]);
	}
	if (eta != ETA_UNKNOWN && running && n >= 0 && (size_t)n < len) {
		char perc[16], es[32], rs[96] = "", is[96] = "";
		if ((!eta && !e->eta_good) || ramping == running) {
			snprintf(perc, sizeof perc, "-.-%%");
		} else {
			e->eta_good = 1;
			snprintf(perc, sizeof perc, "%3.1f%%",
				 100.0 * (double)elapsed_s / (double)(elapsed_s + eta ? elapsed_s + eta : 1));
		}
		fio_eta_str(eta, es, sizeof es);
		static const char dc[3] = { 'r', 'w', 't' };
		for (int d = 0; d < 3; d++) {
			if (!rate[d] && !iops[d])
				continue;
			char a[32], b[32];
			size_t lr = strlen(rs), li = strlen(is);
			fio_num2str(bits ? rate[d] * 8 : rate[d], 4, pow2, bits ? "bit/s" : "B/s", a, sizeof a);
			fio_num2str(iops[d], 4, 0, "", b, sizeof b);
			snprintf(rs + lr, sizeof rs - lr, "%s%c=%s", lr ? "," : "", dc[d], a);
			snprintf(is + li, sizeof is - li, "%s%c=%s", li ? "," : "", dc[d], b);
		}
		n += snprintf(buf + n, len - (size_t)n, ": [%s][%s]", run, perc);
		if (*rs && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, "[%s][%s IOPS]", rs, is);
		if ((size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, "[eta %s]", es);
	}
	if (n < 0 || (size_t)n >= len)
		n = (int)len - 1;
	/* blanks over the rest of a longer line before it */
	int shown = n;
	if (n < e->linelen_last && (size_t)e->linelen_last < len)
		n += snprintf(buf + n, len - (size_t)n, "%*s", e->linelen_last - n, "");
	e->linelen_last = shown;
}

void fio_eta_show(struct fio_eta *e, struct fio_sched *s, FILE *f)
{
	char line[1024];
	uint64_t now = clock_now_ns();
	uint64_t every = s->plan->eta_newline_ns;
	int newline = every && now - e->newline_ns >= every;
	if (newline) { /* --eta-newline: keep this line, go on below it */
		fputc('\n', f);
		e->linelen_last = 0;
		e->newline_ns = now;
	}
	fio_eta_line(e, s, now, line, sizeof line);
	fprintf(f, "%s\r", line);
	fflush(f);
}

void fio_eta_clear(struct fio_eta *e, FILE *f)
{
	if (!e->linelen_last)
		return;
	fprintf(f, "%*s\r", e->linelen_last, "");
	fflush(f);
	e->linelen_last = 0;
}
