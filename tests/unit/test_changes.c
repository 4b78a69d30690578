/* compare/changes: what changed between two runs, one entry per fact; export/changes: its text. */
#include "test.h"
#include "compare/changes.h"
#include "export/changes.h"
#include "inventory/diff.h"
#include "util/keypath.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static struct record *run_with_targets(const char *target, const char *bs)
{
	struct record *r = record_new("run", 0, NULL);
	record_set_inventory(r, json_pack("{s:{s:s}}", "os", "kernel", "6.1.0"));
	struct bench *b = record_add_bench(r, "RND4K Q1T1 read");
	bench_set(b, "targets", json_pack("[s]", target));
	bench_set(b, "bs", json_string(bs));
	return r;
}

/* Each run has its own private directory: the same target is not a changed setting. */
TEST(changes_leave_out_each_runs_private_directory_name)
{
	struct record *a = run_with_targets("/srv/d/.nodemark-56c542ee", "4k");
	struct record *b = run_with_targets("/srv/d/.nodemark-0654fe8e", "4k");
	json_t *c = record_changes(a, b);
	size_t n = json_array_size(c);
	json_decref(c);
	/* another directory, and another block size, are changes */
	struct record *d = run_with_targets("/srv/e/.nodemark-0654fe8e", "8k");
	json_t *c2 = record_changes(a, d);
	size_t n2 = json_array_size(c2);
	char *text = changes_text(c2);
	json_decref(c2);
	record_free(a);
	record_free(b);
	record_free(d);
	CHECK_EQ_U64(n, 0);
	CHECK_EQ_U64(n2, 2);
	CHECK_CONTAINS(text, "  targets  [\"/srv/d/.nodemark-56c542ee\"] -> [\"/srv/e/.nodemark-0654fe8e\"]");
	CHECK_CONTAINS(text, "  bs       4k -> 8k");
	free(text);
}

/* fio jobs: the global options and each job's own. */
static struct record *fio_run(const char *kernel, const char *direct, const char *bs_b, const char *depth_a)
{
	struct record *r = record_new("fio", 0, NULL);
	record_set_inventory(r, json_pack("{s:{s:s}}", "os", "kernel", kernel));
	const char *names[] = { "a (group 0, entry 0)", "b (group 0, entry 1)", "c (group 0, entry 2)" };
	for (int i = 0; i < 3; i++) {
		struct bench *b = record_add_bench(r, names[i]);
		bench_set(b, "job_options", json_pack("{s:s,s:s}", "bs", i == 1 ? bs_b : "4k", "iodepth",
						      i == 0 ? depth_a : "1"));
		bench_set(b, "global_options", json_pack("{s:s}", "direct", direct));
		bench_set(b, "engine", json_string("psync"));
	}
	return r;
}

static const char *what(const json_t *c, size_t i)
{
	return json_string_value(json_object_get(json_array_get(c, i), "what"));
}

/* A change every job made alike is one entry, unnamed; one job's change is named after the job
 * (as the user wrote it); settings come before the machine's facts. */
TEST(changes_one_entry_per_fact_settings_first)
{
	struct record *a = fio_run("6.1.0", "1", "4k", "1"), *b = fio_run("6.5.0", "0", "8k", "4");
	json_t *c = record_changes(a, b);
	CHECK_EQ_U64(json_array_size(c), 4);
	CHECK_EQ_STR(what(c, 0), "[global] direct");
	CHECK_EQ_STR(what(c, 1), "b: bs");
	CHECK_EQ_STR(what(c, 2), "a: iodepth");
	CHECK_EQ_STR(what(c, 3), "kernel");
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(c, 0), "key")), "settings.global_options.direct");
	json_decref(c);
	record_free(a);
	record_free(b);
}

/* Two jobs changed alike and one not: the change is not every job's, so each is named. */
TEST(changes_name_the_jobs_when_not_all_changed)
{
	struct record *a = fio_run("6.1.0", "1", "4k", "1"), *b = fio_run("6.1.0", "1", "4k", "1");
	json_object_set_new(json_object_get(b->benches[0]->settings, "job_options"), "bs", json_string("8k"));
	json_object_set_new(json_object_get(b->benches[1]->settings, "job_options"), "bs", json_string("8k"));
	json_t *c = record_changes(a, b);
	CHECK_EQ_U64(json_array_size(c), 2);
	CHECK_EQ_STR(what(c, 0), "a: bs");
	CHECK_EQ_STR(what(c, 1), "b: bs");
	json_decref(c);
	/* the third too: one entry */
	json_object_set_new(json_object_get(b->benches[2]->settings, "job_options"), "bs", json_string("8k"));
	c = record_changes(a, b);
	CHECK_EQ_U64(json_array_size(c), 1);
	CHECK_EQ_STR(what(c, 0), "bs");
	json_decref(c);
	record_free(a);
	record_free(b);
}

/* The path on another device: one "storage" fact, not the fields of the stack. */
TEST(changes_another_device_is_one_fact)
{
	json_t *a = json_pack("{s:{s:s,s:s,s:I,s:s,s:[s],s:{s:s,s:s,s:I}}}", "path", "fstype", "ext4", "device", "sda1",
			      "size", (json_int_t)480102932480LL, "transport", "sata", "physical", "sda", "stack", "name",
			      "sda1", "type", "part", "size", (json_int_t)480102932480LL);
	json_t *b = json_pack("{s:{s:s,s:s,s:I,s:s,s:[s,s],s:{s:s,s:s,s:s,s:I}}}", "path", "fstype", "xfs", "device",
			      "md0", "size", (json_int_t)7681511964672LL, "transport", "nvme", "physical", "nvme0n1",
			      "nvme1n1", "stack", "name", "md0", "type", "md", "level", "raid0", "size",
			      (json_int_t)7681511964672LL);
	struct record *ra = record_new("time", 0, NULL), *rb = record_new("time", 0, NULL);
	record_set_inventory(ra, a);
	record_set_inventory(rb, b);
	json_t *c = record_changes(ra, rb);
	CHECK_EQ_U64(json_array_size(c), 2);
	CHECK_EQ_STR(what(c, 0), "file system");
	CHECK_EQ_STR(what(c, 1), "storage");
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(c, 1), "a")), "sda1: SATA 447 GiB");
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(c, 1), "b")), "md0: 2x NVMe RAID0 7 TiB");
	json_decref(c);
	record_free(ra);
	record_free(rb);
}

/* A sweep's parameter and the setting it made are one fact, as the user spelled it. */
TEST(changes_a_sweeps_parameter_is_its_setting)
{
	struct record *a = record_new("disk", 0, NULL), *b = record_new("disk", 0, NULL);
	struct record *r[2] = { a, b };
	for (int i = 0; i < 2; i++) {
		struct bench *x = record_add_bench(r[i], "randread Q1T1");
		bench_set(x, "bs", json_integer(i ? 65536 : 4096));
		bench_set(x, "parameters", json_pack("{s:s}", "bs", i ? "64k" : "4k"));
	}
	json_t *c = record_changes(a, b);
	CHECK_EQ_U64(json_array_size(c), 1);
	CHECK_EQ_STR(what(c, 0), "bs");
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(c, 0), "b")), "64k");
	json_decref(c);
	record_free(a);
	record_free(b);
}

/* The CPUs a run was allowed (taskset, a cpuset) are a fact of the run: one line, after the
 * settings and before the machine; a record without them (older, imported) says nothing. */
TEST(changes_the_cpus_a_run_was_allowed)
{
	struct record *a = run_with_targets("/srv/d", "4k"), *b = run_with_targets("/srv/d", "4k");
	CHECK(record_cpus_allowed(a) >= 1); /* record_new records them */
	json_object_set_new(a->extra, "cpus_allowed", json_pack("{s:s,s:i}", "list", "0-1", "count", 2));
	json_object_set_new(b->extra, "cpus_allowed", json_pack("{s:s,s:i}", "list", "0", "count", 1));
	json_object_set_new(json_object_get(b->inventory, "os"), "kernel", json_string("6.5.0"));
	json_t *c = record_changes(a, b);
	char *text = changes_text(c);
	CHECK_EQ_U64(json_array_size(c), 2);
	CHECK_EQ_STR(what(c, 0), "CPUs allowed");
	CHECK_EQ_STR(what(c, 1), "kernel");
	CHECK_CONTAINS(text, "  CPUs allowed  0-1 -> 0\n");
	CHECK_EQ_INT(record_cpus_allowed(b), 1);
	free(text);
	json_decref(c);
	json_object_del(b->extra, "cpus_allowed");
	c = record_changes(a, b);
	CHECK_EQ_U64(json_array_size(c), 1);
	CHECK_EQ_INT(record_cpus_allowed(b), 0);
	json_decref(c);
	record_free(a);
	record_free(b);
}

static json_t *diff_of(const char *a, const char *b)
{
	json_t *ja = json_loads(a, 0, NULL), *jb = json_loads(b, 0, NULL);
	json_t *d = inventory_diff(ja, jb);
	json_decref(ja);
	json_decref(jb);
	return d;
}

static const char *key_at(const json_t *c, size_t i)
{
	return json_string_value(json_object_get(json_array_get(c, i), "key"));
}

/* {"a.b": 1} against {"a": {"b": 1}}: a member named "a.b" is not b under a, so the fact moved
 * (it flattened to "a.b" on both sides, and nothing changed). */
TEST(inventory_diff_tells_a_dotted_name_from_nesting)
{
	json_t *d = diff_of("{\"a.b\": 1}", "{\"a\": {\"b\": 1}}");
	CHECK_EQ_U64(json_array_size(d), 2);
	CHECK_EQ_STR(key_at(d, 0), "\"a.b\"");
	CHECK_EQ_STR(key_at(d, 1), "a.b");
	json_decref(d);
	/* the same fact with a dot in its name: no change; its value changed: that one */
	d = diff_of("{\"disks\": {\"sda.1\": {\"model\": \"X\"}}}", "{\"disks\": {\"sda.1\": {\"model\": \"Y\"}}}");
	CHECK_EQ_U64(json_array_size(d), 1);
	CHECK_EQ_STR(key_at(d, 0), "disks.\"sda.1\".model");
	json_decref(d);
	json_t *facts = json_pack("{s:{s:i},s:{s:i}}", "a\"q", "x", 1, "a", "\"q.x\"", 2);
	json_t *flat = inventory_flatten(facts);
	CHECK(json_integer_value(json_object_get(flat, "\"a\\\"q\".x")) == 1);
	CHECK(json_integer_value(json_object_get(flat, "a.\"\\\"q.x\\\"\"")) == 2);
	json_decref(flat);
	json_decref(facts);
}

/* An item named "1" and a list's second item (no name) were both [1]: the later one's facts
 * overwrote the first's, so a change of the named item was lost. */
TEST(inventory_diff_tells_an_item_named_1_from_the_second_item)
{
	json_t *d = diff_of("{\"x\": [{\"name\": \"1\", \"v\": 1}, {\"v\": 2}]}",
			    "{\"x\": [{\"name\": \"1\", \"v\": 3}, {\"v\": 2}]}");
	CHECK_EQ_U64(json_array_size(d), 1);
	CHECK_EQ_STR(key_at(d, 0), "x[\"1\"].v");
	CHECK(json_integer_value(json_object_get(json_array_get(d, 0), "a")) == 1);
	json_decref(d);
}

/* The rules that leave facts out read the key's parts: a stack's disk facts and the disk tree
 * are still left out, a name that only holds ".children" or ".model" in quotes is not; a disk
 * only one side has is one line however its name is quoted, named by its name. */
TEST(inventory_diff_rules_read_quoted_names)
{
	json_t *d = diff_of("{\"path\": {\"stack\": [{\"model\": \"A\", \"z.model\": 1}], \"x\": {\"children\": 1, "
			    "\"y.children\": 1}}}",
			    "{\"path\": {\"stack\": [{\"model\": \"B\", \"z.model\": 2}], \"x\": {\"children\": 2, "
			    "\"y.children\": 2}}}");
	CHECK_EQ_U64(json_array_size(d), 2);
	CHECK_EQ_STR(key_at(d, 0), "path.stack[0].\"z.model\"");
	CHECK_EQ_STR(key_at(d, 1), "path.x.\"y.children\"");
	json_decref(d);
	d = diff_of("{\"storage\": {\"devices\": [{\"name\": \"sda\", \"model\": \"M\"}]}}",
		    "{\"storage\": {\"devices\": [{\"name\": \"sda\", \"model\": \"M\"}, {\"name\": \"a]b.c\", "
		    "\"model\": \"N\", \"size\": 1}]}}");
	CHECK_EQ_U64(json_array_size(d), 1);
	CHECK_EQ_STR(key_at(d, 0), "storage.devices[\"a]b.c\"]");
	CHECK(json_is_null(json_object_get(json_array_get(d, 0), "a")));
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(d, 0), "b")), "N");
	json_decref(d);
	char label[128];
	inventory_diff_label("storage.devices[\"a]b.c\"].firmware", label, sizeof label);
	CHECK_EQ_STR(label, "a]b.c firmware");
	inventory_diff_label("storage.devices[nvme0n1].firmware", label, sizeof label);
	CHECK_EQ_STR(label, "nvme0n1 firmware");
}

/* A setting named "job_options.bs" is not fio's job option bs: one run has one, the other the
 * other, and that is a change (both flattened to "job_options.bs" and nothing differed). */
TEST(changes_tell_a_dotted_setting_from_a_job_option)
{
	struct record *a = record_new("fio", 0, NULL), *b = record_new("fio", 0, NULL);
	bench_set(record_add_bench(a, "j"), "job_options.bs", json_string("4k"));
	bench_set(record_add_bench(b, "j"), "job_options", json_pack("{s:s}", "bs", "4k"));
	json_t *c = record_changes(a, b);
	CHECK_EQ_U64(json_array_size(c), 2);
	CHECK_EQ_STR(key_at(c, 0), "settings.\"job_options.bs\"");
	CHECK_EQ_STR(key_at(c, 1), "settings.job_options.bs");
	json_decref(c);
	record_free(a);
	record_free(b);
}

/* Found by fuzz_compare_keys: a run holding two benches of one name (an imported record)
 * against itself changed a setting, as both were paired with the first of that name; now the
 * k-th of a name is paired with the k-th. */
TEST(changes_pair_benches_of_one_name_in_order)
{
	struct record *a = record_new("fio", 0, NULL);
	bench_set(record_add_bench(a, "b"), "global_options", json_pack("{s:s}", "direct", "1"));
	bench_set(record_add_bench(a, "b"), "engine", json_string("psync"));
	json_t *c = record_changes(a, a);
	CHECK_EQ_U64(json_array_size(c), 0);
	json_decref(c);
	record_free(a);
}

/* Two benches of one name (a test per target of disk --turns, an imported record): each one's
 * change had the key settings[x].target and the line "x: target", so the two read as one fact
 * changed twice; now each is keyed by its place and named as the K-th of that name. */
TEST(changes_key_two_benches_of_one_name_apart)
{
	struct record *r[2];
	for (int s = 0; s < 2; s++) {
		r[s] = record_new("disk", 0, NULL);
		for (int t = 0; t < 2; t++) {
			struct bench *b = record_add_bench(r[s], "x");
			bench_set(b, "target", json_string(t ? (s ? "/d" : "/c") : (s ? "/b" : "/a")));
			bench_set(b, "bs", json_integer(s && t ? 8192 : 4096));
		}
	}
	json_t *c = record_changes(r[0], r[1]);
	CHECK_EQ_U64(json_array_size(c), 3);
	CHECK_EQ_STR(key_at(c, 0), "settings[0].target");
	CHECK_EQ_STR(what(c, 0), "x #1: target");
	CHECK_EQ_STR(key_at(c, 1), "settings[1].target");
	CHECK_EQ_STR(what(c, 1), "x #2: target");
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(c, 1), "b")), "/d");
	CHECK_EQ_STR(key_at(c, 2), "settings[1].bs");
	CHECK_EQ_STR(what(c, 2), "x #2: bs");
	json_decref(c);
	record_free(r[0]);
	record_free(r[1]);

	/* fio's two jobs named x: two benches of their own names, one name on the line */
	for (int s = 0; s < 2; s++) {
		r[s] = record_new("fio", 0, NULL);
		for (int j = 0; j < 2; j++) {
			char name[64];
			snprintf(name, sizeof name, "x (group 0, entry %d)", j);
			bench_set(record_add_bench(r[s], name), "job_options",
				  json_pack("{s:s}", "bs", s && j ? "8k" : "4k"));
		}
	}
	c = record_changes(r[0], r[1]);
	CHECK_EQ_U64(json_array_size(c), 1);
	CHECK_EQ_STR(key_at(c, 0), "settings[x (group 0, entry 1)].job_options.bs");
	CHECK_EQ_STR(what(c, 0), "x #2: bs");
	json_decref(c);
	record_free(r[0]);
	record_free(r[1]);
}

/* Two disks of one name in a list: the second's facts overwrote the first's under [sda], so the
 * first's model change was lost; each is now keyed by its place. */
TEST(inventory_diff_keys_two_items_of_one_name_by_place)
{
	json_t *d = diff_of("{\"disks\": [{\"name\": \"sda\", \"model\": \"A\"}, {\"name\": \"sda\", \"model\": \"B\"}]}",
			    "{\"disks\": [{\"name\": \"sda\", \"model\": \"C\"}, {\"name\": \"sda\", \"model\": \"B\"}]}");
	CHECK_EQ_U64(json_array_size(d), 1);
	CHECK_EQ_STR(key_at(d, 0), "disks[0].model");
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(d, 0), "a")), "A");
	json_decref(d);
}

/* An inventory of anyone's (an imported record) may have top-level members named settings,
 * nodemark or cpus_allowed: their facts had the keys of the run's own (settings.bs,
 * nodemark.version, cpus_allowed), two entries under one key.  They are keyed under
 * "inventory."; the run's keep theirs, and so does every other machine fact. */
TEST(changes_key_machine_facts_apart_from_the_runs)
{
	struct record *r[2];
	for (int s = 0; s < 2; s++) {
		r[s] = record_new("disk", 0, NULL);
		free(r[s]->version);
		r[s]->version = strdup(s ? "0.2" : "0.1");
		json_object_set_new(r[s]->extra, "cpus_allowed", json_pack("{s:s,s:i}", "list", s ? "0" : "0-1", "count", 2 - s));
		bench_set(record_add_bench(r[s], "x"), "bs", json_integer(s ? 8192 : 4096));
		record_set_inventory(r[s], json_pack("{s:{s:i},s:{s:s},s:s,s:{s:i},s:{s:s}}", "settings", "bs", s ? 2 : 1,
						     "nodemark", "version", s ? "b" : "a", "cpus_allowed", s ? "3" : "2-3",
						     "inventory", "x", s, "os", "kernel", s ? "6.5" : "6.1"));
	}
	json_t *c = record_changes(r[0], r[1]);
	static const char *const want[] = { "settings.bs", "nodemark.version", "cpus_allowed",
					    "inventory.settings.bs", "inventory.nodemark.version",
					    "inventory.cpus_allowed", "inventory.inventory.x", "os.kernel" };
	CHECK_EQ_U64(json_array_size(c), 8);
	json_t *keys = json_object();
	for (size_t i = 0; i < json_array_size(c); i++)
		json_object_set_new(keys, key_at(c, i), json_integer((json_int_t)i));
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECK(json_object_get(keys, want[i]) != NULL);
	/* each key's values are its own fact's */
	json_t *inv_bs = json_array_get(c, (size_t)json_integer_value(json_object_get(keys, "inventory.settings.bs")));
	json_t *run_bs = json_array_get(c, (size_t)json_integer_value(json_object_get(keys, "settings.bs")));
	CHECK(json_integer_value(json_object_get(inv_bs, "b")) == 2);
	CHECK(json_integer_value(json_object_get(run_bs, "b")) == 8192);
	json_t *inv_v = json_array_get(c, (size_t)json_integer_value(json_object_get(keys, "inventory.nodemark.version")));
	CHECK_EQ_STR(json_string_value(json_object_get(inv_v, "b")), "b");
	CHECK_EQ_STR(json_string_value(json_object_get(inv_v, "what")), "inventory.nodemark.version");
	json_decref(keys);
	json_decref(c);
	record_free(r[0]);
	record_free(r[1]);
}

/* A name with a dot is one name, both ways: a job named "a.b" with its option bs, and a job "a"
 * with an option named "b.bs", are two keys that read back to their own parts. */
TEST(changes_read_dotted_job_and_option_names_back)
{
	struct record *r[2];
	for (int s = 0; s < 2; s++) {
		r[s] = record_new("fio", 0, NULL);
		bench_set(record_add_bench(r[s], "a.b"), "job_options", json_pack("{s:s,s:s}", "bs", s ? "8k" : "4k", "rw", "read"));
		bench_set(record_add_bench(r[s], "a"), "job_options", json_pack("{s:s,s:s}", "b.bs", s ? "2" : "1", "rw", "read"));
		bench_set(record_add_bench(r[s], "c"), "job_options", json_pack("{s:s,s:s}", "bs", "4k", "b.bs", "1"));
	}
	json_t *c = record_changes(r[0], r[1]);
	CHECK_EQ_U64(json_array_size(c), 2);
	CHECK_EQ_STR(key_at(c, 0), "settings[a.b].job_options.bs");
	CHECK_EQ_STR(key_at(c, 1), "settings[a].job_options.\"b.bs\"");
	const char *parts[2][4] = { { "settings", "a.b", "job_options", "bs" }, { "settings", "a", "job_options", "b.bs" } };
	for (size_t i = 0; i < 2; i++) {
		struct keypath_iter it;
		keypath_iter_init(&it, key_at(c, i));
		for (size_t p = 0; p < 4; p++) {
			enum keypath_kind kind = keypath_next(&it);
			CHECK_EQ_INT(kind, p == 1 ? KEYPATH_ITEM : KEYPATH_MEMBER);
			CHECK_EQ_STR(it.name.buf, parts[i][p]);
		}
		CHECK_EQ_INT(keypath_next(&it), KEYPATH_END);
		keypath_iter_free(&it);
	}
	json_decref(c);
	record_free(r[0]);
	record_free(r[1]);
}

/* Found by fuzz_compare_keys' oracle: a setting or a machine fact that holds null (an imported
 * record) against none was a change from null to null ("x  (none) -> (none)"); null is none. */
TEST(changes_null_is_none)
{
	struct record *a = record_new("fio", 0, NULL), *b = record_new("fio", 0, NULL);
	bench_set(record_add_bench(a, "j"), "x", json_null());
	bench_set(record_add_bench(b, "j"), "job_options", json_pack("{s:n,s:s}", "y", "bs", "4k"));
	record_set_inventory(a, json_pack("{s:{s:s,s:n}}", "os", "kernel", "6.1", "x"));
	record_set_inventory(b, json_pack("{s:{s:s}}", "os", "kernel", "6.1"));
	json_t *c = record_changes(a, b);
	CHECK_EQ_U64(json_array_size(c), 1);
	CHECK_EQ_STR(key_at(c, 0), "settings.job_options.bs");
	json_decref(c);
	c = record_changes(b, a);
	CHECK_EQ_U64(json_array_size(c), 1);
	json_decref(c);
	record_free(a);
	record_free(b);
}
