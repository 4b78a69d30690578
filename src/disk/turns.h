/* Several targets measured in turns (`nodemark disk A B C`): a plan per target, each with its
 * own session, run round by round (disk_run_turns), and each target compared with the
 * reference from the per-round pairs of its passes (stats/paired.h).
 *
 *   struct disk_turns t;
 *   disk_turns_init(&t, &plan, ref, ...);  // one plan per target, built like plan
 *   ... open t.arms[k].session for each, disk_run_turns(t.arms, t.narms, t.ntests, &loop, ...)
 *   disk_turns_pair(&t);                   // the paired ratios and verdicts
 *   disk_turns_free(&t); */
#ifndef NM_DISK_TURNS_H
#define NM_DISK_TURNS_H

#include <jansson.h>
#include <stddef.h>
#include "disk/passes.h"
#include "disk/plan.h"
#include "stats/paired.h"

/* What a target is, for the keys of its results: the file system and device under it. */
struct disk_target_facts {
	char fs[32];            /* "ext4", "tmpfs"; "" for a block device */
	char device[64];        /* "vda", "loop3" */
	char mount_options[256];
};

/* A target against the reference on one test. */
struct disk_pair {
	struct paired_result r;
	struct paired_verdict v;
};

struct disk_turns {
	unsigned narms, ref;        /* ref: the arm the others are compared with */
	unsigned ntests;
	struct disk_plan *plans;    /* [narms]: the request's plan for that target alone */
	struct disk_arm *arms;      /* [narms]: sessions (opened by the caller) and tests */
	struct disk_target_facts *facts; /* [narms] */
	struct disk_pair *pairs;    /* [ntests * narms]: test i, arm a at i * narms + a (ref's unused) */
	json_t **settings;          /* [narms]: a sweep's parameters of that arm ({"bs": "4k"}), or NULL */
};

/* One plan per target of req (not built: each is req with only its target), built, with the
 * target's facts.  0, or -1 with a message (bad input, as disk_plan_build). */
int disk_turns_init(struct disk_turns *t, const struct disk_plan *req, unsigned ref, char *err, size_t errlen);

/* The same from one unbuilt plan per arm (one target each: a sweep's settings), copied and
 * built; every arm must give the same number of tests.  The caller may then set t->settings[a]
 * (owned by t). */
int disk_turns_init_plans(struct disk_turns *t, const struct disk_plan *plans, unsigned n, unsigned ref, char *err,
			  size_t errlen);

/* Arm a's settings as "bs=4k iodepth=32" into buf ("" without). */
const char *disk_turns_setting(const struct disk_turns *t, unsigned a, char *buf, size_t len);

/* The pairs of every test that ran in every arm: round r's bytes per second of each arm
 * against the reference's. */
void disk_turns_pair(struct disk_turns *t);

/* The facts of a target (a directory, file or block device). */
void disk_target_facts_of(const char *target, struct disk_target_facts *f);

/* Target a's path as the user named it. */
const char *disk_turns_target(const struct disk_turns *t, unsigned a);

/* Arm a's pair on one test as JSON (for --json and the record): target, reference, n, ratio,
 * lo, hi, confidence, median_ratio, p, verdict ("called", "no change", "can't tell"), text, why. */
json_t *disk_pair_json(const struct disk_turns *t, unsigned a, const struct disk_pair *pr);

/* The same for any pair of arms measured in turns (run --compare-with's piece stores too). */
json_t *disk_paired_json(const char *target, const char *reference, const struct paired_result *r,
			 const struct paired_verdict *v);

void disk_turns_free(struct disk_turns *t);

#endif
