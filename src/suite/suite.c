/* The suite driver: runs the phases in order, each between two noise samples, with a progress
 * line (phase, how far, ETA) on a terminal and one plain line per phase otherwise. */
#include "suite/suite.h"
#include "suite/phase.h"
#include "inventory/inventory.h"
#include "proc/noise.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/progress.h"
#include "util/workdir.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

static int phase_inventory(struct suite_ctx *c, char *err, size_t errlen)
{
	struct inventory_opts io = { .path = c->opts->dir };
	record_set_inventory(c->rec, inventory_collect(&io));
	return 0;
}

static const struct suite_phase suite_phase_inventory = {
	"inventory", "the machine", { 1, 1, 1 }, phase_inventory,
};

static const struct suite_phase *const phases[] = {
	&suite_phase_inventory, &suite_phase_memory, &suite_phase_hash, &suite_phase_disk, &suite_phase_pieces,
};
#define NPHASES (sizeof phases / sizeof phases[0])

const char *const *suite_phase_names(void)
{
	static const char *names[NPHASES + 1];
	for (size_t i = 0; i < NPHASES; i++)
		names[i] = phases[i]->name;
	return names;
}

const struct suite_phase *suite_phase_find(const char *name)
{
	for (size_t i = 0; name && i < NPHASES; i++)
		if (strcmp(phases[i]->name, name) == 0)
			return phases[i];
	return NULL;
}

int suite_wants_bench(const struct suite_ctx *c, const char *name)
{
	if (!c->only_benches)
		return 1;
	for (size_t i = 0; i < c->nonly; i++)
		if (strcmp(c->only_benches[i], name) == 0)
			return 1;
	return 0;
}

const char *suite_mode_name(enum suite_mode m)
{
	return m == SUITE_QUICK ? "quick" : m == SUITE_FULL ? "full" : "default";
}

static int wanted(const struct suite_opts *o, const char *name)
{
	if (!o->only)
		return 1;
	size_t n = strlen(name);
	for (const char *p = o->only; (p = strstr(p, name)); p += n)
		if ((p == o->only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

static void fmt_eta(double s, char *buf, size_t len)
{
	if (s < 0)
		s = 0;
	unsigned t = (unsigned)(s + 0.5);
	snprintf(buf, len, "%u:%02u", t / 60, t % 60);
}

void suite_progress(struct suite_ctx *c, double fraction, const char *fmt, ...)
{
	char what[160], eta[16];
	va_list ap;
	if (!progress_enabled())
		return;
	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	double elapsed = (double)(clock_now_ns() - c->phase_start_ns) / 1e9;
	double left = c->phase_expect_s - elapsed;
	if (fraction > 0.05) /* once under way, the phase's own pace is the better guess */
		left = elapsed / fraction - elapsed;
	fmt_eta(left + c->later_s, eta, sizeof eta);
	progress_update("[%u/%u] %s: %s %3.0f%%  ETA %s", c->index, c->count, c->phase, what, fraction * 100, eta);
}

void suite_note(struct suite_ctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	progress_clear();
	nm_warn("%s: %s", c->phase, msg);
	json_t *run = json_object_get(c->rec->extra, "run");
	json_t *notes = json_object_get(run, "notes");
	if (!notes) {
		notes = json_array();
		json_object_set_new(run, "notes", notes);
	}
	char line[600];
	snprintf(line, sizeof line, "%s: %s", c->phase, msg);
	json_array_append_new(notes, json_string(line));
}

struct bench *suite_bench(struct suite_ctx *c, const char *name)
{
	struct bench *b = record_find_bench(c->rec, name);
	if (!b) {
		b = record_add_bench(c->rec, name);
		bench_set(b, "phase", json_string(c->phase));
		bench_set(b, "mode", json_string(suite_mode_name(c->opts->mode)));
	}
	return b;
}

/* A string naming a private directory names the user's instead (those are removed at exit). */
static void user_paths(const struct suite_ctx *c, json_t *j)
{
	size_t i;
	const char *k;
	json_t *v;
	if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			const char *s = json_string_value(v);
			if (s && strcmp(s, c->workdir) == 0)
				json_array_set_new(j, i, json_string(c->opts->dir));
			else if (s && c->workdir2 && strcmp(s, c->workdir2) == 0)
				json_array_set_new(j, i, json_string(c->opts->dir2));
			else
				user_paths(c, v);
		}
	} else if (json_is_object(j)) {
		json_object_foreach(j, k, v) {
			const char *s = json_string_value(v);
			if (s && strcmp(s, c->workdir) == 0)
				json_object_set_new(j, k, json_string(c->opts->dir));
			else if (s && c->workdir2 && strcmp(s, c->workdir2) == 0)
				json_object_set_new(j, k, json_string(c->opts->dir2));
			else
				user_paths(c, v);
		}
	}
}

/* paired_decide's advice names disk's options; run's passes and stores come from its mode. */
static void advise(json_t *paired)
{
	const char *why = json_string_value(json_object_get(paired, "why")), *at;
	static const char *const disk_words[] = { "more passes (--loops) or longer ones (--runtime) would narrow it",
						  "more passes: --loops" };
	for (size_t k = 0; why && k < 2; k++)
		if ((at = strstr(why, disk_words[k]))) {
			char fixed[512];
			snprintf(fixed, sizeof fixed, "%.*s%s", (int)(at - why), why,
				 k == 0 ? "--full (more and longer passes, larger stores) would narrow it"
					: "a run not cut short takes them)");
			json_object_set_new(paired, "why", json_string(fixed));
			return;
		}
}

void suite_turns_benches(struct suite_ctx *c, size_t from)
{
	for (size_t i = from; i < c->rec->nbenches; i++) {
		struct bench *b = c->rec->benches[i];
		bench_set(b, "phase", json_string(c->phase));
		bench_set(b, "mode", json_string(suite_mode_name(c->opts->mode)));
		user_paths(c, b->settings);
		advise(json_object_get(b->settings, "paired"));
	}
}

uint64_t suite_free_bytes(const char *dir)
{
	struct statvfs v;
	if (statvfs(dir, &v) < 0)
		return 0;
	uint64_t total = (uint64_t)v.f_blocks * v.f_frsize, avail = (uint64_t)v.f_bavail * v.f_frsize;
	uint64_t keep = space_reserve(total);
	return avail > keep ? avail - keep : 0;
}

/* The noise figures of a phase go into extra.noise.<phase>; a busy machine is worth a warning. */
static void record_noise(struct suite_ctx *c, struct noise_monitor *m)
{
	struct noise_figures f;
	if (noise_stop(m, &f) == 0)
		noise_record(c->rec, c->phase, &f);
}

/* For tests of the re-measure: NODEMARK_TEST_TRANSIENT=BENCH=FACTOR scales the bytes_per_sec
 * samples of BENCH in the run (not in a re-measure), as a slowdown that came and went would. */
static void test_transient(struct record *rec)
{
	const char *spec = getenv("NODEMARK_TEST_TRANSIENT"), *eq = spec ? strrchr(spec, '=') : NULL;
	if (!eq)
		return;
	char name[256];
	snprintf(name, sizeof name, "%.*s", (int)(eq - spec), spec);
	double factor = strtod(eq + 1, NULL);
	struct bench *b = record_find_bench(rec, name);
	struct metric *m = b ? bench_find_metric(b, "bytes_per_sec") : NULL;
	for (size_t i = 0; m && factor > 0 && i < m->nsamples; i++)
		m->samples[i] *= factor;
}

int suite_run(const struct suite_opts *o, struct record *rec)
{
	char workdir[4096], workdir2[4096], err[1024];
	struct suite_ctx c = { .opts = o, .rec = rec, .workdir = workdir };
	int rc = 0;

	if (workdir_create(o->dir, workdir, sizeof workdir, err, sizeof err) < 0) {
		nm_error("%s", err);
		return NM_EXIT_FAILED;
	}
	if (o->dir2) {
		if (workdir_create(o->dir2, workdir2, sizeof workdir2, err, sizeof err) < 0) {
			nm_error("%s", err);
			cleanup_now(workdir);
			return NM_EXIT_FAILED;
		}
		c.workdir2 = workdir2;
	}
	json_object_set_new(rec->extra, "run", json_pack("{s:s, s:s}", "dir", o->dir, "mode", suite_mode_name(o->mode)));
	if (o->dir2)
		json_object_set_new(json_object_get(rec->extra, "run"), "compare_with", json_string(o->dir2));
	for (size_t i = 0; i < NPHASES; i++)
		c.count += wanted(o, phases[i]->name);

	for (size_t i = 0; i < NPHASES; i++) {
		const struct suite_phase *p = phases[i];
		if (!wanted(o, p->name))
			continue;
		c.index++;
		c.phase = p->name;
		c.phase_expect_s = p->expect_s[o->mode];
		c.later_s = 0;
		for (size_t k = i + 1; k < NPHASES; k++)
			if (wanted(o, phases[k]->name))
				c.later_s += phases[k]->expect_s[o->mode];
		c.phase_start_ns = clock_now_ns();
		if (!progress_live())
			fprintf(stderr, "[%u/%u] %s: %s\n", c.index, c.count, p->name, p->title);
		suite_progress(&c, 0, "%s", p->title);

		struct noise_monitor m;
		noise_start(&m, noise_procroot(), 1000);
		err[0] = '\0';
		int st = p->run(&c, err, sizeof err);
		record_noise(&c, &m);
		progress_clear();
		if (st == 0 && cleanup_interrupted())
			st = NM_EXIT_INTERRUPTED;
		if (st == NM_EXIT_INTERRUPTED) {
			rc = st;
			break;
		}
		if (st) {
			nm_error("%s: %s", p->name, *err ? err : "failed");
			json_t *run = json_object_get(rec->extra, "run");
			json_t *failed = json_object_get(run, "failed");
			if (!failed) {
				failed = json_object();
				json_object_set_new(run, "failed", failed);
			}
			json_object_set_new(failed, p->name, json_string(err));
			rc = NM_EXIT_FAILED;
		}
	}
	test_transient(rec);
	if (c.workdir2)
		cleanup_now(workdir2);
	cleanup_now(workdir);
	return rc;
}
