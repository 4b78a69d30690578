/* The calls as text, Markdown, HTML and JSON (export/calls_fmt.h). */
#include "export/calls_fmt.h"
#include "export/compare_fmt.h"
#include "util/color.h"
#include "util/textwidth.h"

#include <math.h>
#include <string.h>

/* Rows i.. of the same block (metric, column) not compared for the same reason in the same
 * phase as row i; 1 when the row stands alone. */
static size_t same_reason(const struct call_list *cl, size_t i)
{
	const struct call *c = &cl->v[i];
	size_t n = 0;
	if (c->v.kind != VERDICT_NOT_COMPARED || !c->phase)
		return 1;
	for (size_t k = i; k < cl->n; k++) {
		const struct call *o = &cl->v[k];
		if (strcmp(o->metric, c->metric) != 0 || o->col != c->col)
			break;
		n += o->v.kind == VERDICT_NOT_COMPARED && o->phase && strcmp(o->phase, c->phase) == 0 &&
		     strcmp(o->v.why, c->v.why) == 0;
	}
	return n;
}

/* 1 when row i was already shown on the grouped line of an earlier row. */
static int shown_in_group(const struct call_list *cl, size_t first, size_t i)
{
	const struct call *c = &cl->v[i];
	for (size_t k = first; k < i; k++)
		if (same_reason(cl, k) > 1 && strcmp(cl->v[k].phase, c->phase ? c->phase : "") == 0 &&
		    strcmp(cl->v[k].v.why, c->v.why) == 0)
			return 1;
	return 0;
}

static void write_block_header(FILE *f, const struct call_list *cl, size_t i)
{
	const struct call *c = &cl->v[i];
	size_t called = 0, same = 0, nc = 0;
	for (size_t k = i; k < cl->n && strcmp(cl->v[k].metric, c->metric) == 0 && cl->v[k].col == c->col; k++) {
		if (verdict_is_call(cl->v[k].v.kind))
			called++;
		else if (cl->v[k].v.kind == VERDICT_NOT_COMPARED)
			nc++;
		else
			same++;
	}
	size_t confirmed = 0, withdrawn = 0;
	for (size_t k = i; k < cl->n && strcmp(cl->v[k].metric, c->metric) == 0 && cl->v[k].col == c->col; k++) {
		confirmed += cl->v[k].v.recheck == VERDICT_CONFIRMED;
		withdrawn += cl->v[k].v.recheck == VERDICT_WITHDRAWN;
	}
	/* the metric as the tables head it ("bandwidth (GB/s)") */
	char head[200];
	ct_title_shown(cl->res, cl->res->tables[c->table], head, sizeof head);
	fprintf(f, "%s, %s vs %s: %zu called, %zu unchanged, %zu not compared", head, cl->res->cols[c->col],
		cl->res->cols[0], called, same, nc);
	if (confirmed || withdrawn)
		fprintf(f, "; re-measured: %zu confirmed, %zu withdrawn", confirmed, withdrawn);
	fputc('\n', f);
}

void calls_write_text(FILE *f, const struct call_list *cl, const char *metric)
{
	size_t w = 0, shown = 0;
	for (size_t i = 0; i < cl->n; i++)
		if (!metric || strcmp(cl->v[i].metric, metric) == 0) {
			size_t n = text_width(cl->v[i].row);
			w = n > w ? n : w;
			shown++;
		}
	if (!shown)
		return;
	fprintf(f, "\ncalls: a change is called when neither run was busy, both have %d or more samples,\n"
		   "p <= %.2f, and the median moved more than the noise floor (docs/compare.md)\n",
		VERDICT_MIN_SAMPLES, cl->res->alpha);
	for (size_t i = 0; i < cl->n; i++)
		if (cl->v[i].v.cpu_basis && (!metric || strcmp(cl->v[i].metric, metric) == 0)) {
			fprintf(f, "(a busy run's hash figures are judged on their bytes per CPU-second)\n");
			break;
		}
	size_t block = 0;
	for (size_t i = 0; i < cl->n; i++) {
		const struct call *c = &cl->v[i];
		if (metric && strcmp(c->metric, metric) != 0)
			continue;
		if (i == 0 || strcmp(cl->v[block].metric, c->metric) != 0 || cl->v[block].col != c->col ||
		    (metric && strcmp(cl->v[block].metric, metric) != 0)) {
			block = i;
			write_block_header(f, cl, i);
		}
		if (shown_in_group(cl, block, i))
			continue;
		size_t group = same_reason(cl, i);
		char sum[1200];
		verdict_summary(&c->v, sum, sizeof sum);
		/* an unchanged row: its verdict alone ("no change beyond ±3%"); else the why, and the
		 * verdict under it */
		if (c->v.kind == VERDICT_UNCHANGED && c->v.recheck != VERDICT_WITHDRAWN) {
			fprintf(f, "  %s%*s %s\n", c->row, text_fill(c->row, w), "", c->v.text);
			continue;
		}
		/* a called regression in red, an improvement in green: the lines to read first */
		const char *on = "", *off = "";
		if (c->v.kind == VERDICT_REGRESSION || c->v.kind == VERDICT_IMPROVEMENT) {
			on = color_on(f, c->v.kind == VERDICT_REGRESSION ? COLOR_BAD : COLOR_GOOD);
			off = color_off(f);
		}
		if (group > 1) {
			char label[96];
			snprintf(label, sizeof label, "%s phase, %zu figures", c->phase, group);
			fprintf(f, "  %s%s%*s %s%s\n", on, label, text_fill(label, w), "", c->v.why, off);
		} else {
			fprintf(f, "  %s%s%*s %s%s\n", on, c->row, text_fill(c->row, w), "", c->v.why, off);
		}
		fprintf(f, "  %-*s %s\n", (int)w, "", sum);
	}
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

void calls_verdict_json(json_t *o, const struct verdict *v)
{
	json_object_set_new(o, "verdict", json_string(verdict_category_name(v->cat)));
	json_object_set_new(o, "verdict_text", json_string(v->text));
	json_object_set_new(o, "noise_pct", num_or_null(v->noise_pct));
	/* what the samples judged were: the figure itself, or its rate per CPU-second (a busy run) */
	json_object_set_new(o, "basis", json_string(v->cpu_basis ? "cpu_time" : "wall"));
	if (v->basis_note[0]) /* "judged on CPU time: busy 93%", "not judged on CPU time: CPUs allowed 2 -> 1" */
		json_object_set_new(o, "basis_note", json_string(v->basis_note));
	if (v->floor_before_load_pct > 0) /* the CPU-time floor before its widening for the load */
		json_object_set_new(o, "floor_before_load_pct", json_real(v->floor_before_load_pct));
	json_object_set_new(o, "interval_pct", isfinite(v->lo_pct) ? json_pack("[f, f]", v->lo_pct, v->hi_pct)
								   : json_null());
	if (v->cat == VERDICT_CAT_CANT_TELL) {
		json_object_set_new(o, "cause", json_string(v->cause));
		json_object_set_new(o, "decide", json_string(v->decide));
	}
}

json_t *calls_to_json(const struct call_list *cl)
{
	json_t *a = json_array();
	for (size_t i = 0; i < cl->n; i++) {
		const struct call *c = &cl->v[i];
		json_array_append_new(
			a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:[I, I], s:f, s:s, s:i, s:s}", "metric", c->metric,
				     "unit", c->unit, "name", c->row, "column", cl->res->cols[c->col], "call",
				     verdict_kind_name(c->v.kind), "delta_pct", num_or_null(c->v.delta_pct), "p",
				     num_or_null(c->v.p), "n", (json_int_t)c->v.nbase, (json_int_t)c->v.ncur, "floor_pct",
				     c->v.floor_pct, "floor_from", verdict_floor_source(c->v.floor_runs, c->v.floor_host_paced),
				     "floor_runs", c->v.floor_runs, "why", c->v.why));
		json_t *o = json_array_get(a, json_array_size(a) - 1);
		calls_verdict_json(o, &c->v);
		if (c->v.recheck != VERDICT_NOT_RECHECKED)
			json_object_set_new(o, "remeasure",
					    json_pack("{s:s, s:s}", "result",
						      c->v.recheck == VERDICT_CONFIRMED ? "confirmed" : "withdrawn",
						      "first_call", verdict_kind_name(c->v.first_kind)));
	}
	return a;
}
