/* The report of `nodemark report`: one self-contained HTML file (inline CSS and SVG, no script,
 * no font or image from the network) or Markdown, built from the runs and their compare tables.
 *
 * HTML: each machine's one-line summary and inventory, the runs, the disk panel and the time
 * boxes, the compare tables each with its bar chart, the latency percentiles, the timelines and
 * track's segments against the baseline (the charts: report_charts.h).  Markdown: the same
 * machines, runs and tables. */
#ifndef NM_EXPORT_REPORT_HTML_H
#define NM_EXPORT_REPORT_HTML_H

#include <stdio.h>

#include "compare/model.h"

struct report_opts {
	const char *title;
	const char *generated;  /* e.g. "2026-11-30 09:40 UTC by nodemark 0.1.0" */
};

/* The report's "generated" line: "2026-11-30 09:40 UTC, nodemark 0.1.0" (now, UTC). */
void report_generated(char *buf, size_t len);

/* Each table row shows its verdict beside it (compare/model.h); a cell is coloured from its
 * verdict alone. */
void report_write_html(FILE *f, const struct cmp_model *m, const struct report_opts *o);
void report_write_markdown(FILE *f, const struct cmp_model *m, const struct report_opts *o);


#endif
