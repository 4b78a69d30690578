/* A sweep of piece-store settings (`pieces -L hash sha256,blake3 -L sync on,off`) measured in
 * turns: each round runs every setting once (a whole store: write, and read with --read), the
 * order rotated each round, and each setting is compared with the reference from the
 * per-round pairs (stats/paired.h), as disk's targets are (disk/turns.h).
 *
 *   struct pieces_sweep s = { .narms, .ref, .rounds, .plans, .settings };
 *   pieces_sweep_run(&s, rec, err, sizeof err);  // the runs, and their phases into rec
 *   pieces_sweep_pair(&s);
 *   pieces_sweep_free(&s); */
#ifndef NM_PIECES_SWEEP_H
#define NM_PIECES_SWEEP_H

#include <jansson.h>
#include <stddef.h>
#include "pieces/run.h"
#include "results/record.h"
#include "stats/paired.h"

struct pieces_sweep_pair {
	struct paired_result r;
	struct paired_verdict v;
};

struct pieces_sweep {
	/* set by the caller (owned by the sweep once run) */
	unsigned narms, ref, rounds;
	struct pieces_plan *plans;     /* [narms] */
	json_t **settings;             /* [narms]: {"hash": "sha256", "sync": "on"} */
	/* filled */
	unsigned done;                 /* rounds every setting finished */
	double *bps[2];                /* write, read: [arm * rounds + round] bytes per second */
	int read;                      /* the read phase ran */
	struct pieces_sweep_pair *pairs[2]; /* write, read: [arm] (the reference's unused) */
	unsigned *order;               /* [rounds * narms]: the arms in the order they ran */
};

/* Round by round, every setting once per round in rotated order (round r starts with arm
 * r mod narms).  Each run's phases go into rec as benches named by the setting, with its
 * "parameters".  An exit code (NM_EXIT_*), with a message in err when not OK. */
int pieces_sweep_run(struct pieces_sweep *s, struct record *rec, char *err, size_t errlen);

/* Every setting against the reference on the rounds that finished. */
void pieces_sweep_pair(struct pieces_sweep *s);

/* Arm a's setting as "hash=sha256 sync=on". */
const char *pieces_sweep_label(const struct pieces_sweep *s, unsigned a, char *buf, size_t len);

/* The median bytes per second of arm a in phase ph (0 write, 1 read). */
double pieces_sweep_median(const struct pieces_sweep *s, unsigned a, int ph);

void pieces_sweep_free(struct pieces_sweep *s);

#endif
