#include "compare/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The track bench of a run: the one named job when it is one, else its first. */
static const struct bench *track_bench(const struct record *r, const char *job)
{
	const struct bench *b = job ? record_find_bench(r, job) : NULL;
	if (b && track_saved_progress(b))
		return b;
	for (size_t i = 0; i < r->nbenches; i++)
		if (track_saved_progress(r->benches[i]))
			return r->benches[i];
	return NULL;
}

/* When every input is a saved track run: their timelines line up by milestone (runs of one
 * job from different logs too), each against the first. */
static void build_timeline(struct cmp_model *m)
{
	const struct bench **b = calloc(m->nin + 1, sizeof *b);
	const char **names = calloc(m->nin + 1, sizeof *names);
	if (!b || !names)
		abort();
	size_t i;
	for (i = 0; i < m->nin; i++) {
		if (!(b[i] = track_bench(m->in[i].r, i ? b[0]->name : NULL)))
			break;
		names[i] = m->in[i].name;
	}
	if (m->nin && i == m->nin)
		track_cmp_build(&m->tl, b, names, m->nin);
	free(b);
	free(names);
}

int cmp_build(const struct ct_input *in, size_t nin, const struct ct_opts *o, struct cmp_model *m, char *err,
	      size_t errlen)
{
	memset(m, 0, sizeof *m);
	if (ct_build(in, nin, o, &m->tab, err, errlen) < 0)
		return -1;
	m->in = in;
	m->nin = nin;
	calls_build(in, nin, o, &m->tab, &m->calls);
	build_timeline(m);
	/* two runs of nodemark's (an inventory, or the CPUs they were allowed: a run without its
	 * inventory phase) have facts to set side by side; Go benchmark text has none */
	if (nin == 2 && ((in[0].r->inventory && in[1].r->inventory) ||
			 (record_cpus_allowed(in[0].r) && record_cpus_allowed(in[1].r))))
		m->changes = record_changes(in[0].r, in[1].r);
	/* the list is complete: its addresses hold from here on */
	for (size_t i = 0; i < m->calls.n; i++) {
		const struct call *c = &m->calls.v[i];
		struct ct_table *t = m->tab.tables[c->table];
		t->cells[c->rowi * m->tab.ncols + c->col]->call = c;
	}
	return 0;
}

void cmp_free(struct cmp_model *m)
{
	json_decref(m->changes);
	track_cmp_free(&m->tl);
	calls_free(&m->calls);
	ct_free(&m->tab);
	memset(m, 0, sizeof *m);
}

enum cmp_mark cmp_cell_mark(const struct ct_cell *c)
{
	if (!c || !c->call)
		return CMP_MARK_NONE;
	switch (c->call->v.kind) {
	case VERDICT_REGRESSION:
		return CMP_MARK_WORSE;
	case VERDICT_IMPROVEMENT:
		return CMP_MARK_BETTER;
	case VERDICT_CHANGED:
		return CMP_MARK_CHANGED;
	default:
		return CMP_MARK_NONE;
	}
}

int cmp_build_pair(const struct record *base, const struct record *rec, char (*names)[128], struct ct_input *in,
		   struct cmp_model *m, char *err, size_t errlen)
{
	size_t n = 0;
	if (base) {
		snprintf(names[0], sizeof names[0], "baseline %.8s%s%s", base->id, base->label ? " " : "",
			 base->label ? base->label : "");
		snprintf(names[1], sizeof names[1], "this run %.8s%s%s", rec->id, rec->label ? " " : "",
			 rec->label ? rec->label : "");
		in[n++] = (struct ct_input){ base, names[0] };
	} else {
		snprintf(names[1], sizeof names[1], "run %.8s", rec->id);
	}
	in[n++] = (struct ct_input){ rec, names[1] };
	struct ct_opts o = { 0 };
	return cmp_build(in, n, &o, m, err, errlen);
}
