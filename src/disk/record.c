#include "disk/record.h"

void disk_test_settings(json_t *settings, const struct disk_test *t, const char *const *targets, unsigned ntargets)
{
	const struct io_job *j = &t->job;
	json_object_set_new(settings, "rw", json_string(io_rw_name(j->rw)));
	json_object_set_new(settings, "bs", json_integer((json_int_t)j->bs[j->rw == IO_WRITE || j->rw == IO_RANDWRITE]));
	json_object_set_new(settings, "iodepth", json_integer(j->iodepth));
	json_object_set_new(settings, "numjobs", json_integer(j->numjobs));
	json_object_set_new(settings, "size", json_integer((json_int_t)j->size));
	json_object_set_new(settings, "runtime_ns", json_integer((json_int_t)j->runtime_ns));
	json_object_set_new(settings, "engine", json_string(t->engine));
	json_object_set_new(settings, "direct", json_boolean(t->direct > 0));
	if (j->rw == IO_RW || j->rw == IO_RANDRW)
		json_object_set_new(settings, "rwmix_read", json_integer(j->rwmix_read));
	json_t *tg = json_array();
	for (unsigned k = 0; k < ntargets; k++)
		json_array_append_new(tg, json_string(targets[k]));
	json_object_set_new(settings, "targets", tg);
}

void disk_test_to_bench(const struct disk_test *t, const char *const *targets, unsigned ntargets, struct bench *b)
{
	disk_test_settings(b->settings, t, targets, ntargets);
	struct metric *bw = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	struct metric *iops = bench_metric(b, "iops", "op/s", HIGHER_IS_BETTER);
	struct metric *lat = bench_metric(b, "lat_mean_ns", "ns", LOWER_IS_BETTER);
	struct metric *p99 = bench_metric(b, "lat_p99_ns", "ns", LOWER_IS_BETTER);
	struct metric *cpu = bench_metric(b, "cpu_ns_per_io", "ns", LOWER_IS_BETTER);
	for (unsigned p = 0; p < t->npasses; p++) {
		struct disk_figures f;
		disk_pass_figures(&t->total[p], &f);
		metric_add(bw, f.bytes_per_sec);
		metric_add(iops, f.iops);
		metric_add(lat, f.lat_mean_ns);
		metric_add(p99, f.lat_p99_ns);
		metric_add(cpu, f.cpu_ns_per_io);
	}

	/* The best pass's completion latency as sparse (bucket value, count) pairs. */
	const struct io_job_result *best = &t->total[t->best];
	struct hist clat;
	hist_init(&clat);
	hist_merge(&clat, &best->dir[DIR_READ].clat);
	hist_merge(&clat, &best->dir[DIR_WRITE].clat);
	if (clat.n)
		bench_add_latency(b, "clat", &clat);
	if (best->nsec && best->sec_iops && best->sec_bw) {
		struct series *si = bench_series(b, "iops", "s", "op/s");
		struct series *sb = bench_series(b, "bytes_per_sec", "s", "B/s");
		for (size_t k = 0; k < best->nsec; k++) {
			series_add(si, (double)(k + 1), best->sec_iops[k]);
			series_add(sb, (double)(k + 1), best->sec_bw[k]);
		}
	}
}

void disk_to_record(const struct disk_plan *p, struct record *rec)
{
	for (unsigned i = 0; i < p->ntests; i++)
		if (p->tests[i].complete && p->tests[i].npasses)
			disk_test_to_bench(&p->tests[i], disk_plan_targets(p), disk_plan_ntargets(p),
					   record_add_bench(rec, p->tests[i].name));
}

void disk_turns_to_record(const struct disk_turns *t, struct record *rec)
{
	for (unsigned k = 0; k < t->narms; k++) {
		const char *target = disk_turns_target(t, k);
		const struct disk_target_facts *f = &t->facts[k];
		for (unsigned i = 0; i < t->ntests; i++) {
			const struct disk_test *at = &t->arms[k].tests[i];
			if (!at->complete || !at->npasses)
				continue;
			struct bench *b = record_add_bench(rec, at->name);
			disk_test_to_bench(at, &target, 1, b);
			bench_set(b, "target", json_string(target));
			bench_set(b, "fs", json_string(f->fs));
			bench_set(b, "device", json_string(f->device));
			bench_set(b, "mount_options", json_string(f->mount_options));
			bench_set(b, "turns", json_integer(t->narms));
			if (t->settings[k]) /* a sweep's settings: keys of compare (--row bs) */
				bench_set(b, "parameters", json_incref(t->settings[k]));
			bench_set(b, "reference", json_string(disk_turns_target(t, t->ref)));
			if (k != t->ref)
				bench_set(b, "paired", disk_pair_json(t, k, &t->pairs[i * t->narms + k]));
		}
	}
}
