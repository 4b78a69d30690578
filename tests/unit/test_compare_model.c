/* The comparison model (compare/model.h): keys and projections, a row's ratio and verdict with
 * its reason, the geomean over the common set, single samples. */
#include "test.h"
#include "compare/keys.h"
#include "compare/model.h"

/* A run of `nodemark run` with one hash figure: six samples around mb MB/s, optionally busy. */
static struct record *hash_run(const char *id, double mb, int busy, size_t n)
{
	struct record *r = record_new("run", 0, NULL);
	snprintf(r->id, sizeof r->id, "%s", id);
	struct bench *b = record_add_bench(r, "hash/blake3/1t");
	bench_set(b, "phase", json_string("hash"));
	bench_set(b, "threads", json_integer(1));
	struct metric *m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	static const double jitter[] = { 1.000, 1.004, 0.996, 1.001, 0.999, 1.002 };
	for (size_t i = 0; i < n; i++)
		metric_add(m, mb * 1e6 * jitter[i % 6]);
	if (busy)
		json_object_set_new(r->extra, "noise",
				    json_pack("{s:{s:b, s:s}}", "hash", "busy", 1, "why", "other processes used 93% of the CPUs"));
	return r;
}

/* got (malloc'd, freed here) is want. */
static int key_is(char *got, const char *want)
{
	int same = got && strcmp(got, want) == 0;
	free(got);
	return same;
}

/* A time run over -L n 1,3: two benches named with the value, the template kept. */
static struct record *sweep(void)
{
	struct record *r = record_new("time", 0, NULL);
	for (int n = 1; n <= 3; n += 2) {
		char name[32], v[12];
		snprintf(name, sizeof name, "sleep 0.0%d", n);
		snprintf(v, sizeof v, "%d", n);
		struct bench *b = record_add_bench(r, name);
		bench_set(b, "parameters", json_pack("{s:s}", "n", v));
		bench_set(b, "template", json_string("sleep 0.0{n}"));
		struct metric *m = bench_metric(b, "wall_s", "s", LOWER_IS_BETTER);
		for (int i = 0; i < 6; i++)
			metric_add(m, n * 0.01 + i * 1e-5);
	}
	record_set_inventory(r, json_pack("{s:{s:s}, s:{s:s}}", "os", "kernel", "6.1.0", "path", "fstype", "xfs"));
	return r;
}

/* Found by fuzz_compare_keys: a setting named "" (an imported record) made keys_list, which an
 * unknown --col prints, loop for ever. */
TEST(compare_keys_list_a_setting_named_empty)
{
	struct record *r = record_new("time", 0, NULL);
	struct bench *b = record_add_bench(r, "sleep 1");
	bench_set(b, "", json_integer(1));
	bench_set(b, "ratio", json_real(0.5));
	struct ct_input in = { r, "a" };
	char list[256];
	keys_list(&in, 1, list, sizeof list);
	CHECK(strstr(list, "ratio") != NULL);
	record_free(r);
}

/* keys_list looked a key up with strstr in the list so far: a setting b after one named "a, b"
 * (an imported record) was taken as listed, and left out. */
TEST(compare_keys_list_each_key_whole)
{
	struct record *r = record_new("time", 0, NULL);
	struct bench *b = record_add_bench(r, "sleep 1");
	bench_set(b, "a, b", json_integer(1));
	bench_set(b, "b", json_integer(2));
	struct ct_input in = { r, "a" };
	char list[256];
	keys_list(&in, 1, list, sizeof list);
	size_t n = strlen(list);
	CHECK(n > 7 && strcmp(list + n - 7, "a, b, b") == 0);
	record_free(r);
}

/* Two inputs of one bench "sleep 1" each, told apart by a setting: 5 samples apiece. */
static void two_runs(struct record **a, struct record **b, struct bench **ba, struct bench **bb)
{
	*a = record_new("time", 0, NULL);
	*b = record_new("time", 0, NULL);
	*ba = record_add_bench(*a, "sleep 1");
	*bb = record_add_bench(*b, "sleep 1");
	for (int i = 0; i < 2; i++) {
		struct metric *m = bench_metric(i ? *bb : *ba, "wall_s", "s", LOWER_IS_BETTER);
		for (int k = 0; k < 5; k++)
			metric_add(m, 1 + k * 0.01);
	}
}

/* Found by fuzz_compare_keys: a key's value was cut at 255 bytes, so two commands that differ
 * after it shared a row (compared as one benchmark) and a filter on the end matched nothing. */
TEST(compare_keys_are_whole_values)
{
	struct record *a, *b;
	struct bench *ba, *bb;
	two_runs(&a, &b, &ba, &bb);
	char longname[400];
	memset(longname, 'x', 300);
	strcpy(longname + 300, "A");
	bench_set(ba, "cmd", json_string(longname));
	longname[300] = 'B';
	bench_set(bb, "cmd", json_string(longname));
	struct ct_input in[2] = { { a, "a" }, { b, "b" } };
	CHECK(key_is(key_value(&in[1], bb, "cmd"), longname));
	struct ct_result res;
	char err[512];
	struct ct_opts o = { .row_key = "cmd" };
	CHECK(ct_build(in, 2, &o, &res, err, sizeof err) == 0);
	CHECK_EQ_INT(res.tables[0]->nrows, 2);
	CHECK(res.tables[0]->nrows == 2 && strlen(res.tables[0]->rows[1]) == 301);
	ct_free(&res);
	struct ct_filter f = { "cmd", "*B", 0 };
	o = (struct ct_opts){ .col_key = "cmd", .filters = &f, .nfilters = 1 };
	CHECK(ct_build(in, 2, &o, &res, err, sizeof err) == 0);
	CHECK_EQ_INT(res.ncols, 1);
	CHECK(res.ncols == 1 && res.cols[0][300] == 'B');
	ct_free(&res);
	record_free(a);
	record_free(b);
}

/* Found by fuzz_compare_keys: reals were keyed by %g, so settings 0.1 and 0.10000001 were one
 * column (compared as the same setting); now the shortest digits that read back. */
TEST(compare_keys_keep_reals_apart)
{
	struct record *a, *b;
	struct bench *ba, *bb;
	two_runs(&a, &b, &ba, &bb);
	bench_set(ba, "ratio", json_real(0.1));
	bench_set(bb, "ratio", json_real(0.10000001));
	struct ct_input in[2] = { { a, "a" }, { b, "b" } };
	struct ct_result res;
	char err[512];
	CHECK(key_is(key_value(&in[1], bb, "ratio"), "0.10000001"));
	struct ct_opts o = { .col_key = "ratio" };
	CHECK(ct_build(in, 2, &o, &res, err, sizeof err) == 0);
	CHECK_EQ_INT(res.ncols, 2);
	CHECK(res.ncols == 2 && strcmp(res.cols[0], "0.1") == 0 && strcmp(res.cols[1], "0.10000001") == 0);
	ct_free(&res);
	record_free(a);
	record_free(b);
}

TEST(compare_keys_reach_parameters_settings_and_inventory)
{
	struct record *r = sweep();
	struct ct_input in = { r, "sweep" };
	CHECK(key_is(key_value(&in, r->benches[1], "n"), "3"));
	CHECK(key_is(key_value(&in, r->benches[0], "kernel"), "6.1.0"));
	CHECK(key_is(key_value(&in, r->benches[0], "fs"), "xfs"));
	CHECK(key_is(key_value(&in, r->benches[0], "input"), "sweep"));
	CHECK(key_value(&in, r->benches[0], "bs") == NULL);
	CHECK(keys_known(&in, 1, "n"));
	CHECK(!keys_known(&in, 1, "nosuchkey"));
	char list[256];
	keys_list(&in, 1, list, sizeof list);
	CHECK(strstr(list, "input, name,") == list);
	CHECK(strstr(list, ", n,") && strstr(list, "kernel") && strstr(list, "fs"));
	/* over the parameter, a row is the command as written; over anything else its name */
	CHECK(key_is(key_row_name(r->benches[0], "n"), "sleep 0.0{n}"));
	CHECK(key_is(key_row_name(r->benches[0], "host"), "sleep 0.01"));
	record_free(r);
}

TEST(compare_projects_over_a_parameter_and_refuses_unknown_keys)
{
	struct record *r = sweep();
	struct ct_input in = { r, "sweep" };
	struct ct_opts o = { .col_key = "n" };
	struct cmp_model m;
	char err[512];
	CHECK(cmp_build(&in, 1, &o, &m, err, sizeof err) == 0);
	CHECK_EQ_INT(m.tab.ncols, 2);
	CHECK_EQ_STR(m.tab.cols[0], "1");
	CHECK_EQ_STR(m.tab.cols[1], "3");
	const struct ct_table *t = m.tab.tables[0];
	CHECK_EQ_INT(t->nrows, 1);
	CHECK_EQ_STR(t->rows[0], "sleep 0.0{n}");
	/* the ratio is a field of the cell: 3 is about three times 1 */
	CHECK_NEAR(ct_cell_at(&m.tab, t, 0, 1)->ratio, (0.03 + 2.5e-5) / (0.01 + 2.5e-5), 1e-9);
	cmp_free(&m);

	o = (struct ct_opts){ .row_key = "nosuchkey" };
	CHECK(cmp_build(&in, 1, &o, &m, err, sizeof err) < 0);
	CHECK(strstr(err, "--row nosuchkey: no input has this key; keys: input, name,") == err);
	CHECK(strstr(err, " n,") != NULL);
	struct ct_filter f = { "nosuch", "*", 0 };
	o = (struct ct_opts){ .filters = &f, .nfilters = 1 };
	CHECK(cmp_build(&in, 1, &o, &m, err, sizeof err) < 0);
	CHECK(strstr(err, "--filter nosuch:") == err);

	/* rows by a key both benchmarks share would pool 10 ms with 30 ms: refused, naming them */
	record_set_tag(r, "site", "lab");
	o = (struct ct_opts){ .row_key = "site" };
	CHECK(cmp_build(&in, 1, &o, &m, err, sizeof err) < 0);
	CHECK(strstr(err, "\"sleep 0.01\" and \"sleep 0.03\" of sweep would pool into one cell") != NULL);
	record_free(r);
}

TEST(compare_verdicts_are_fields_of_the_cells_with_their_reason)
{
	struct record *base = hash_run("6b0e000000000001", 100, 0, 6), *slow = hash_run("6b0e000000000002", 70, 0, 6),
		      *busy = hash_run("6b0e000000000003", 70, 1, 6), *few = hash_run("6b0e000000000004", 70, 0, 1);
	struct ct_input in[] = { { base, "base" }, { slow, "slow" }, { busy, "busy" }, { few, "few" } };
	struct ct_opts o = { 0 };
	struct cmp_model m;
	char err[256];
	CHECK(cmp_build(in, 4, &o, &m, err, sizeof err) == 0);
	const struct ct_table *t = m.tab.tables[0];
	const struct ct_cell *cs = ct_cell_at(&m.tab, t, 0, 1), *cb = ct_cell_at(&m.tab, t, 0, 2),
			     *cf = ct_cell_at(&m.tab, t, 0, 3);
	CHECK(ct_cell_at(&m.tab, t, 0, 0)->call == NULL); /* the base is compared with nothing */
	CHECK(cs->call && cs->call->v.kind == VERDICT_REGRESSION);
	CHECK(strstr(cs->call->v.why, "regression: -30.0% (p=0.002 n=6+6, noise floor 35% by default)") == cs->call->v.why);
	CHECK_EQ_INT(cmp_cell_mark(cs), CMP_MARK_WORSE);
	/* the same -30% (and the same p) from a busy run is not compared, and not marked */
	CHECK(cb->call && cb->call->v.kind == VERDICT_NOT_COMPARED);
	CHECK(strstr(cb->call->v.why, "busy: the hash phase ran on a busy machine") != NULL);
	CHECK_NEAR(cb->p, cs->p, 1e-12);
	CHECK_EQ_INT(cmp_cell_mark(cb), CMP_MARK_NONE);
	/* a single sample: its value, no interval, no verdict beyond "too few samples" */
	CHECK_EQ_INT(cf->n, 1);
	CHECK(isinf(cf->sum.lo) || isinf(cf->sum.hi));
	CHECK(cf->call && cf->call->v.kind == VERDICT_NOT_COMPARED && strstr(cf->call->v.why, "too few samples"));
	CHECK_EQ_INT(cmp_cell_mark(cf), CMP_MARK_NONE);
	CHECK_NEAR(cs->ratio, 0.7, 1e-9);
	cmp_free(&m);
	record_free(base);
	record_free(slow);
	record_free(busy);
	record_free(few);
}

/* A busy `run --phases hash` with 1- and 2-thread figures and CPU time per sample, allowed
 * cpus CPUs; its wall-clock rate is mb MB/s, its rate per CPU-second always 100 MB/s. */
static struct record *busy_cpu_run(const char *id, double mb, int cpus)
{
	struct record *r = record_new("run", 0, NULL);
	snprintf(r->id, sizeof r->id, "%s", id);
	static const double jitter[] = { 1.000, 1.004, 0.996, 1.001, 0.999, 1.002 };
	for (unsigned t = 1; t <= 2; t++) {
		char name[32];
		snprintf(name, sizeof name, "hash/blake3/%ut", t);
		struct bench *b = record_add_bench(r, name);
		bench_set(b, "phase", json_string("hash"));
		bench_set(b, "threads", json_integer(t));
		struct metric *m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
		for (size_t i = 0; i < 6; i++) {
			double rate = mb * 1e6 * jitter[i];
			metric_add(m, rate);
			/* 100 MB per sample: its wall time at the rate, its CPU time at 100 MB/s */
			record_add_cpu_sample(r, name, "bytes_per_sec", t, 100e6 / rate, 100e6 / (100e6 * jitter[i]));
		}
	}
	json_object_set_new(r->extra, "noise",
			    json_pack("{s:{s:b, s:f, s:f, s:s}}", "hash", "busy", 1, "other_busy_pct", 60.0, "steal_pct",
				      0.0, "why", "other processes used 60% of the CPUs"));
	json_object_set_new(r->extra, "cpus_allowed",
			    json_pack("{s:s, s:i}", "list", cpus == 1 ? "0" : "0-1", "count", cpus));
	return r;
}

/* Two busy runs, the second pinned to one CPU (its wall-clock rate halved, its CPU time per byte
 * not): the 2-thread row is not judged on CPU time, which cannot see the lost CPU, and says so;
 * the 1-thread row, which one CPU serves either way, still is.  With the same CPUs both are. */
TEST(compare_calls_leave_cpu_time_when_the_cpus_allowed_changed)
{
	struct record *base = busy_cpu_run("6b0e000000000011", 100, 2), *pinned = busy_cpu_run("6b0e000000000012", 50, 1),
		      *same = busy_cpu_run("6b0e000000000013", 50, 2);
	struct ct_input in[] = { { base, "base" }, { pinned, "pinned" }, { same, "same" } };
	struct ct_opts o = { 0 };
	struct cmp_model m;
	char err[256];
	CHECK(cmp_build(in, 3, &o, &m, err, sizeof err) == 0);
	const struct ct_table *t = m.tab.tables[0];
	CHECK_EQ_U64(t->nrows, 2);
	for (size_t r = 0; r < t->nrows; r++) {
		int two = strcmp(t->rows[r], "hash/blake3/2t") == 0;
		const struct verdict *vp = &ct_cell_at(&m.tab, t, r, 1)->call->v, *vs = &ct_cell_at(&m.tab, t, r, 2)->call->v;
		if (two) {
			CHECK(!vp->cpu_basis);
			CHECK_EQ_INT(vp->kind, VERDICT_NOT_COMPARED);
			CHECK_CONTAINS(vp->why, "; not judged on CPU time: CPUs allowed 2 -> 1");
			CHECK_CONTAINS(vp->text, "(not judged on CPU time: CPUs allowed 2 -> 1)");
		} else {
			CHECK(vp->cpu_basis);
			CHECK_EQ_INT(vp->kind, VERDICT_UNCHANGED);
		}
		CHECK(vs->cpu_basis); /* the same CPUs: judged on CPU time, no change */
		CHECK_EQ_INT(vs->kind, VERDICT_UNCHANGED);
		CHECK(strstr(vs->why, "not judged") == NULL);
	}
	cmp_free(&m);
	record_free(base);
	record_free(pinned);
	record_free(same);
}

/* A record with two benchmarks named x (a test per target of disk --turns, fio's numjobs without
 * group_reporting in an imported record), 6 samples around first and second seconds. */
static struct record *two_named_x(double first, double second)
{
	struct record *r = record_new("disk", 0, NULL);
	static const double jitter[] = { 1.000, 1.004, 0.996, 1.001, 0.999, 1.002 };
	for (int t = 0; t < 2; t++) {
		struct bench *b = record_add_bench(r, "x");
		bench_set(b, "target", json_string(t ? "/b" : "/a"));
		struct metric *m = bench_metric(b, "wall_s", "s", LOWER_IS_BETTER);
		for (size_t i = 0; i < 6; i++)
			metric_add(m, (t ? second : first) * jitter[i]);
	}
	return r;
}

/* Two benchmarks of one name were refused as pooling into one cell ("x" and "x" of a); each now
 * has its row, "x" and "x #2", paired with the K-th x of the other run, and each row's verdict
 * is about its own benchmark (the second x is 4 times slower, the first unchanged). */
TEST(compare_rows_keep_benchmarks_of_one_name_apart)
{
	struct record *a = two_named_x(1, 2), *b = two_named_x(1, 8);
	struct ct_input in[] = { { a, "a" }, { b, "b" } };
	struct ct_opts o = { 0 };
	struct cmp_model m;
	char err[256];
	CHECK(cmp_build(in, 2, &o, &m, err, sizeof err) == 0);
	const struct ct_table *t = m.tab.tables[0];
	CHECK_EQ_U64(t->nrows, 2);
	CHECK_EQ_STR(t->rows[0], "x");
	CHECK_EQ_STR(t->rows[1], "x #2");
	CHECK_NEAR(ct_cell_at(&m.tab, t, 1, 0)->sum.center, 2, 0.01);
	CHECK_NEAR(ct_cell_at(&m.tab, t, 1, 1)->ratio, 4, 0.01);
	CHECK_EQ_U64(m.calls.n, 2);
	const struct ct_cell *c0 = ct_cell_at(&m.tab, t, 0, 1), *c1 = ct_cell_at(&m.tab, t, 1, 1);
	CHECK(c0->call && c0->call->v.kind == VERDICT_UNCHANGED);
	CHECK(c1->call && c1->call->v.kind == VERDICT_REGRESSION);
	cmp_free(&m);
	/* rows by --row name are the same; rows by a key the two share still refuse to pool */
	o = (struct ct_opts){ .row_key = "name" };
	CHECK(cmp_build(in, 2, &o, &m, err, sizeof err) == 0);
	CHECK_EQ_U64(m.tab.tables[0]->nrows, 2);
	cmp_free(&m);
	o = (struct ct_opts){ .row_key = "command" };
	CHECK(cmp_build(in, 2, &o, &m, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "\"x\" and \"x\" of a would pool into one cell");
	/* columns by target: each x in its own column, one row */
	o = (struct ct_opts){ .col_key = "target" };
	CHECK(cmp_build(in, 2, &o, &m, err, sizeof err) == 0);
	CHECK_EQ_U64(m.tab.ncols, 2);
	CHECK_EQ_U64(m.tab.tables[0]->nrows, 1);
	cmp_free(&m);
	record_free(a);
	record_free(b);
}

/* A key is a name, taken whole: an option named "a.b" is the key a.b; b under a setting a is no
 * key (and a, an object, is none either).  A setting that holds an object hides nothing: the
 * job option of its name is found (keys_list named it, and --col refused it as unknown). */
TEST(compare_keys_are_names_not_paths)
{
	struct record *r = record_new("fio", 0, NULL);
	struct bench *dotted = record_add_bench(r, "j1"), *nested = record_add_bench(r, "j2");
	bench_set(dotted, "job_options", json_pack("{s:s}", "a.b", "1"));
	bench_set(nested, "a", json_pack("{s:s}", "b", "2"));
	bench_set(nested, "x", json_pack("{s:i}", "y", 1));
	bench_set(nested, "job_options", json_pack("{s:s}", "x", "v"));
	struct ct_input in = { r, "r" };
	CHECK(key_is(key_value(&in, dotted, "a.b"), "1"));
	CHECK(key_value(&in, nested, "a.b") == NULL);
	CHECK(key_value(&in, nested, "a") == NULL);
	CHECK(!keys_known(&in, 1, "a"));
	CHECK(key_is(key_value(&in, nested, "x"), "v"));
	CHECK(keys_known(&in, 1, "x"));
	char list[512];
	keys_list(&in, 1, list, sizeof list);
	CHECK_CONTAINS(list, ", a.b");
	CHECK(strstr(list, ", a,") == NULL);
	/* a tag named kernel is the key kernel, before the inventory's */
	record_set_inventory(r, json_pack("{s:{s:s}}", "os", "kernel", "6.1.0"));
	CHECK(key_is(key_value(&in, dotted, "kernel"), "6.1.0"));
	record_set_tag(r, "kernel", "custom");
	CHECK(key_is(key_value(&in, dotted, "kernel"), "custom"));
	record_free(r);
}

/* Found by fuzz_compare_keys' oracle: the refusal of a key no input has listed keys no input
 * has either: a bench-less run's tags and facts ("--col site: no input has this key; keys: ...,
 * site"), and label where no run is labelled. */
TEST(compare_keys_list_only_what_a_benchmark_has)
{
	struct record *empty = record_new("time", 0, NULL), *r = sweep();
	record_set_tag(empty, "site", "lab");
	struct ct_input in[] = { { empty, "empty" }, { r, "sweep" } };
	CHECK(!keys_known(in, 2, "site"));
	char list[512];
	keys_list(in, 2, list, sizeof list);
	CHECK(strstr(list, "site") == NULL);
	CHECK_CONTAINS(list, ", n,");
	/* no run is labelled: label is no key here either */
	CHECK(!keys_known(in, 2, "label"));
	CHECK(strstr(list, "label") == NULL);
	record_free(empty);
	record_free(r);
}
