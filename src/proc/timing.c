#include "proc/timing.h"
#include "proc/rapl.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/progress.h"
#include "util/units.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHELL "/bin/sh"
#define SHELL_CALIBRATION_MIN 10
#define SHELL_CALIBRATION_MAX 50

int time_plan_add(struct time_plan *p, const char *name, const char *text, char **argv, int shell,
		  json_t *parameters, char *err, size_t errlen)
{
	struct time_command c = { 0 };
	size_t argc = 0;
	while (argv[argc])
		argc++;
	c.argv = calloc(argc + 1, sizeof *c.argv);
	if (!c.argv)
		abort();
	for (size_t i = 0; i < argc; i++)
		c.argv[i] = xstrdup(argv[i]);
	if (!shell) {
		char *path = spawn_resolve(argv[0], err, errlen);
		if (!path) {
			for (size_t i = 0; i < argc; i++)
				free(c.argv[i]);
			free(c.argv);
			return -1;
		}
		free(c.argv[0]);
		c.argv[0] = path;
	}
	c.name = xstrdup(name ? name : text);
	c.text = xstrdup(text);
	c.shell = shell;
	c.parameters = parameters ? json_incref(parameters) : json_object();
	p->cmds = realloc(p->cmds, (p->ncmds + 1) * sizeof *p->cmds);
	if (!p->cmds)
		abort();
	p->cmds[p->ncmds++] = c;
	return 0;
}

void time_plan_free(struct time_plan *p)
{
	for (size_t i = 0; i < p->ncmds; i++) {
		struct time_command *c = &p->cmds[i];
		for (char **a = c->argv; *a; a++)
			free(*a);
		free(c->argv);
		free(c->name);
		free(c->text);
		free(c->template);
		free(c->setup);
		free(c->prepare);
		free(c->conclude);
		free(c->cleanup);
		free(c->samples);
		json_decref(c->parameters);
	}
	free(p->cmds);
	p->cmds = NULL;
	p->ncmds = 0;
}

uint64_t time_auto_runs(const struct time_plan *p, double first_s)
{
	/* rounded down, as hyperfine counts: 3 s / 0.55 s is 5 runs, not 6 */
	double want = first_s > 0 ? floor(p->auto_seconds / first_s) : (double)p->max_runs;
	uint64_t n = want > 1e9 ? 1000000000ull : (uint64_t)want;
	if (n < p->min_runs)
		n = p->min_runs;
	if (p->max_runs && n > p->max_runs)
		n = p->max_runs;
	return n ? n : 1;
}

struct runner {
	struct time_plan *p;
	struct record *r;
	struct rapl *rapl;
	char *err;
	size_t errlen;
};

static int interrupted(void) { return cleanup_interrupted() != 0; }

/* The shell's words, then "-c" and the command. */
static char **shell_argv(const struct time_plan *p, const char *cmd, char **buf, size_t max)
{
	static char sh[] = SHELL, dash_c[] = "-c";
	size_t n = 0;
	if (p->shell)
		for (; p->shell[n] && n + 3 < max; n++)
			buf[n] = p->shell[n];
	else
		buf[n++] = sh;
	buf[n++] = dash_c;
	buf[n++] = (char *)cmd;
	buf[n] = NULL;
	return buf;
}

/* A hook (--setup, --prepare, ...): run with the shell, must succeed. Adds its wall time,
 * shell included, to *wall_s when given. */
static int run_hook(struct runner *x, const char *cmd, const char *what, double *wall_s)
{
	char *argv[32];
	struct spawn_spec spec = { .argv = shell_argv(x->p, cmd, argv, 32), .in = SPAWN_IO_NULL, .out_fd = -1,
				 .out = x->p->show_output ? SPAWN_IO_INHERIT : SPAWN_IO_NULL };
	struct spawn_sample s;
	if (!cmd)
		return 0;
	if (spawn_measure(&spec, &s, x->err, x->errlen) < 0)
		return 1;
	if (interrupted())
		return 130;
	if (s.exit_code != 0) {
		nm_errf(x->err, x->errlen, "the %s command '%s' failed with exit code %d", what, cmd, s.exit_code);
		return 1;
	}
	if (wall_s)
		*wall_s += (double)s.wall_ns / 1e9;
	return 0;
}

static int failure_ignored(const struct time_plan *p, const struct spawn_sample *s)
{
	if (p->ignore_failure != 2)
		return p->ignore_failure;
	for (size_t i = 0; i < p->nignore_codes; i++)
		if (!s->timed_out && s->exit_code == p->ignore_codes[i])
			return 1;
	return 0;
}

static void push_sample(struct time_command *c, const struct spawn_sample *s)
{
	if (c->nsamples == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->samples = realloc(c->samples, c->cap * sizeof *c->samples);
		if (!c->samples)
			abort();
	}
	c->samples[c->nsamples++] = *s;
}

static uint64_t minus(uint64_t v, double cost_s)
{
	double d = (double)v - cost_s * 1e9;
	return d > 0 ? (uint64_t)d : 0;
}

/* One run of command c: prepare, the measured run, conclude. measured = 0 for a warmup. */
#define ITERATION_VAR "HYPERFINE_ITERATION"

/* Our environment with name=value in place of any name=...: the child's own, so that nothing
 * changes ours while the noise monitor's thread may read it. */
static char **env_with(const char *name, const char *value)
{
	size_t n = 0, k = 0, len = strlen(name);
	while (environ[n])
		n++;
	char **env = xcalloc(n + 2, sizeof *env);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], name, len) != 0 || environ[i][len] != '=')
			env[k++] = environ[i];
	size_t sz = len + strlen(value) + 2;
	env[k] = xmalloc(sz);
	snprintf(env[k], sz, "%s=%s", name, value);
	return env;
}

/* Frees what env_with made: its own entry (the last) and the array. */
static void env_free(char **env)
{
	if (!env)
		return;
	size_t k = 0;
	while (env[k + 1])
		k++;
	free(env[k]);
	free(env);
}

static int one_run(struct runner *x, struct time_command *c, int measured)
{
	struct time_plan *p = x->p;
	struct spawn_spec spec = { .argv = c->argv, .in = p->has_in_fd ? SPAWN_IO_FD : SPAWN_IO_NULL,
				 .in_fd = p->in_fd, .out_fd = p->has_out_fd ? p->out_fd : -1,
				 .out = p->show_output ? SPAWN_IO_INHERIT : SPAWN_IO_NULL,
				 .timeout_ns = p->timeout_ns };
	struct spawn_sample s;
	double hooks_s = 0; /* this run's --prepare and --conclude, shells included */
	int rc;

	if ((rc = run_hook(x, c->prepare, "--prepare", &hooks_s)) != 0)
		return rc;
	if (p->has_in_fd)
		lseek(p->in_fd, 0, SEEK_SET);
	char **env = NULL;
	if (p->iteration_env) {
		char it[32];
		if (measured)
			snprintf(it, sizeof it, "%zu", c->nsamples);
		else
			snprintf(it, sizeof it, "warmup-%llu", (unsigned long long)c->warmups_done++);
		spec.envp = env = env_with(ITERATION_VAR, it);
	}
	double e0 = x->rapl ? rapl_read_j(x->rapl) : 0;
	int mrc = spawn_measure(&spec, &s, x->err, x->errlen);
	env_free(env);
	if (mrc < 0)
		return 1;
	if (x->rapl)
		s.energy_j = rapl_delta_j(x->rapl, e0, rapl_read_j(x->rapl));
	if (interrupted())
		return 130;
	if ((s.exit_code != 0 || s.timed_out) && !failure_ignored(p, &s)) {
		char t[32];
		if (s.timed_out)
			nm_errf(x->err, x->errlen, "'%s' timed out after %s (use --ignore-failure to time it anyway)",
				c->text, units_duration(p->timeout_ns, t, sizeof t));
		else
			nm_errf(x->err, x->errlen, "'%s' failed with exit code %d (use --ignore-failure to time it anyway)",
				c->text, s.exit_code);
		return 1;
	}
	if ((rc = run_hook(x, c->conclude, "--conclude", &hooks_s)) != 0)
		return rc;
	if (!measured)
		return 0;
	/* The count aims at auto_seconds of the whole cycle, as hyperfine's: the run with its
	 * shell's start-up (before it is subtracted) and its hooks. */
	double cycle_s = (double)s.wall_ns / 1e9 + hooks_s;
	if (c->shell && p->shell_measured) {
		/* As hyperfine does: the shell's own start-up is not the command's time. */
		s.wall_ns = minus(s.wall_ns, p->shell_wall_s);
		s.user_ns = minus(s.user_ns, p->shell_user_s);
		s.sys_ns = minus(s.sys_ns, p->shell_sys_s);
	}
	push_sample(c, &s);
	if (c->target == 0)
		c->target = p->runs ? p->runs : time_auto_runs(p, cycle_s);
	if (progress_enabled()) {
		char t[32], el[32], eta[32];
		uint64_t sum = 0;
		for (size_t i = 0; i < c->nsamples; i++)
			sum += c->samples[i].wall_ns;
		uint64_t left = c->target > c->nsamples ? (c->target - c->nsamples) * (sum / c->nsamples) : 0;
		progress_update("%s: run %zu/%llu, last %s, elapsed %s, ETA %s", c->name, c->nsamples,
				(unsigned long long)c->target, units_duration(s.wall_ns, t, sizeof t),
				units_duration(clock_now_ns() - p->start_ns, el, sizeof el),
				units_duration(left, eta, sizeof eta));
	}
	return 0;
}

/* The mean cost of starting the shell with nothing to do, subtracted from shell commands:
 * at least SHELL_CALIBRATION_MIN runs, more (up to _MAX) while they take under half a second. */
static int measure_shell(struct runner *x)
{
	char *argv[32], empty[] = "";
	struct spawn_spec spec = { .argv = shell_argv(x->p, empty, argv, 32), .in = SPAWN_IO_NULL, .out = SPAWN_IO_NULL,
				 .out_fd = -1 };
	struct spawn_sample s;
	double w = 0, u = 0, sy = 0;
	int n = 0;
	for (int i = -2; i < SHELL_CALIBRATION_MAX; i++) {
		if (spawn_measure(&spec, &s, x->err, x->errlen) < 0)
			return 1;
		if (interrupted())
			return 130;
		if (i < 0)
			continue; /* warm the page cache first */
		w += (double)s.wall_ns / 1e9;
		u += (double)s.user_ns / 1e9;
		sy += (double)s.sys_ns / 1e9;
		if (++n >= SHELL_CALIBRATION_MIN && w > 0.5)
			break;
	}
	x->p->shell_wall_s = w / n;
	x->p->shell_user_s = u / n;
	x->p->shell_sys_s = sy / n;
	x->p->shell_measured = 1;
	return 0;
}

static int set_up(struct runner *x, struct time_command *c)
{
	int rc = run_hook(x, c->setup, "--setup", NULL);
	for (uint64_t i = 0; rc == 0 && i < x->p->warmup; i++)
		rc = one_run(x, c, 0);
	return rc;
}

#define ADD_METRIC(name, unit, dir, expr)                                     \
	do {                                                                  \
		struct metric *m_ = bench_metric(b, name, unit, dir);          \
		for (size_t i = 0; i < c->nsamples; i++) {                     \
			const struct spawn_sample *s = &c->samples[i];           \
			metric_add(m_, (expr));                                \
		}                                                              \
	} while (0)

static void finish(struct runner *x, struct time_command *c)
{
	struct time_plan *p = x->p;
	struct bench *b = record_add_bench(x->r, c->name);
	json_t *argv = json_array();
	for (char **a = c->argv; *a; a++)
		json_array_append_new(argv, json_string(*a));
	bench_set(b, "command", json_string(c->text));
	bench_set(b, "argv", argv);
	bench_set(b, "shell", json_boolean(c->shell));
	bench_set(b, "parameters", json_incref(c->parameters));
	if (c->template)
		bench_set(b, "template", json_string(c->template));
	bench_set(b, "warmup", json_integer((json_int_t)p->warmup));
	if (c->shell && p->shell_measured)
		bench_set(b, "shell_overhead_s", json_real(p->shell_wall_s));
	if (p->suite)
		bench_set(b, "suite", json_string(p->suite));
	/* the hooks are part of what was measured: a later run can be made the same way */
	const char *hooks[][2] = { { "setup", c->setup }, { "prepare", c->prepare }, { "conclude", c->conclude },
				   { "cleanup", c->cleanup } };
	for (size_t h = 0; h < 4; h++)
		if (hooks[h][1])
			bench_set(b, hooks[h][0], json_string(hooks[h][1]));
	ADD_METRIC("wall_s", "s", LOWER_IS_BETTER, (double)s->wall_ns / 1e9);
	ADD_METRIC("user_s", "s", LOWER_IS_BETTER, (double)s->user_ns / 1e9);
	ADD_METRIC("sys_s", "s", LOWER_IS_BETTER, (double)s->sys_ns / 1e9);
	ADD_METRIC("max_rss", "B", LOWER_IS_BETTER, (double)s->max_rss);
	ADD_METRIC("major_faults", "", LOWER_IS_BETTER, (double)s->majflt);
	ADD_METRIC("minor_faults", "", LOWER_IS_BETTER, (double)s->minflt);
	ADD_METRIC("vol_ctx_switches", "", NEUTRAL, (double)s->nvcsw);
	ADD_METRIC("invol_ctx_switches", "", NEUTRAL, (double)s->nivcsw);
	if (c->nsamples && c->samples[0].io_ok) {
		ADD_METRIC("read_bytes", "B", NEUTRAL, (double)s->read_bytes);
		ADD_METRIC("write_bytes", "B", NEUTRAL, (double)s->write_bytes);
		ADD_METRIC("read_chars", "B", NEUTRAL, (double)s->rchar);
		ADD_METRIC("write_chars", "B", NEUTRAL, (double)s->wchar);
	}
	ADD_METRIC("exit_code", "", NEUTRAL, (double)s->exit_code);
	if (p->energy_readable)
		ADD_METRIC("energy_j", "J", LOWER_IS_BETTER, s->energy_j);
	c->bench = b;
}

static int done_with(struct runner *x, size_t i, time_done_fn done, void *arg)
{
	struct time_command *c = &x->p->cmds[i];
	int rc = run_hook(x, c->cleanup, "--cleanup", NULL);
	if (rc)
		return rc;
	progress_clear();
	finish(x, c);
	if (done)
		done(x->p, i, arg);
	return 0;
}

static int run_plan(struct runner *x, time_start_fn start, time_done_fn done, void *arg)
{
	struct time_plan *p = x->p;
	int rc;

	for (size_t i = 0; i < p->ncmds; i++)
		if (p->cmds[i].shell && !p->shell_measured && (rc = measure_shell(x)) != 0)
			return rc;
	if (!p->interleave) {
		for (size_t i = 0; i < p->ncmds; i++) {
			struct time_command *c = &p->cmds[i];
			if (start)
				start(p, i, arg);
			if ((rc = set_up(x, c)) != 0)
				return rc;
			do {
				if ((rc = one_run(x, c, 1)) != 0)
					return rc;
			} while (c->nsamples < c->target);
			if ((rc = done_with(x, i, done, arg)) != 0)
				return rc;
		}
		return 0;
	}
	/* Interleaved: A B A B ..., so slow drift of the machine hits every command alike. */
	for (size_t i = 0; i < p->ncmds; i++)
		if ((rc = set_up(x, &p->cmds[i])) != 0)
			return rc;
	for (int more = 1; more;) {
		more = 0;
		for (size_t i = 0; i < p->ncmds; i++) {
			struct time_command *c = &p->cmds[i];
			if (c->target && c->nsamples >= c->target)
				continue;
			if ((rc = one_run(x, c, 1)) != 0)
				return rc;
			more |= c->nsamples < c->target;
		}
	}
	for (size_t i = 0; i < p->ncmds; i++)
		if ((rc = done_with(x, i, done, arg)) != 0)
			return rc;
	return 0;
}

void time_plan_add_total(const struct time_plan *p, struct record *r)
{
	size_t rounds = SIZE_MAX;
	for (size_t i = 0; i < p->ncmds; i++) {
		if (!p->cmds[i].bench)
			return;
		bench_set(p->cmds[i].bench, "step", json_string(p->cmds[i].name));
		if (p->cmds[i].nsamples < rounds)
			rounds = p->cmds[i].nsamples;
	}
	if (!p->ncmds || !rounds)
		return;
	struct bench *b = record_add_bench(r, "total");
	bench_set(b, "step", json_string("total"));
	bench_set(b, "steps", json_integer((json_int_t)p->ncmds));
	struct metric *wall = bench_metric(b, "wall_s", "s", LOWER_IS_BETTER);
	struct metric *user = bench_metric(b, "user_s", "s", LOWER_IS_BETTER);
	struct metric *sys = bench_metric(b, "sys_s", "s", LOWER_IS_BETTER);
	struct metric *rss = bench_metric(b, "max_rss", "B", LOWER_IS_BETTER);
	for (size_t k = 0; k < rounds; k++) {
		double w = 0, u = 0, s = 0, m = 0;
		for (size_t i = 0; i < p->ncmds; i++) {
			const struct spawn_sample *x = &p->cmds[i].samples[k];
			w += (double)x->wall_ns / 1e9;
			u += (double)x->user_ns / 1e9;
			s += (double)x->sys_ns / 1e9;
			if ((double)x->max_rss > m)
				m = (double)x->max_rss;
		}
		metric_add(wall, w);
		metric_add(user, u);
		metric_add(sys, s);
		metric_add(rss, m);
	}
}

int time_plan_run(struct time_plan *p, struct record *r, time_start_fn start, time_done_fn done, void *arg,
		  char *err, size_t errlen)
{
	struct runner x = { .p = p, .r = r, .err = err, .errlen = errlen };
	x.rapl = rapl_open(p->energy_why, sizeof p->energy_why);
	p->energy_readable = x.rapl != NULL;
	if (!x.rapl)
		json_object_set_new(r->extra, "energy", json_sprintf("not readable: %s", p->energy_why));
	if (p->suite)
		json_object_set_new(r->extra, "suite", json_string(p->suite));
	p->start_ns = clock_now_ns();
	int rc = run_plan(&x, start, done, arg);
	progress_clear();
	if (rc == 130) {
		/* Interrupted: the runs that finished still go into the record (and are reported),
		 * so the caller can save them; the --cleanup hooks do not run. */
		for (size_t i = 0; i < p->ncmds; i++) {
			struct time_command *c = &p->cmds[i];
			if (c->nsamples && !record_find_bench(r, c->name)) {
				finish(&x, c);
				if (done)
					done(p, i, arg);
			}
		}
		nm_errf(err, errlen, "interrupted");
	}
	if (rc == 0 && p->shell_measured)
		json_object_set_new(r->extra, "shell_overhead_s", json_real(p->shell_wall_s));
	rapl_close(x.rapl);
	return rc;
}
