/* export/changes: what changed between two runs. */
#include "test.h"
#include "export/changes.h"

#include <jansson.h>
#include <stdlib.h>

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
	CHECK_CONTAINS(text, "RND4K Q1T1 read: targets");
	CHECK_CONTAINS(text, "RND4K Q1T1 read: bs");
	free(text);
}
