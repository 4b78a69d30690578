/* export/hyperfine.c: statistics, outliers and the JSON/CSV/Markdown shapes of time results. */
#include "test.h"
#include "export/hyperfine.h"

#include <jansson.h>
#include <stdlib.h>

TEST(time_stats_of_a_known_sample)
{
	double x[] = { 4, 1, 3, 2, 5 };
	struct time_stats st;
	time_stats_of(x, 5, &st);
	CHECK_NEAR(st.mean, 3, 1e-12);
	CHECK_NEAR(st.median, 3, 0);
	CHECK_NEAR(st.stddev, sqrt(2.5), 1e-12);
	CHECK_NEAR(st.min, 1, 0);
	CHECK_NEAR(st.max, 5, 0);
	CHECK_NEAR(st.mad, 1, 0);
}

TEST(time_outliers_as_hyperfine)
{
	double calm[] = { 1.00, 1.01, 0.99, 1.02, 0.98, 1.00 };
	double slow_first[] = { 3.0, 1.01, 0.99, 1.02, 0.98, 1.00 };
	double later[] = { 1.00, 1.01, 0.99, 1.02, 0.98, 9.00 };
	CHECK_EQ_INT(time_outliers(calm, 6), 0);
	CHECK_EQ_INT(time_outliers(slow_first, 6), 1);
	CHECK_EQ_INT(time_outliers(later, 6), 2);
	/* 14.8 MADs is the line: MAD here is 0.01, so 1.14 is in and 1.16 out. */
	double edge_in[] = { 1.00, 1.01, 0.99, 1.01, 0.99, 1.14 };
	double edge_out[] = { 1.00, 1.01, 0.99, 1.01, 0.99, 1.16 };
	CHECK_EQ_INT(time_outliers(edge_in, 6), 0);
	CHECK_EQ_INT(time_outliers(edge_out, 6), 2);
}

TEST(time_ratio_propagates_relative_errors)
{
	struct time_stats a = { .mean = 1.0, .stddev = 0.03 }, b = { .mean = 2.0, .stddev = 0.08 };
	double r, e;
	time_ratio(&a, &b, &r, &e);
	CHECK_NEAR(r, 2.0, 1e-12);
	CHECK_NEAR(e, 2.0 * sqrt(0.03 * 0.03 + 0.04 * 0.04), 1e-12);
}

static struct record *sample_record(void)
{
	char *argv[] = { "time" };
	struct record *r = record_new("time", 1, argv);
	const char *names[] = { "fast, one", "slow|two" };
	for (int k = 0; k < 2; k++) {
		struct bench *b = record_add_bench(r, names[k]);
		bench_set(b, "command", json_string(k ? "sleep 2" : "sleep 1"));
		bench_set(b, "parameters", json_pack("{s:s}", "n", k ? "2" : "1"));
		for (int i = 0; i < 4; i++) {
			metric_add(bench_metric(b, "wall_s", "s", -1), (k + 1) * 0.1 + i * 0.001);
			metric_add(bench_metric(b, "user_s", "s", -1), 0.01);
			metric_add(bench_metric(b, "sys_s", "s", -1), 0.02);
			metric_add(bench_metric(b, "max_rss", "B", -1), 1 << 20);
			metric_add(bench_metric(b, "exit_code", "", 0), i == 3 ? 1 : 0);
		}
	}
	return r;
}

static char *export_to_string(int (*fn)(FILE *, const struct record *), const struct record *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	fn(fp, r);
	fclose(fp);
	return buf;
}

TEST(export_json_has_hyperfines_schema)
{
	struct record *r = sample_record();
	char *s = export_to_string(export_hyperfine_json, r);
	json_error_t je;
	json_t *j = json_loads(s, 0, &je);
	CHECK(j != NULL);
	json_t *res = json_object_get(j, "results");
	CHECK_EQ_INT(json_array_size(res), 2);
	json_t *o = json_array_get(res, 1);
	CHECK_EQ_STR(json_string_value(json_object_get(o, "command")), "slow|two");
	CHECK_NEAR(json_real_value(json_object_get(o, "mean")), 0.2015, 1e-9);
	CHECK_NEAR(json_real_value(json_object_get(o, "median")), 0.2015, 1e-9);
	CHECK_NEAR(json_real_value(json_object_get(o, "min")), 0.2, 1e-12);
	CHECK_NEAR(json_real_value(json_object_get(o, "max")), 0.203, 1e-12);
	CHECK_NEAR(json_real_value(json_object_get(o, "user")), 0.01, 1e-12);
	CHECK_NEAR(json_real_value(json_object_get(o, "system")), 0.02, 1e-12);
	CHECK_EQ_INT(json_array_size(json_object_get(o, "times")), 4);
	CHECK_EQ_INT(json_integer_value(json_array_get(json_object_get(o, "exit_codes"), 3)), 1);
	CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(o, "parameters"), "n")), "2");
	CHECK_EQ_INT(json_integer_value(json_array_get(json_object_get(o, "memory_usage_byte"), 0)), 1 << 20);
	CHECK_EQ_STR(json_string_value(json_object_get(o, "command_line")), "sleep 2");
	json_decref(j);
	free(s);
	record_free(r);
}

TEST(export_csv_quotes_and_adds_parameters)
{
	struct record *r = sample_record();
	char *s = export_to_string(export_hyperfine_csv, r);
	CHECK(strncmp(s, "command,mean,stddev,median,user,system,min,max,parameter_n\n", 59) == 0);
	CHECK_CONTAINS(s, "\n\"fast, one\",0.1015,");
	CHECK_CONTAINS(s, ",2\n");
	free(s);
	record_free(r);
}

TEST(export_markdown_table_with_relative_speed)
{
	struct record *r = sample_record();
	char *s = export_to_string(export_hyperfine_markdown, r);
	CHECK_CONTAINS(s, "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n|:---|---:|---:|---:|---:|\n");
	CHECK_CONTAINS(s, "| `fast, one` | 101.5 ± 1.3 | 100.0 | 103.0 | 1.00 |\n");
	CHECK_CONTAINS(s, "| `slow\\|two` | 201.5 ± 1.3 | 200.0 | 203.0 | 1.99 ± 0.03 |\n");
	free(s);
	record_free(r);
}
