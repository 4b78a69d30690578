#include "pieces/record.h"
#include "hash/cpufeat.h"

#include <stdio.h>

static const double pcts[PIECES_NPCTS] = { 50, 90, 99, 99.9 };
const char *const pieces_pct_keys[PIECES_NPCTS] = { "p50", "p90", "p99", "p99.9" };

void pieces_lat_percentiles(const struct hist *h, uint64_t v[PIECES_NPCTS])
{
	hist_percentiles(h, pcts, PIECES_NPCTS, v);
	for (int i = 0; i < PIECES_NPCTS; i++)
		if (h->n && v[i] > h->max)
			v[i] = h->max;
}

const char *pieces_sync_label(const struct pieces_plan *p, char *buf, size_t len)
{
	if (p->backend == PIECES_LOG && p->sync != PIECES_NOSYNC && p->sync_batch > 1)
		snprintf(buf, len, "%s-batch%u", pieces_sync_name(p->sync), p->sync_batch);
	else
		snprintf(buf, len, "%s", pieces_sync_name(p->sync));
	return buf;
}

void pieces_bench_name(const struct pieces_plan *p, int write, char *buf, size_t len)
{
	char sl[32];
	snprintf(buf, len, "pieces/%s/%s/%s/%s", pieces_backend_name(p->backend), hash_algo_name(p->hash),
		 pieces_sync_label(p, sl, sizeof sl), write ? "write" : "read");
}

void pieces_settings(json_t *s, const struct pieces_plan *p)
{
	char sl[32];
	json_object_set_new(s, "backend", json_string(pieces_backend_name(p->backend)));
	json_object_set_new(s, "hash", json_string(hash_algo_name(p->hash)));
	json_object_set_new(s, "hash_impl", json_string(hash_impl_name(p->hash)));
	json_object_set_new(s, "sync", json_string(pieces_sync_label(p, sl, sizeof sl)));
	json_object_set_new(s, "dirsync", json_boolean(p->dirsync));
	json_object_set_new(s, "workers", json_integer(p->workers));
	json_object_set_new(s, "count", json_integer((json_int_t)p->count));
	json_object_set_new(s, "size", json_integer((json_int_t)p->size));
	json_object_set_new(s, "block", json_integer((json_int_t)p->block));
	json_object_set_new(s, "dirs", json_integer(p->ndirs));
}

void pieces_phase_to_bench(const struct pieces_plan *p, const struct pieces_phase *ph, int write, int with_hist,
			   struct bench *b)
{
	pieces_settings(b->settings, p);
	metric_add(bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER), pieces_bytes_per_sec(ph));
	metric_add(bench_metric(b, "pieces_per_sec", "op/s", HIGHER_IS_BETTER), pieces_per_sec(ph));
	metric_add(bench_metric(b, "ns_per_op", "ns", LOWER_IS_BETTER), pieces_ns_per_op(ph));
	const struct hist *h = write ? &ph->commit_lat : &ph->op_lat;
	const char *pre = write ? "commit" : "lat";
	uint64_t v[PIECES_NPCTS];
	pieces_lat_percentiles(h, v);
	for (int i = 0; i < PIECES_NPCTS; i++) {
		char m[32];
		snprintf(m, sizeof m, "%s_%s_ns", pre, pieces_pct_keys[i]);
		metric_add(bench_metric(b, m, "ns", LOWER_IS_BETTER), (double)v[i]);
	}
	if (with_hist)
		bench_add_latency(b, write ? "commit" : "read", h);
}

void pieces_record_phase(struct record *rec, const struct pieces_plan *p, const struct pieces_phase *ph, int write,
			 int with_hist)
{
	char name[128];
	pieces_bench_name(p, write, name, sizeof name);
	struct bench *b = record_find_bench(rec, name);
	pieces_phase_to_bench(p, ph, write, with_hist, b ? b : record_add_bench(rec, name));
}
