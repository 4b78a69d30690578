/* The SVG charts of the HTML report. Every chart has a title (shown, and as <title>), axes
 * with ticks whose labels carry their units, and axis titles (text.axis-label); it scales down
 * to the page's width. Bars: one rect.bar per table cell, a run per colour, the change
 * against the first run written after its bar. Percentiles: a polyline.curve per histogram, log
 * scales. Timelines: a polyline.timeline per run and series (track's progress: runs overlaid). */
#ifndef NM_EXPORT_REPORT_CHARTS_H
#define NM_EXPORT_REPORT_CHARTS_H

#include <stdio.h>

#include "export/comparetab.h"

void chart_bars(FILE *f, const struct ct_result *res, const struct ct_table *t);
void chart_percentiles(FILE *f, const struct ct_input *in, size_t nin);
void chart_timelines(FILE *f, const struct ct_input *in, size_t nin);
/* Text escaped for HTML and SVG. */
void chart_esc(FILE *f, const char *s);

#endif
