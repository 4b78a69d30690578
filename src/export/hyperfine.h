/* `nodemark time` results in hyperfine's shapes: its terminal report, its JSON (so scripts
 * written for hyperfine read ours), CSV and Markdown.  Everything is computed from a record's
 * benches (metric wall_s and friends, one sample per run), so a saved run exports the same way. */
#ifndef NM_EXPORT_HYPERFINE_H
#define NM_EXPORT_HYPERFINE_H

#include "results/record.h"

#include <stddef.h>
#include <stdio.h>

struct time_stats {
	size_t n;
	double mean, stddev, median, min, max;
	double mad;             /* median absolute deviation (raw, unscaled) */
};

void time_stats_of(const double *x, size_t n, struct time_stats *st);

/* hyperfine's outlier test: |x - median| / MAD > 14.826 (10 standard deviations of a normal
 * sample).  Returns 1 when the first run is such a (slow) outlier, 2 when another run is, else 0. */
int time_outliers(const double *x, size_t n);

/* Relative speed of b against a (mean_b / mean_a) and its uncertainty, as hyperfine computes. */
void time_ratio(const struct time_stats *a, const struct time_stats *b, double *ratio, double *err);

/* The benches of r that hold timings (a wall_s metric), in order. Returns the count. */
size_t time_benches(const struct record *r, const struct bench **out, size_t max);

/* "Benchmark 1: NAME" (the --command-name alone, as hyperfine shows it), then the terminal
 * report of one bench, warnings via nm_warn. */
void time_print_header(FILE *fp, const char *name, size_t index);
void time_print_bench(FILE *fp, const struct record *r, const struct bench *b);
/* The comparison of several benches: relative speed and significance (Mann-Whitney U). */
void time_print_summary(FILE *fp, const struct record *r);

/* hyperfine's --time-unit and --sort, for the report and the exports that follow. */
enum hf_unit { HF_UNIT_AUTO, HF_UNIT_SECOND, HF_UNIT_MILLI, HF_UNIT_MICRO };
enum hf_sort { HF_SORT_AUTO, HF_SORT_COMMAND, HF_SORT_MEAN };
/* reference: the first command is --reference, the one the others are compared with. */
void hyperfine_set_style(enum hf_unit unit, enum hf_sort sort, int reference);

int export_hyperfine_json(FILE *fp, const struct record *r);
int export_hyperfine_csv(FILE *fp, const struct record *r);
/* hyperfine's markup tables: one unit per table (--time-unit, else the first command's mean
 * picks it), rows in command order (--sort mean-time: by mean), relative to the fastest. */
int export_hyperfine_markdown(FILE *fp, const struct record *r);
int export_hyperfine_asciidoc(FILE *fp, const struct record *r);
int export_hyperfine_orgmode(FILE *fp, const struct record *r);

#endif
