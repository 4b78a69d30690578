#include "results/record_json.h"
#include "util/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- writing ------------------------------------------------------------------ */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *direction_name(int d)
{
	return d == HIGHER_IS_BETTER ? "higher" : d == LOWER_IS_BETTER ? "lower" : "neutral";
}

static json_t *bench_to_json(const struct bench *b)
{
	json_t *jb = json_object(), *metrics = json_array(), *series = json_array(), *hists = json_array();
	json_object_set_new(jb, "name", json_string(b->name));
	json_object_set(jb, "settings", b->settings);
	for (size_t i = 0; i < b->nmetrics; i++) {
		const struct metric *m = b->metrics[i];
		json_t *jm = json_object(), *samples = json_array();
		json_object_set_new(jm, "name", json_string(m->name));
		json_object_set_new(jm, "unit", json_string(m->unit ? m->unit : ""));
		json_object_set_new(jm, "direction", json_string(direction_name(m->direction)));
		for (size_t k = 0; k < m->nsamples; k++)
			json_array_append_new(samples, number(m->samples[k]));
		json_object_set_new(jm, "samples", samples);
		json_array_append_new(metrics, jm);
	}
	for (size_t i = 0; i < b->nseries; i++) {
		const struct series *s = b->series[i];
		json_t *js = json_object(), *x = json_array(), *y = json_array();
		json_object_set_new(js, "name", json_string(s->name));
		json_object_set_new(js, "x_unit", json_string(s->x_unit ? s->x_unit : ""));
		json_object_set_new(js, "y_unit", json_string(s->y_unit ? s->y_unit : ""));
		for (size_t k = 0; k < s->n; k++) {
			json_array_append_new(x, number(s->x[k]));
			json_array_append_new(y, number(s->y[k]));
		}
		json_object_set_new(js, "x", x);
		json_object_set_new(js, "y", y);
		json_array_append_new(series, js);
	}
	for (size_t i = 0; i < b->nhists; i++) {
		const struct histogram *h = b->hists[i];
		json_t *jh = json_object(), *v = json_array(), *c = json_array();
		json_object_set_new(jh, "name", json_string(h->name));
		for (size_t k = 0; k < h->n; k++) {
			json_array_append_new(v, json_integer((json_int_t)h->value_ns[k]));
			json_array_append_new(c, json_integer((json_int_t)h->count[k]));
		}
		json_object_set_new(jh, "value_ns", v);
		json_object_set_new(jh, "count", c);
		json_array_append_new(hists, jh);
	}
	json_object_set_new(jb, "metrics", metrics);
	json_object_set_new(jb, "series", series);
	json_object_set_new(jb, "hists", hists);
	return jb;
}

json_t *record_to_json(const struct record *r)
{
	json_t *j = json_object(), *tags = json_object(), *benches = json_array();
	char when[32] = "";
	time_t t = (time_t)(r->time_ms / 1000);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);

	json_object_set_new(j, "format", json_string(RECORD_FORMAT));
	json_object_set_new(j, "format_version", json_integer(RECORD_FORMAT_VERSION));
	json_object_set_new(j, "id", json_string(r->id));
	json_object_set_new(j, "time_ms", json_integer(r->time_ms));
	json_object_set_new(j, "time", json_string(when));
	json_object_set_new(j, "host", str_or_null(r->host));
	json_object_set_new(j, "version", str_or_null(r->version));
	json_object_set_new(j, "command", str_or_null(r->command));
	json_object_set_new(j, "cmdline", str_or_null(r->cmdline));
	json_object_set_new(j, "label", str_or_null(r->label));
	for (size_t i = 0; i < r->ntags; i++)
		json_object_set_new(tags, r->tag_keys[i], json_string(r->tag_values[i]));
	json_object_set_new(j, "tags", tags);
	json_object_set(j, "inventory", r->inventory ? r->inventory : json_null());
	json_object_set(j, "extra", r->extra);
	for (size_t i = 0; i < r->nbenches; i++)
		json_array_append_new(benches, bench_to_json(r->benches[i]));
	json_object_set_new(j, "benches", benches);
	return j;
}

/* --- reading ------------------------------------------------------------------ */

int record_id_valid(const char *id)
{
	size_t n = strlen(id);
	if (n == 0 || n > 23)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", id[i]))
			return 0;
	return 1;
}

/* Each reader returns 0 or -1 with a message that starts with the path to the field. */
struct reader {
	char *err;
	size_t errlen;
};

static int bad(struct reader *rd, const char *path, const char *what)
{
	return nm_errf(rd->err, rd->errlen, "%s: %s", path, what);
}

static int get_string(struct reader *rd, const json_t *obj, const char *key, const char *path,
		      int nullable, const char **out)
{
	char p[256];
	json_t *v = json_object_get(obj, key);
	snprintf(p, sizeof p, "%s%s%s", path, *path ? "." : "", key);
	*out = NULL;
	if ((!v || json_is_null(v)) && nullable)
		return 0;
	if (!v)
		return bad(rd, p, "missing");
	if (!json_is_string(v))
		return bad(rd, p, "expected a string");
	if (strlen(json_string_value(v)) != json_string_length(v))
		return bad(rd, p, "contains a NUL character");
	*out = json_string_value(v);
	return 0;
}

static int get_array(struct reader *rd, const json_t *obj, const char *key, const char *path, json_t **out)
{
	char p[256];
	snprintf(p, sizeof p, "%s.%s", path, key);
	*out = json_object_get(obj, key);
	if (!*out)
		return bad(rd, p, "missing");
	if (!json_is_array(*out))
		return bad(rd, p, "expected an array");
	return 0;
}

static int get_double(struct reader *rd, const json_t *v, const char *path, double *out)
{
	if (json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return bad(rd, path, "expected a number");
	*out = json_number_value(v);
	return 0;
}

static int read_numbers(struct reader *rd, const json_t *arr, const char *path, double **out, size_t *n)
{
	char p[256];
	*n = json_array_size(arr);
	*out = calloc(*n ? *n : 1, sizeof **out);
	if (!*out)
		abort();
	for (size_t i = 0; i < *n; i++) {
		snprintf(p, sizeof p, "%s[%zu]", path, i);
		if (get_double(rd, json_array_get(arr, i), p, &(*out)[i]) < 0) {
			free(*out);
			*out = NULL;
			return -1;
		}
	}
	return 0;
}

static int read_metric(struct reader *rd, struct bench *b, const json_t *jm, const char *path)
{
	const char *name, *unit, *dir;
	json_t *samples;
	char p[192];
	if (!json_is_object(jm))
		return bad(rd, path, "expected an object");
	if (get_string(rd, jm, "name", path, 0, &name) < 0 || get_string(rd, jm, "unit", path, 0, &unit) < 0 ||
	    get_string(rd, jm, "direction", path, 0, &dir) < 0 || get_array(rd, jm, "samples", path, &samples) < 0)
		return -1;
	int d;
	if (strcmp(dir, "higher") == 0)
		d = HIGHER_IS_BETTER;
	else if (strcmp(dir, "lower") == 0)
		d = LOWER_IS_BETTER;
	else if (strcmp(dir, "neutral") == 0)
		d = NEUTRAL;
	else
		return bad(rd, path, "direction: expected \"higher\", \"lower\" or \"neutral\"");
	if (bench_find_metric(b, name))
		return bad(rd, path, "a second metric with the same name");
	struct metric *m = bench_metric(b, name, unit, d);
	snprintf(p, sizeof p, "%s.samples", path);
	double *v;
	size_t n;
	if (read_numbers(rd, samples, p, &v, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		metric_add(m, v[i]);
	free(v);
	return 0;
}

static int read_series(struct reader *rd, struct bench *b, const json_t *js, const char *path)
{
	const char *name, *xu, *yu;
	json_t *jx, *jy;
	char p[192];
	if (!json_is_object(js))
		return bad(rd, path, "expected an object");
	if (get_string(rd, js, "name", path, 0, &name) < 0 || get_string(rd, js, "x_unit", path, 0, &xu) < 0 ||
	    get_string(rd, js, "y_unit", path, 0, &yu) < 0 || get_array(rd, js, "x", path, &jx) < 0 ||
	    get_array(rd, js, "y", path, &jy) < 0)
		return -1;
	if (json_array_size(jx) != json_array_size(jy))
		return bad(rd, path, "x and y differ in length");
	double *x, *y;
	size_t nx, ny;
	snprintf(p, sizeof p, "%s.x", path);
	if (read_numbers(rd, jx, p, &x, &nx) < 0)
		return -1;
	snprintf(p, sizeof p, "%s.y", path);
	if (read_numbers(rd, jy, p, &y, &ny) < 0) {
		free(x);
		return -1;
	}
	struct series *s = bench_series(b, name, xu, yu);
	if (s->n) {
		free(x);
		free(y);
		return bad(rd, path, "a second series with the same name");
	}
	for (size_t i = 0; i < nx; i++)
		series_add(s, x[i], y[i]);
	free(x);
	free(y);
	return 0;
}

static int read_u64(struct reader *rd, const json_t *v, const char *path, uint64_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return bad(rd, path, "expected a non-negative integer");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int read_hist(struct reader *rd, struct bench *b, const json_t *jh, const char *path)
{
	const char *name;
	json_t *jv, *jc;
	char p[224];
	if (!json_is_object(jh))
		return bad(rd, path, "expected an object");
	if (get_string(rd, jh, "name", path, 0, &name) < 0 || get_array(rd, jh, "value_ns", path, &jv) < 0 ||
	    get_array(rd, jh, "count", path, &jc) < 0)
		return -1;
	size_t n = json_array_size(jv);
	if (json_array_size(jc) != n)
		return bad(rd, path, "value_ns and count differ in length");
	uint64_t *v = calloc(n ? n : 1, sizeof *v), *c = calloc(n ? n : 1, sizeof *c);
	if (!v || !c)
		abort();
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		snprintf(p, sizeof p, "%s.value_ns[%zu]", path, i);
		rc = read_u64(rd, json_array_get(jv, i), p, &v[i]);
		snprintf(p, sizeof p, "%s.count[%zu]", path, i);
		if (rc == 0)
			rc = read_u64(rd, json_array_get(jc, i), p, &c[i]);
	}
	if (rc == 0)
		bench_add_hist(b, name, v, c, n);
	free(v);
	free(c);
	return rc;
}

static int read_bench(struct reader *rd, struct record *r, const json_t *jb, const char *path)
{
	const char *name;
	json_t *settings, *metrics, *series, *hists;
	char p[128];
	if (!json_is_object(jb))
		return bad(rd, path, "expected an object");
	if (get_string(rd, jb, "name", path, 0, &name) < 0)
		return -1;
	settings = json_object_get(jb, "settings");
	snprintf(p, sizeof p, "%s.settings", path);
	if (!settings)
		return bad(rd, p, "missing");
	if (!json_is_object(settings))
		return bad(rd, p, "expected an object");
	if (get_array(rd, jb, "metrics", path, &metrics) < 0 || get_array(rd, jb, "series", path, &series) < 0 ||
	    get_array(rd, jb, "hists", path, &hists) < 0)
		return -1;
	struct bench *b = record_add_bench(r, name);
	json_decref(b->settings);
	b->settings = json_deep_copy(settings);
	for (size_t i = 0; i < json_array_size(metrics); i++) {
		snprintf(p, sizeof p, "%s.metrics[%zu]", path, i);
		if (read_metric(rd, b, json_array_get(metrics, i), p) < 0)
			return -1;
	}
	for (size_t i = 0; i < json_array_size(series); i++) {
		snprintf(p, sizeof p, "%s.series[%zu]", path, i);
		if (read_series(rd, b, json_array_get(series, i), p) < 0)
			return -1;
	}
	for (size_t i = 0; i < json_array_size(hists); i++) {
		snprintf(p, sizeof p, "%s.hists[%zu]", path, i);
		if (read_hist(rd, b, json_array_get(hists, i), p) < 0)
			return -1;
	}
	return 0;
}

static char *dup_or_null(const char *s)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		abort();
	return d;
}

static int read_record(struct reader *rd, struct record *r, const json_t *j)
{
	const char *fmt, *id, *host, *version, *command, *cmdline, *label;
	json_t *v, *benches;

	if (!json_is_object(j))
		return bad(rd, "record", "expected a JSON object");
	if (get_string(rd, j, "format", "", 0, &fmt) < 0)
		return -1;
	if (strcmp(fmt, RECORD_FORMAT) != 0)
		return bad(rd, "format", "expected \"" RECORD_FORMAT "\"");
	v = json_object_get(j, "format_version");
	if (!json_is_integer(v))
		return bad(rd, "format_version", "expected an integer");
	if (json_integer_value(v) < 1 || json_integer_value(v) > RECORD_FORMAT_VERSION)
		return nm_errf(rd->err, rd->errlen, "format_version %lld: this nodemark reads version %d",
			       (long long)json_integer_value(v), RECORD_FORMAT_VERSION);
	if (get_string(rd, j, "id", "", 0, &id) < 0 || get_string(rd, j, "host", "", 0, &host) < 0 ||
	    get_string(rd, j, "version", "", 0, &version) < 0 ||
	    get_string(rd, j, "command", "", 0, &command) < 0 ||
	    get_string(rd, j, "cmdline", "", 0, &cmdline) < 0 || get_string(rd, j, "label", "", 1, &label) < 0)
		return -1;
	if (!record_id_valid(id))
		return bad(rd, "id", "expected 1 to 23 lower-case hex digits");
	snprintf(r->id, sizeof r->id, "%s", id);
	v = json_object_get(j, "time_ms");
	if (!json_is_integer(v))
		return bad(rd, "time_ms", "expected an integer (Unix milliseconds)");
	r->time_ms = json_integer_value(v);
	r->host = dup_or_null(host);
	r->version = dup_or_null(version);
	r->command = dup_or_null(command);
	r->cmdline = dup_or_null(cmdline);
	if (label && *label)
		record_set_label(r, label);

	v = json_object_get(j, "tags");
	if (v && !json_is_null(v)) {
		const char *k;
		json_t *tv;
		if (!json_is_object(v))
			return bad(rd, "tags", "expected an object of strings");
		json_object_foreach(v, k, tv) {
			if (!json_is_string(tv))
				return nm_errf(rd->err, rd->errlen, "tags.%s: expected a string", k);
			record_set_tag(r, k, json_string_value(tv));
		}
	}
	v = json_object_get(j, "inventory");
	if (v && !json_is_null(v)) {
		if (!json_is_object(v))
			return bad(rd, "inventory", "expected an object");
		record_set_inventory(r, json_deep_copy(v));
	}
	v = json_object_get(j, "extra");
	if (v && !json_is_null(v)) {
		if (!json_is_object(v))
			return bad(rd, "extra", "expected an object");
		json_decref(r->extra);
		r->extra = json_deep_copy(v);
	}
	if (get_array(rd, j, "benches", "record", &benches) < 0)
		return -1;
	for (size_t i = 0; i < json_array_size(benches); i++) {
		char p[64];
		snprintf(p, sizeof p, "benches[%zu]", i);
		if (read_bench(rd, r, json_array_get(benches, i), p) < 0)
			return -1;
	}
	return 0;
}

/* Messages quote keys and JSON text from the input: keep them one printable line. */
static void printable(char *err, size_t errlen)
{
	for (size_t i = 0; i < errlen && err[i]; i++)
		if ((unsigned char)err[i] < 0x20 || err[i] == 0x7f)
			err[i] = '?';
}

struct record *record_from_json(const json_t *j, char *err, size_t errlen)
{
	struct reader rd = { err, errlen };
	struct record *r = record_alloc();
	if (read_record(&rd, r, j) < 0) {
		printable(err, errlen);
		record_free(r);
		return NULL;
	}
	return r;
}

void records_free(struct record **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		record_free(v[i]);
	free(v);
}

static int push_record(struct record ***v, size_t *n, const json_t *j, char *err, size_t errlen)
{
	char msg[512];
	struct record *r = record_from_json(j, msg, sizeof msg);
	if (!r)
		return nm_errf(err, errlen, "record %zu: %s", *n + 1, msg);
	*v = realloc(*v, (*n + 1) * sizeof **v);
	if (!*v)
		abort();
	(*v)[(*n)++] = r;
	return 0;
}

long records_parse(const char *text, size_t len, struct record ***out, char *err, size_t errlen)
{
	struct record **v = NULL;
	size_t n = 0, off = 0;
	*out = NULL;
	for (;;) {
		while (off < len && strchr(" \t\r\n", text[off]))
			off++;
		if (off >= len)
			break;
		json_error_t je;
		/* One JSON value at a time, so `export` output (one record after another) reads back. */
		json_t *j = json_loadb(text + off, len - off, JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &je);
		if (!j) {
			records_free(v, n);
			nm_errf(err, errlen, "invalid JSON at line %d, column %d: %s", je.line, je.column, je.text);
			printable(err, errlen);
			return -1;
		}
		off += je.position;
		int rc = 0;
		if (json_is_array(j)) {
			for (size_t i = 0; i < json_array_size(j) && rc == 0; i++)
				rc = push_record(&v, &n, json_array_get(j, i), err, errlen);
		} else {
			rc = push_record(&v, &n, j, err, errlen);
		}
		json_decref(j);
		if (rc < 0) {
			records_free(v, n);
			return -1;
		}
	}
	*out = v;
	return (long)n;
}
