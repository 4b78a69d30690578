/* How quiet the machine was while a benchmark ran ("noise"), read from /proc.
 *
 * Careful posters check by hand that nothing else ran during a benchmark; this does it for them.
 * A sample holds the CPU tick counters of /proc/stat, our own CPU time from /proc/self/stat and
 * the page-cache state of /proc/meminfo.  Two samples give the figures of the interval between
 * them: CPU steal (a VM's host ran someone else), the CPU load of other processes (all busy ticks
 * minus ours), I/O wait, and how much dirty data the page cache held.  A monitor thread samples
 * every second as well, so a short burst of other load is not averaged away.
 *
 * The figures go with each bench of the run (record->extra), so a later comparison can tell a
 * noisy baseline from a real change. */
#ifndef NM_RUN_NOISE_H
#define NM_RUN_NOISE_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "results/record.h"

struct noise_sample {
	uint64_t t_ns;          /* monotonic */
	/* /proc/stat "cpu" line, all CPUs together, in clock ticks */
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
	uint64_t self_ticks;    /* utime + stime of this process (all threads) and of the children it waited for */
	unsigned ncpu;          /* "cpuN" lines */
	/* /proc/meminfo, bytes */
	uint64_t mem_total, mem_available, cached, dirty, writeback;
};

/* Read /proc (or procroot/stat, procroot/self/stat, procroot/meminfo for tests; NULL = "/proc").
 * Returns 0, or -1 with a message naming the file. */
int noise_sample(struct noise_sample *s, const char *procroot, char *err, size_t errlen);

/* Shares of the machine's CPU time over an interval, in percent of all CPUs (0..100). */
struct noise_figures {
	double seconds;
	double steal_pct;
	double other_busy_pct;  /* busy ticks that were not ours */
	double iowait_pct;
	double peak_other_busy_pct, peak_steal_pct; /* the worst one-second interval (monitor) */
	uint64_t cached_start, cached_end;
	uint64_t dirty_start, dirty_end, dirty_max, writeback_max;
	uint64_t mem_total;
};

/* The figures between two samples (peaks = the interval's own values). */
void noise_figures(const struct noise_sample *a, const struct noise_sample *b, struct noise_figures *f);

/* Thresholds above which a result is called noisy. */
#define NOISE_STEAL_PCT 5.0
#define NOISE_OTHER_PCT 20.0

/* 1 when the interval was busy enough to doubt the result, with the reason in why
 * ("other processes used 35% of the CPUs, steal 7%"); 0 otherwise. */
int noise_is_busy(const struct noise_figures *f, char *why, size_t len);

/* { "seconds", "steal_pct", "other_busy_pct", "iowait_pct", "peak_other_busy_pct",
 *   "peak_steal_pct", "cached_start", "cached_end", "dirty_start", "dirty_end", "dirty_max",
 *   "writeback_max", "busy": bool, "why": text when busy }  (new reference) */
json_t *noise_to_json(const struct noise_figures *f);

/* A phase watcher: samples at start, every second in a thread, and at stop. */
struct noise_monitor {
	struct noise_sample first, last, prev;
	double peak_other, peak_steal;
	uint64_t dirty_max, writeback_max;
	const char *procroot;
	unsigned interval_ms;
	int ok;                 /* the first sample worked (no /proc: no figures) */
	int running;
	int stop_flag;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* The /proc the noise monitor reads: NODEMARK_PROCROOT (tests give a quiet or a busy one), else
 * NULL. */
const char *noise_procroot(void);

/* Save the figures in rec->extra.noise.<key> (key: `run`'s phase, or a command that measures one
 * thing, as `nodemark hash`: record_noise reads them back), with a warning when they say busy. */
void noise_record(struct record *rec, const char *key, const struct noise_figures *f);

/* Take the first sample and start the one-second thread (interval_ms 0 = no thread). */
void noise_start(struct noise_monitor *m, const char *procroot, unsigned interval_ms);
/* Take the last sample, stop the thread, fill f. Returns 0, or -1 when /proc could not be read. */
int noise_stop(struct noise_monitor *m, struct noise_figures *f);

#endif
