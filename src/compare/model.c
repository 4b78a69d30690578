#include "compare/model.h"

#include <stdio.h>
#include <string.h>

int cmp_build(const struct ct_input *in, size_t nin, const struct ct_opts *o, struct cmp_model *m, char *err,
	      size_t errlen)
{
	memset(m, 0, sizeof *m);
	if (ct_build(in, nin, o, &m->tab, err, errlen) < 0)
		return -1;
	m->in = in;
	m->nin = nin;
	calls_build(in, nin, o, &m->tab, &m->calls);
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
