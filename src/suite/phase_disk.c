/* The disk phase: the CrystalDiskMark set suited to the device under the directory (the NVMe
 * set on NVMe, the default set otherwise), sized to the mode and to the free space.
 *
 * It runs `nodemark disk` itself (this same binary) into a private results store in the
 * suite's work directory and takes its benches from there, so the tests, passes and figures
 * are exactly disk's, with nothing copied. */
#include "suite/phase.h"
#include "inventory/inventory.h"
#include "results/store.h"
#include "proc/spawn.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/units.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct disk_plan {
	const char *profile;
	uint64_t size;
	double runtime_s, interval_s;
	unsigned loops;
};

static void plan_for(enum suite_mode m, struct disk_plan *p)
{
	if (m == SUITE_QUICK)
		*p = (struct disk_plan){ NULL, 64ull << 20, 0.2, 0, 4 };
	else if (m == SUITE_FULL) /* CrystalDiskMark's own: 1 GiB, 5 passes of 5 s, 5 s apart */
		*p = (struct disk_plan){ NULL, 1ull << 30, 5, 5, 5 };
	else
		*p = (struct disk_plan){ NULL, 256ull << 20, 1.5, 0.5, 4 };
}

/* 4 tests, each read then written, each a preparing pass and the measured ones */
static double expected_s(const struct disk_plan *p)
{
	return 8 * ((p->loops + 1) * p->runtime_s + p->loops * p->interval_s) + 2;
}

struct ticker {
	struct suite_ctx *c;
	const char *what;
	uint64_t start;
	double expect;
	int stop;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* The child shows no progress of its own: this line moves with the clock meanwhile. */
static void *tick(void *arg)
{
	struct ticker *t = arg;
	pthread_mutex_lock(&t->lock);
	while (!t->stop) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 250 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&t->cond, &t->lock, &ts);
		if (!t->stop)
			suite_progress(t->c, (double)(clock_now_ns() - t->start) / 1e9 / t->expect, "%s", t->what);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static void copy_bench(struct suite_ctx *c, const struct bench *from)
{
	struct bench *b = suite_bench(c, from->name);
	const char *key;
	json_t *v;
	json_object_foreach(from->settings, key, v)
		bench_set(b, key, json_deep_copy(v));
	for (size_t i = 0; i < from->nmetrics; i++) {
		const struct metric *m = from->metrics[i];
		struct metric *to = bench_metric(b, m->name, m->unit, m->direction);
		for (size_t k = 0; k < m->nsamples; k++)
			metric_add(to, m->samples[k]);
	}
	for (size_t i = 0; i < from->nseries; i++) {
		const struct series *s = from->series[i];
		struct series *to = bench_series(b, s->name, s->x_unit, s->y_unit);
		for (size_t k = 0; k < s->n; k++)
			series_add(to, s->x[k], s->y[k]);
	}
	for (size_t i = 0; i < from->nhists; i++) {
		const struct histogram *h = from->hists[i];
		bench_add_hist(b, h->name, h->value_ns, h->count, h->n);
	}
}

/* The last line the child wrote on stderr: its error message. */
static void last_line(const char *path, char *out, size_t len)
{
	char buf[400];
	FILE *f = fopen(path, "re");
	out[0] = '\0';
	if (!f)
		return;
	while (fgets(buf, sizeof buf, f))
		if (buf[0] != '\n' && strlen(buf) < len)
			memcpy(out, buf, strlen(buf) + 1);
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
}

static int disk_run(struct suite_ctx *c, char *err, size_t errlen)
{
	struct disk_plan p;
	struct path_device pd;
	char a[32], b[32];

	plan_for(c->opts->mode, &p);
	int nvme = inventory_path_device(NULL, c->opts->dir, &pd) == 0 && strcmp(pd.transport, "nvme") == 0;
	p.profile = nvme ? "cdm-nvme" : "cdm";
	uint64_t room = suite_free_bytes(c->workdir);
	if (p.size > room / 2) {
		uint64_t want = p.size;
		while (p.size > room / 2 && p.size > (8u << 20))
			p.size /= 2;
		if (p.size > room / 2)
			return snprintf(err, errlen, "%s: too little free space for a test file (%s free)", c->opts->dir,
					units_bytes_iec(room, a, sizeof a)), 1;
		suite_note(c, "the test file shrank from %s to %s to fit the free space",
			   units_bytes_iec(want, a, sizeof a), units_bytes_iec(p.size, b, sizeof b));
	}
	if (pd.memory_backed)
		suite_note(c, "%s is memory-backed (%s): the figures are memory's, not a disk's", c->opts->dir,
			   pd.fstype);

	char db[4200], log[4200], size[32], runtime[32], loops[16], interval[32];
	snprintf(db, sizeof db, "%s/disk.db", c->workdir);
	snprintf(log, sizeof log, "%s/disk.log", c->workdir);
	snprintf(size, sizeof size, "%llu", (unsigned long long)p.size);
	snprintf(runtime, sizeof runtime, "%.0fms", p.runtime_s * 1000);
	snprintf(loops, sizeof loops, "%u", p.loops);
	snprintf(interval, sizeof interval, "%.0fms", p.interval_s * 1000);
	char *argv[] = { "/proc/self/exe", "disk", (char *)c->workdir, "--profile", (char *)p.profile,
			 "--size", size, "--runtime", runtime, "--loops", loops, "--interval", interval,
			 "--db", db, NULL };
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return snprintf(err, errlen, "cannot find the nodemark binary (/proc/self/exe)"), 1;
	exe[n] = '\0';
	argv[0] = exe;

	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return snprintf(err, errlen, "%s: cannot create", log), 1;
	json_object_set_new(json_object_get(c->rec->extra, "run"), "disk",
			    json_pack("{s:s, s:s, s:I, s:f, s:i, s:f}", "profile", p.profile, "transport", pd.transport,
				      "size", (json_int_t)p.size, "runtime_s", p.runtime_s, "loops", (int)p.loops,
				      "interval_s", p.interval_s));

	char what[64];
	snprintf(what, sizeof what, "CrystalDiskMark %s set, %s", nvme ? "NVMe" : "default",
		 units_bytes_iec(p.size, a, sizeof a));
	c->phase_expect_s = expected_s(&p);
	struct ticker t = { .c = c, .what = what, .start = clock_now_ns(), .expect = c->phase_expect_s };
	pthread_t th;
	pthread_mutex_init(&t.lock, NULL);
	pthread_cond_init(&t.cond, NULL);
	int ticking = pthread_create(&th, NULL, tick, &t) == 0;

	struct run_spec spec = { .argv = argv, .in = RUN_IO_NULL, .out = RUN_IO_NULL, .out_fd = fd };
	struct run_sample s;
	const char *old = getenv("NODEMARK_NO_PROGRESS");
	char *saved = old ? strdup(old) : NULL;
	setenv("NODEMARK_NO_PROGRESS", "1", 1);
	int rc = run_measure(&spec, &s, err, errlen);
	if (saved) {
		setenv("NODEMARK_NO_PROGRESS", saved, 1);
		free(saved);
	} else {
		unsetenv("NODEMARK_NO_PROGRESS");
	}
	close(fd);
	if (ticking) {
		pthread_mutex_lock(&t.lock);
		t.stop = 1;
		pthread_cond_signal(&t.cond);
		pthread_mutex_unlock(&t.lock);
		pthread_join(th, NULL);
	}
	pthread_mutex_destroy(&t.lock);
	pthread_cond_destroy(&t.cond);
	if (rc < 0)
		return 1;
	if (s.exit_code == 130 || cleanup_interrupted())
		return 130;
	if (s.exit_code != 0) {
		char line[512];
		last_line(log, line, sizeof line);
		/* "nodemark: disk: ..." is the child's; say it without the prefix */
		const char *msg = strncmp(line, "nodemark: disk: ", 16) == 0 ? line + 16 : line;
		return snprintf(err, errlen, "%s", *msg ? msg : "nodemark disk failed"), 1;
	}

	struct store *st = store_open(db, err, errlen);
	if (!st)
		return 1;
	struct record *r = store_load(st, "last", err, errlen);
	store_close(st);
	if (!r)
		return 1;
	for (size_t i = 0; i < r->nbenches; i++)
		copy_bench(c, r->benches[i]);
	record_free(r);
	return 0;
}

const struct suite_phase suite_phase_disk = {
	"disk", "the CrystalDiskMark set", { 10, 80, 420 }, disk_run,
};
