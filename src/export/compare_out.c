#include "export/compare_out.h"
#include "export/calls_fmt.h"
#include "export/changes.h"
#include "export/compare_fmt.h"
#include "compare/track_table.h"

#include <string.h>

/* Two saved runs: what differs between the machines and settings they ran with. */
static void what_changed_text(FILE *f, const struct cmp_model *m)
{
	if (m->nin == 2)
		changes_write_text(f, m->changes, m->in[0].name, m->in[1].name);
}

void cmp_write(FILE *f, const struct cmp_model *m, enum cmp_format fmt)
{
	if (m->tl.n && (fmt == CMP_TEXT || fmt == CMP_MARKDOWN || fmt == CMP_CSV)) {
		/* saved track runs: milestone by milestone, not one pooled segment figure */
		track_cmp_write(f, &m->tl, fmt == CMP_TEXT ? TRACK_TEXT : fmt == CMP_MARKDOWN ? TRACK_MARKDOWN : TRACK_CSV);
		if (fmt == CMP_TEXT)
			what_changed_text(f, m);
		else if (fmt == CMP_MARKDOWN && m->nin == 2)
			changes_write_markdown(f, m->changes, m->in[0].name, m->in[1].name);
	} else if (fmt == CMP_TEXT && cmp_compact_applies(m)) {
		cmp_write_compact(f, m);
		what_changed_text(f, m);
	} else if (fmt == CMP_TEXT || fmt == CMP_BENCHSTAT) {
		ct_write_text(f, &m->tab, NULL);
		calls_write_text(f, &m->calls, NULL);
		what_changed_text(f, m);
	} else if (fmt == CMP_MARKDOWN) {
		ct_write_markdown(f, m);
		if (m->nin == 2)
			changes_write_markdown(f, m->changes, m->in[0].name, m->in[1].name);
	} else if (fmt == CMP_CSV) {
		ct_write_csv(f, &m->tab);
	} else {
		json_t *j = ct_to_json(&m->tab);
		if (m->calls.n)
			json_object_set_new(j, "calls", calls_to_json(&m->calls));
		if (m->tl.n)
			json_object_set_new(j, "timeline", track_cmp_to_json(&m->tl));
		if (m->changes) /* what changed, settings first: [{"key", "what", "a", "b"}] */
			json_object_set(j, "changes", m->changes);
		json_dumpf(j, f, JSON_INDENT(2));
		fputc('\n', f);
		json_decref(j);
	}
}

int cmp_write_baseline(FILE *f, const struct cmp_model *m)
{
	int has = 0;
	for (size_t i = 0; i < m->tab.ntables; i++)
		has |= strcmp(m->tab.tables[i]->metric, "bytes_per_sec") == 0;
	if (!has) {
		fprintf(f, "no throughput figure in common with the baseline\n");
		what_changed_text(f, m);
		return 0;
	}
	/* the throughput table only: the other metrics are in the report */
	ct_write_text(f, &m->tab, "bytes_per_sec");
	what_changed_text(f, m);
	/* nodemark's calls, the same as compare and report make about these two runs */
	calls_write_text(f, &m->calls, "bytes_per_sec");
	size_t called, same, not_compared;
	calls_count(&m->calls, "bytes_per_sec", &called, &same, &not_compared);
	return (int)called;
}
