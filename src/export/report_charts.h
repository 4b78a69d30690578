/* The SVG charts of the HTML report. Every chart has a title (shown, and as <title>), axes
 * with ticks whose labels carry their units, and axis titles (text.axis-label); it scales down
 * to the page's width (the shared pieces: report_svg.h).
 *   bars         one rect.bar per table cell, a run per colour, the change against the first
 *                run written after its bar (report_charts.c)
 *   percentiles  a polyline.curve per latency histogram, log scales (report_charts.c)
 *   disk panel   CrystalDiskMark's grid for disk runs: a row per test (SEQ1M Q8T1, ...), read
 *                and write columns, a rect.cdm-bar per run with its MB/s and IOPS
 *                (report_charts_disk.c)
 *   time boxes   a box (rect.box) per command and run of `time` with its samples as dots
 *                (circle.sample) (report_charts_time.c)
 *   timelines    a polyline.timeline per run and series (track's progress: runs overlaid)
 *   segments     track's time per unit in each segment against the baseline run (the first
 *                input with that job): a rect.ratio per segment and run, partial ones marked
 *                (report_charts_track.c) */
#ifndef NM_EXPORT_REPORT_CHARTS_H
#define NM_EXPORT_REPORT_CHARTS_H

#include <stdio.h>

#include "export/compare_fmt.h"

void chart_bars(FILE *f, const struct ct_result *res, const struct ct_table *t);
void chart_percentiles(FILE *f, const struct ct_input *in, size_t nin);
void chart_disk_panel(FILE *f, const struct ct_input *in, size_t nin);
void chart_time_boxes(FILE *f, const struct ct_input *in, size_t nin);
void chart_timelines(FILE *f, const struct ct_input *in, size_t nin);
void chart_track_segments(FILE *f, const struct ct_input *in, size_t nin);

#endif
