#include "proc/noise.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static FILE *open_proc(const char *procroot, const char *name, char *path, size_t plen)
{
	snprintf(path, plen, "%s/%s", procroot ? procroot : "/proc", name);
	return fopen(path, "re");
}

static int read_stat(struct noise_sample *s, const char *procroot, char *err, size_t errlen)
{
	char path[4096], line[1024];
	FILE *f = open_proc(procroot, "stat", path, sizeof path);
	int have_cpu = 0;

	if (!f)
		return nm_errf(err, errlen, "%s: %s", path, strerror(errno));
	s->ncpu = 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long v[8] = { 0 };
		if (strncmp(line, "cpu ", 4) == 0) {
			/* user nice system idle iowait irq softirq steal (older kernels stop early) */
			if (sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
				   &v[3], &v[4], &v[5], &v[6], &v[7]) >= 4) {
				s->user = v[0], s->nice = v[1], s->system = v[2], s->idle = v[3];
				s->iowait = v[4], s->irq = v[5], s->softirq = v[6], s->steal = v[7];
				have_cpu = 1;
			}
		} else if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' && line[3] <= '9') {
			s->ncpu++;
		}
	}
	fclose(f);
	if (!have_cpu)
		return nm_errf(err, errlen, "%s: no \"cpu\" line", path);
	return 0;
}

/* Our utime + stime: fields 14 and 15, counted after the ")" that ends the command name. */
static int read_self(struct noise_sample *s, const char *procroot, char *err, size_t errlen)
{
	char path[4096], buf[2048];
	FILE *f = open_proc(procroot, "self/stat", path, sizeof path);
	if (!f)
		return nm_errf(err, errlen, "%s: %s", path, strerror(errno));
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	unsigned long long utime, stime, cutime = 0, cstime = 0;
	/* after ")": state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
	 * stime cutime cstime; the children we waited for (a phase run as a child process) are ours */
	int got = p ? sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", &utime,
			   &stime, &cutime, &cstime) : 0;
	if (got < 2)
		return nm_errf(err, errlen, "%s: unexpected format", path);
	s->self_ticks = utime + stime + cutime + cstime;
	return 0;
}

static int read_meminfo(struct noise_sample *s, const char *procroot, char *err, size_t errlen)
{
	char path[4096], line[256];
	FILE *f = open_proc(procroot, "meminfo", path, sizeof path);
	if (!f)
		return nm_errf(err, errlen, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f)) {
		char key[64];
		unsigned long long kb;
		if (sscanf(line, "%63[^:]: %llu", key, &kb) != 2)
			continue;
		uint64_t bytes = (uint64_t)kb * 1024;
		if (strcmp(key, "MemTotal") == 0)
			s->mem_total = bytes;
		else if (strcmp(key, "MemAvailable") == 0)
			s->mem_available = bytes;
		else if (strcmp(key, "Cached") == 0)
			s->cached = bytes;
		else if (strcmp(key, "Dirty") == 0)
			s->dirty = bytes;
		else if (strcmp(key, "Writeback") == 0)
			s->writeback = bytes;
	}
	fclose(f);
	return 0;
}

int noise_sample(struct noise_sample *s, const char *procroot, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->t_ns = clock_now_ns();
	if (read_stat(s, procroot, err, errlen) < 0 || read_self(s, procroot, err, errlen) < 0 ||
	    read_meminfo(s, procroot, err, errlen) < 0)
		return -1;
	return 0;
}

static uint64_t busy_ticks(const struct noise_sample *s)
{
	return s->user + s->nice + s->system + s->irq + s->softirq;
}

static uint64_t total_ticks(const struct noise_sample *s)
{
	return busy_ticks(s) + s->idle + s->iowait + s->steal;
}

/* Counters only grow; a difference that would be negative (a CPU went offline) counts as 0. */
static uint64_t delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

void noise_figures(const struct noise_sample *a, const struct noise_sample *b, struct noise_figures *f)
{
	uint64_t total = delta(total_ticks(a), total_ticks(b));
	uint64_t busy = delta(busy_ticks(a), busy_ticks(b));
	uint64_t self = delta(a->self_ticks, b->self_ticks);

	memset(f, 0, sizeof *f);
	f->seconds = (double)delta(a->t_ns, b->t_ns) / 1e9;
	if (total) {
		f->steal_pct = 100.0 * (double)delta(a->steal, b->steal) / (double)total;
		f->other_busy_pct = busy > self ? 100.0 * (double)(busy - self) / (double)total : 0;
		f->iowait_pct = 100.0 * (double)delta(a->iowait, b->iowait) / (double)total;
	}
	f->peak_other_busy_pct = f->other_busy_pct;
	f->peak_steal_pct = f->steal_pct;
	f->cached_start = a->cached, f->cached_end = b->cached;
	f->dirty_start = a->dirty, f->dirty_end = b->dirty;
	f->dirty_max = a->dirty > b->dirty ? a->dirty : b->dirty;
	f->writeback_max = a->writeback > b->writeback ? a->writeback : b->writeback;
	f->mem_total = b->mem_total;
}

int noise_is_busy(const struct noise_figures *f, char *why, size_t len)
{
	/* under half a second, a 100 Hz tick count is too coarse to judge */
	int judged = f->seconds >= 0.5;
	int other = judged && f->other_busy_pct >= NOISE_OTHER_PCT;
	int steal = judged && f->steal_pct >= NOISE_STEAL_PCT;

	if (!other && !steal) {
		if (len)
			why[0] = '\0';
		return 0;
	}
	if (other && steal)
		snprintf(why, len, "other processes used %.0f%% of the CPUs and the hypervisor stole %.0f%%",
			 f->other_busy_pct, f->steal_pct);
	else if (other)
		snprintf(why, len, "other processes used %.0f%% of the CPUs", f->other_busy_pct);
	else
		snprintf(why, len, "the hypervisor stole %.0f%% of the CPU time", f->steal_pct);
	return 1;
}

static double round1(double v)
{
	return (double)(long long)(v * 10 + 0.5) / 10;
}

json_t *noise_to_json(const struct noise_figures *f)
{
	char why[160];
	int busy = noise_is_busy(f, why, sizeof why);
	json_t *o = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:b}",
			      "seconds", round1(f->seconds), "steal_pct", round1(f->steal_pct),
			      "other_busy_pct", round1(f->other_busy_pct), "iowait_pct", round1(f->iowait_pct),
			      "peak_other_busy_pct", round1(f->peak_other_busy_pct),
			      "peak_steal_pct", round1(f->peak_steal_pct),
			      "cached_start", (json_int_t)f->cached_start, "cached_end", (json_int_t)f->cached_end,
			      "dirty_start", (json_int_t)f->dirty_start, "dirty_end", (json_int_t)f->dirty_end,
			      "dirty_max", (json_int_t)f->dirty_max, "writeback_max", (json_int_t)f->writeback_max,
			      "busy", busy);
	if (busy)
		json_object_set_new(o, "why", json_string(why));
	return o;
}

/* --- the monitor ------------------------------------------------------------------------- */

static void monitor_take(struct noise_monitor *m)
{
	struct noise_sample s;
	struct noise_figures f;
	char err[256];

	if (noise_sample(&s, m->procroot, err, sizeof err) < 0)
		return;
	noise_figures(&m->prev, &s, &f);
	pthread_mutex_lock(&m->lock);
	if (f.seconds >= 0.5) { /* less than half a second has too few ticks to mean anything */
		if (f.other_busy_pct > m->peak_other)
			m->peak_other = f.other_busy_pct;
		if (f.steal_pct > m->peak_steal)
			m->peak_steal = f.steal_pct;
	}
	if (s.dirty > m->dirty_max)
		m->dirty_max = s.dirty;
	if (s.writeback > m->writeback_max)
		m->writeback_max = s.writeback;
	m->prev = s;
	pthread_mutex_unlock(&m->lock);
}

static void *monitor_main(void *p)
{
	struct noise_monitor *m = p;
	pthread_mutex_lock(&m->lock);
	while (!m->stop_flag) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t ns = (uint64_t)ts.tv_nsec + (uint64_t)m->interval_ms * 1000000ull;
		ts.tv_sec += (time_t)(ns / 1000000000ull);
		ts.tv_nsec = (long)(ns % 1000000000ull);
		if (pthread_cond_timedwait(&m->cond, &m->lock, &ts) == ETIMEDOUT && !m->stop_flag) {
			pthread_mutex_unlock(&m->lock);
			monitor_take(m);
			pthread_mutex_lock(&m->lock);
		}
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

void noise_start(struct noise_monitor *m, const char *procroot, unsigned interval_ms)
{
	char err[256];

	memset(m, 0, sizeof *m);
	m->procroot = procroot;
	m->interval_ms = interval_ms;
	m->ok = noise_sample(&m->first, procroot, err, sizeof err) == 0;
	m->prev = m->first;
	m->dirty_max = m->first.dirty;
	m->writeback_max = m->first.writeback;
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->cond, NULL);
	if (m->ok && interval_ms && pthread_create(&m->thread, NULL, monitor_main, m) == 0)
		m->running = 1;
}

int noise_stop(struct noise_monitor *m, struct noise_figures *f)
{
	char err[256];
	int rc = -1;

	if (m->running) {
		pthread_mutex_lock(&m->lock);
		m->stop_flag = 1;
		pthread_cond_signal(&m->cond);
		pthread_mutex_unlock(&m->lock);
		pthread_join(m->thread, NULL);
		m->running = 0;
	}
	memset(f, 0, sizeof *f);
	if (m->ok && noise_sample(&m->last, m->procroot, err, sizeof err) == 0) {
		noise_figures(&m->first, &m->last, f);
		if (m->peak_other > f->peak_other_busy_pct)
			f->peak_other_busy_pct = m->peak_other;
		if (m->peak_steal > f->peak_steal_pct)
			f->peak_steal_pct = m->peak_steal;
		if (m->dirty_max > f->dirty_max)
			f->dirty_max = m->dirty_max;
		if (m->writeback_max > f->writeback_max)
			f->writeback_max = m->writeback_max;
		rc = 0;
	}
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->cond);
	return rc;
}

const char *noise_procroot(void)
{
	const char *p = getenv("NODEMARK_PROCROOT");
	return p && *p ? p : NULL;
}

void noise_record(struct record *rec, const char *key, const struct noise_figures *f)
{
	char why[200];
	json_t *noise = json_object_get(rec->extra, "noise");
	if (!noise) {
		noise = json_object();
		json_object_set_new(rec->extra, "noise", noise);
	}
	json_object_set_new(noise, key, noise_to_json(f));
	if (noise_is_busy(f, why, sizeof why)) {
		progress_clear();
		nm_warn("%s: the machine was busy (%s): its figures may be low", key, why);
	}
}
