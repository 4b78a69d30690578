#include "pieces/sweep.h"
#include "pieces/record.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pieces_sweep_label(const struct pieces_sweep *s, unsigned a, char *buf, size_t len)
{
	const char *k;
	json_t *v;
	size_t at = 0;
	buf[0] = 0;
	json_object_foreach(s->settings[a], k, v) {
		int w = snprintf(buf + at, len - at, "%s%s=%s", at ? " " : "", k, json_string_value(v));
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
	return buf;
}

/* A run's phase as a bench of its own setting: the name carries the setting, so two settings
 * that the usual name (backend, hash, sync) does not tell apart never pool. */
static void record_phase(struct record *rec, const struct pieces_sweep *s, unsigned a, const struct pieces_phase *ph,
			 int write)
{
	char name[256], label[160];
	size_t n;
	pieces_bench_name(&s->plans[a], write, name, sizeof name);
	n = strlen(name);
	snprintf(name + n, sizeof name - n, " %s", pieces_sweep_label(s, a, label, sizeof label));
	struct bench *b = record_find_bench(rec, name);
	if (!b) {
		b = record_add_bench(rec, name);
		bench_set(b, "parameters", json_incref(s->settings[a]));
		bench_set(b, "turns", json_integer(s->narms));
	}
	pieces_phase_to_bench(&s->plans[a], ph, write, 0, b);
}

int pieces_sweep_run(struct pieces_sweep *s, struct record *rec, char *err, size_t errlen)
{
	size_t cells = (size_t)s->narms * s->rounds;
	struct pieces_result *r = malloc(sizeof *r);
	s->bps[0] = calloc(cells, sizeof(double));
	s->bps[1] = calloc(cells, sizeof(double));
	s->order = calloc(cells, sizeof *s->order);
	if (!r || !s->bps[0] || !s->bps[1] || !s->order)
		abort();
	int rc = NM_EXIT_OK;
	char label[160];
	for (unsigned i = 0; i < s->rounds && rc == NM_EXIT_OK; i++) {
		for (unsigned k = 0; k < s->narms && rc == NM_EXIT_OK; k++) {
			unsigned a = (i + k) % s->narms; /* rotated: no setting always runs first */
			struct pieces_plan p = s->plans[a];
			if (progress_enabled())
				progress_update("round %u/%u, %s", i + 1, s->rounds, pieces_sweep_label(s, a, label, sizeof label));
			p.show_progress = 0;
			rc = pieces_run(&p, r, err, errlen);
			if (rc != NM_EXIT_OK)
				break;
			s->order[i * s->narms + k] = a;
			record_phase(rec, s, a, &r->write, 1);
			s->bps[0][a * s->rounds + i] = pieces_bytes_per_sec(&r->write);
			if (r->read.ran) {
				s->read = 1;
				record_phase(rec, s, a, &r->read, 0);
				s->bps[1][a * s->rounds + i] = pieces_bytes_per_sec(&r->read);
			}
		}
		if (rc == NM_EXIT_OK)
			s->done = i + 1;
	}
	free(r);
	progress_clear();
	return rc;
}

/* paired_decide's advice names disk's options; a sweep's rounds are --runs, its stores --count. */
static void advise(struct paired_verdict *v)
{
	char *at;
	size_t room;
	if ((at = strstr(v->why, "; more passes (--loops)"))) {
		room = sizeof v->why - (size_t)(at - v->why);
		snprintf(at, room, "; more rounds (--runs) or more pieces (--count) would narrow it");
	} else if ((at = strstr(v->why, " (more passes: --loops"))) {
		room = sizeof v->why - (size_t)(at - v->why);
		snprintf(at, room, " (more rounds: --runs %d or more)", PAIRED_MIN_PAIRS);
	}
}

void pieces_sweep_pair(struct pieces_sweep *s)
{
	for (int ph = 0; ph < 2; ph++) {
		s->pairs[ph] = calloc(s->narms, sizeof *s->pairs[ph]);
		if (!s->pairs[ph])
			abort();
		for (unsigned a = 0; a < s->narms; a++) {
			if (a == s->ref)
				continue;
			paired_ratio(s->bps[ph] + (size_t)s->ref * s->rounds, s->bps[ph] + (size_t)a * s->rounds, s->done,
				     0.95, &s->pairs[ph][a].r);
			paired_decide(&s->pairs[ph][a].r, 0, &s->pairs[ph][a].v);
			advise(&s->pairs[ph][a].v);
		}
	}
}

double pieces_sweep_median(const struct pieces_sweep *s, unsigned a, int ph)
{
	return s->done ? stats_median(s->bps[ph] + (size_t)a * s->rounds, s->done) : 0;
}

void pieces_sweep_free(struct pieces_sweep *s)
{
	for (unsigned a = 0; s->settings && a < s->narms; a++)
		json_decref(s->settings[a]);
	free(s->settings);
	free(s->plans);
	for (int ph = 0; ph < 2; ph++) {
		free(s->bps[ph]);
		free(s->pairs[ph]);
	}
	free(s->order);
	memset(s, 0, sizeof *s);
}
