/* A benchmark's past on this machine: the noise floor of each figure of a run, from the spread
 * of the same benchmark over earlier quiet runs in the store (A/A history), saved with the run
 * so that `run`, `compare` and `report` make the same calls about it later.
 *
 * In the record: extra.noise_floor.<bench>.<metric> = {"pct": 8.5, "runs": 7, "source": "history"}
 * (runs: how many earlier quiet runs had the figure; below VERDICT_HISTORY_MIN the floor is the
 * default and source is "default").  `run` loads the history before measuring, so the same
 * floors also set how many samples each figure takes (suite/phase.h). */
#ifndef NM_RESULTS_HISTORY_H
#define NM_RESULTS_HISTORY_H

#include <stddef.h>
#include "results/record.h"

struct store; /* results/store.h: only the drivers (cmd/, cli/) open one */

/* The documented default floor until there is history (a factor either way, in percent; see
 * stats/verdict.h): for memory and hashing 35% for a throughput or a mean, 60% for a tail
 * latency or a CPU cost per I/O; for what goes through a filesystem and a device (disk, piece
 * store) 100% and 150%.  Chosen from A/A pairs of `run --quick` on a shared 2-vCPU VM
 * (BENCHMARKS.md): with no other load seen, a hash median drifted 17-32% from one minute to
 * the next, a p99 47%, a CPU cost per I/O up to 83%, and the virtio disk's 1 MiB QD8 figures
 * by a factor of up to 1.66 (cloud disks burst and cache).  A machine's own history replaces
 * them after 5 quiet runs: until then only a large change is called. */
#define HISTORY_DEFAULT_PCT 35.0
#define HISTORY_DEFAULT_TAIL_PCT 60.0
#define HISTORY_DEFAULT_STORAGE_PCT 100.0
#define HISTORY_DEFAULT_STORAGE_TAIL_PCT 150.0
/* The default for metric of a bench of phase (NULL: guessed from the bench's name). */
double history_default_floor_for(const char *phase, const char *bench, const char *metric);
/* The same for a bench of a record (its "phase" setting). */
double history_default_floor(const struct bench *b, const char *metric);

/* The least floor for a storage figure measured on a virtual machine, until a full history
 * (HISTORY_MAX_RUNS quiet runs) says otherwise: the host sets the pace of a virtual disk (its
 * cache, its other guests, burst credits), and the guest sees none of it.  In A/A pairs of
 * `run --quick` on a KVM guest with a virtio disk (BENCHMARKS.md, "Regression calls"), 1 MiB
 * QD1 reads ran at 0.55 to 2.9 GB/s over 20 runs (a factor of 5.3), 3.7 apart within one pair,
 * and tripled right after five runs that agreed within 10-19%: a short history does not rule
 * the next jump out.  The floor is a factor of 8: on a virtual machine only such a change of a
 * storage figure is called, and the why line says so. */
#define HISTORY_HOST_PACED_PCT 700.0
/* 1 when r was measured on a virtual machine (its inventory's os.virtualization.type is a
 * hypervisor, not "none"); a record without an inventory is taken as not. */
int history_on_virtual_machine(const struct record *r);
/* HISTORY_HOST_PACED_PCT for a storage bench b of r on a virtual machine, else 0. */
double history_floor_minimum(const struct record *r, const struct bench *b);

/* How many earlier runs a floor needs (VERDICT_HISTORY_MIN) and looks at, at most. */
#define HISTORY_MAX_RUNS 20

/* The earlier runs like one: same host and command, the same directory and mode, and the same
 * CPUs allowed (extra.cpus_allowed, as a set: a run pinned with `taskset -c 0` and an unpinned
 * one in the same directory keep separate histories, so one's spread never sets the other's
 * floor).  A record without cpus_allowed (older, imported) shares history only with others
 * without it: after the upgrade a configuration's floor starts again from the default. */
struct history {
	struct record *past[HISTORY_MAX_RUNS]; /* newest first */
	size_t n;
};

/* Load the earlier runs of rec's host and command with extra.run dir and mode equal to dir and
 * mode (NULL: the record has none) and rec's CPUs allowed, older than rec.  0, or -1 with a message. */
int history_load(struct store *s, const struct record *rec, const char *dir, const char *mode, struct history *h,
		 char *err, size_t errlen);
void history_free(struct history *h);

/* The floor of (bench, metric) from h's quiet runs (verdict_floor_from_history), default_pct
 * with fewer than VERDICT_HISTORY_MIN; runs (NULL: not wanted): how many quiet runs had it. */
double history_floor(const struct history *h, const char *bench, const char *metric, double default_pct, int *runs);

/* Fill rec->extra.noise_floor for every figure of rec from h. */
void history_set_floors(const struct history *h, struct record *rec);

/* history_load with rec's own extra.run, then history_set_floors.  0, or -1 with a message. */
int history_noise_floors(struct store *s, struct record *rec, char *err, size_t errlen);

/* The floor saved with r for (bench, metric), with the number of runs behind it (NULL: not
 * wanted); NAN when r has none. */
double history_saved_floor(const struct record *r, const char *bench, const char *metric, int *runs);

#endif
