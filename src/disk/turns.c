#include "disk/turns.h"
#include "inventory/inventory.h"
#include "util/error.h"

#include <libgen.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void disk_target_facts_of(const char *target, struct disk_target_facts *f)
{
	struct stat st;
	memset(f, 0, sizeof *f);
	if (stat(target, &st) == 0 && S_ISBLK(st.st_mode)) {
		/* a device node sits on devtmpfs: the device is the node's own, and no file system */
		char real[PATH_MAX];
		if (realpath(target, real))
			snprintf(f->device, sizeof f->device, "%s", basename(real));
		return;
	}
	struct path_device pd;
	if (inventory_path_device(NULL, target, &pd) == 0) {
		snprintf(f->fs, sizeof f->fs, "%s", pd.fstype);
		snprintf(f->device, sizeof f->device, "%s", pd.device);
		snprintf(f->mount_options, sizeof f->mount_options, "%s", pd.mount_options);
	}
}

static int turns_alloc(struct disk_turns *t, unsigned n, unsigned ref, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	if (ref >= n)
		return nm_errf(err, errlen, "--reference: %u targets, no target %u", n, ref + 1);
	t->narms = n;
	t->ref = ref;
	t->plans = calloc(n, sizeof *t->plans);
	t->arms = calloc(n, sizeof *t->arms);
	t->facts = calloc(n, sizeof *t->facts);
	t->settings = calloc(n, sizeof *t->settings);
	if (!t->plans || !t->arms || !t->facts || !t->settings)
		return nm_errf(err, errlen, "out of memory");
	return 0;
}

/* Builds plans[a] (set by the caller) and the arms' tests. */
static int turns_build(struct disk_turns *t, char *err, size_t errlen)
{
	for (unsigned a = 0; a < t->narms; a++) {
		struct disk_plan *p = &t->plans[a];
		if (disk_plan_build(p, err, errlen) < 0)
			return -1;
		if (a && p->ntests != t->plans[0].ntests)
			return nm_errf(err, errlen, "the settings give different tests (%u and %u): each must run the same",
				       t->plans[0].ntests, p->ntests);
		t->arms[a] = (struct disk_arm){ .tests = p->tests, .ntargets = 1 };
		disk_target_facts_of(p->base.targets[0], &t->facts[a]);
	}
	t->ntests = t->plans[0].ntests;
	t->pairs = calloc((size_t)t->ntests * t->narms, sizeof *t->pairs);
	return t->pairs ? 0 : nm_errf(err, errlen, "out of memory");
}

int disk_turns_init(struct disk_turns *t, const struct disk_plan *req, unsigned ref, char *err, size_t errlen)
{
	unsigned n = req->base.ntargets;
	if (turns_alloc(t, n, ref, err, errlen) < 0)
		return -1;
	for (unsigned a = 0; a < n; a++) {
		struct disk_plan *p = &t->plans[a];
		*p = *req;
		p->base.targets[0] = req->base.targets[a];
		p->base.ntargets = 1;
	}
	return turns_build(t, err, errlen);
}

int disk_turns_init_plans(struct disk_turns *t, const struct disk_plan *plans, unsigned n, unsigned ref, char *err,
			  size_t errlen)
{
	if (turns_alloc(t, n, ref, err, errlen) < 0)
		return -1;
	for (unsigned a = 0; a < n; a++)
		t->plans[a] = plans[a];
	return turns_build(t, err, errlen);
}

const char *disk_turns_setting(const struct disk_turns *t, unsigned a, char *buf, size_t len)
{
	const char *k;
	json_t *v;
	size_t at = 0;
	buf[0] = 0;
	if (!t->settings || !t->settings[a])
		return buf;
	json_object_foreach(t->settings[a], k, v) {
		int w = snprintf(buf + at, len - at, "%s%s=%s", at ? " " : "", k, json_string_value(v));
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
	return buf;
}

void disk_turns_pair(struct disk_turns *t)
{
	for (unsigned i = 0; i < t->ntests; i++) {
		const struct disk_test *rt = &t->arms[t->ref].tests[i];
		for (unsigned a = 0; a < t->narms; a++) {
			const struct disk_test *at = &t->arms[a].tests[i];
			struct disk_pair *pr = &t->pairs[i * t->narms + a];
			unsigned n = rt->npasses < at->npasses ? rt->npasses : at->npasses;
			double *x = calloc(n ? n : 1, sizeof *x), *y = calloc(n ? n : 1, sizeof *y);
			if (x && y) {
				for (unsigned p = 0; p < n; p++) {
					x[p] = io_result_bytes_per_sec(&rt->total[p]);
					y[p] = io_result_bytes_per_sec(&at->total[p]);
				}
				paired_ratio(x, y, n, 0.95, &pr->r);
				paired_decide(&pr->r, 0, &pr->v);
			}
			free(x);
			free(y);
		}
	}
}

const char *disk_turns_target(const struct disk_turns *t, unsigned a)
{
	return t->plans[a].base.targets[0];
}

static const char *call_word(enum paired_call c)
{
	return c == PAIRED_CALLED ? "called" : c == PAIRED_NO_CHANGE ? "no change" : "can't tell";
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *disk_paired_json(const char *target, const char *reference, const struct paired_result *r,
			 const struct paired_verdict *v)
{
	json_t *o = json_object();
	json_object_set_new(o, "target", json_string(target));
	json_object_set_new(o, "reference", json_string(reference));
	json_object_set_new(o, "n", json_integer((json_int_t)r->n));
	json_object_set_new(o, "ratio", num_or_null(r->ratio));
	json_object_set_new(o, "lo", r->lo > 0 ? num_or_null(r->lo) : json_null());
	json_object_set_new(o, "hi", num_or_null(r->hi));
	json_object_set_new(o, "confidence", json_real(r->confidence));
	json_object_set_new(o, "median_ratio", num_or_null(r->median_ratio));
	json_object_set_new(o, "p", json_real(r->p));
	json_object_set_new(o, "verdict", json_string(call_word(v->call)));
	json_object_set_new(o, "text", json_string(v->text));
	json_object_set_new(o, "why", json_string(v->why));
	return o;
}

json_t *disk_pair_json(const struct disk_turns *t, unsigned k, const struct disk_pair *pr)
{
	json_t *o = disk_paired_json(disk_turns_target(t, k), disk_turns_target(t, t->ref), &pr->r, &pr->v);
	if (t->settings[k]) {
		json_object_set(o, "parameters", t->settings[k]);
		json_object_set(o, "reference_parameters", t->settings[t->ref] ? t->settings[t->ref] : json_null());
	}
	return o;
}

void disk_turns_free(struct disk_turns *t)
{
	if (t->plans)
		for (unsigned a = 0; a < t->narms; a++)
			disk_plan_free(&t->plans[a]);
	free(t->plans);
	free(t->arms);
	free(t->facts);
	free(t->pairs);
	if (t->settings)
		for (unsigned a = 0; a < t->narms; a++)
			json_decref(t->settings[a]);
	free(t->settings);
	memset(t, 0, sizeof *t);
}
