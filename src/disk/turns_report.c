#include "disk/turns_report.h"
#include "util/color.h"
#include "util/textwidth.h"
#include "util/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Targets are lettered A, B, ... in the table (past Z: T27, T28, ...). */
static const char *letter(unsigned a, char *buf, size_t len) /* len >= 16 */
{
	if (a < 26)
		snprintf(buf, len, "%c", 'A' + a);
	else
		snprintf(buf, len, "T%u", a + 1);
	return buf;
}

static void facts_text(const struct disk_target_facts *f, char *buf, size_t len)
{
	if (!f->fs[0] && !f->device[0])
		snprintf(buf, len, "(not known)");
	else if (!f->fs[0])
		snprintf(buf, len, "block device %s", f->device);
	else
		snprintf(buf, len, "%s%s%s%s%s%s", f->fs, f->device[0] ? " on " : "", f->device,
			 f->mount_options[0] ? " (" : "", f->mount_options, f->mount_options[0] ? ")" : "");
}

/* The median of a test's passes (bytes per second); 0 without passes. */
static double test_median(const struct disk_test *t)
{
	double med, spread;
	disk_test_spread(t, &med, &spread);
	return med;
}

static int ran_everywhere(const struct disk_turns *t, unsigned i)
{
	for (unsigned a = 0; a < t->narms; a++)
		if (!t->arms[a].tests[i].npasses || !t->arms[a].tests[i].complete)
			return 0;
	return 1;
}

/* Test i's name, or its kind alone where a sweep's settings name the tests apart ("randread
 * 4k Q1T1" and "randread 64k Q1T1" are one row of a -L bs sweep). */
static const char *row_name(const struct disk_turns *t, unsigned i)
{
	for (unsigned a = 1; a < t->narms; a++)
		if (strcmp(t->arms[a].tests[i].name, t->arms[0].tests[i].name) != 0)
			return io_rw_name(t->arms[0].tests[i].job.rw);
	return t->arms[0].tests[i].name;
}

/* The table: a row per test that ran on every target, headed as compare heads the figure
 * (units_header: "bandwidth (GB/s, MB/s)", the units its cells show, each cell with its own);
 * a column per target, then the ratio and the verdict of each target against the reference.
 * Widths are display columns (util/textwidth.h): a verdict's "±" takes one. */
enum { CELL = 192 };

static char *cell_at(char (*cells)[CELL], unsigned ncols, unsigned row, unsigned col)
{
	return cells[(size_t)row * ncols + col];
}

static void print_table(FILE *out, const struct disk_turns *t)
{
	unsigned ncols = 1 + t->narms + 2 * (t->narms - 1), nrows = 1, row = 1;
	for (unsigned i = 0; i < t->ntests; i++)
		nrows += ran_everywhere(t, i);
	char(*cells)[CELL] = calloc((size_t)nrows * ncols, CELL);
	size_t *w = calloc(ncols, sizeof *w);
	int *right = calloc(ncols, sizeof *right);
	if (!cells || !w || !right)
		abort();
	char units[64] = "", l1[16], l2[16];
	for (unsigned i = 0; i < t->ntests; i++) {
		if (!ran_everywhere(t, i))
			continue;
		snprintf(cell_at(cells, ncols, row, 0), CELL, "%s", row_name(t, i));
		unsigned c = 1;
		for (unsigned k = 0; k < t->narms; k++, c++) {
			units_figure(test_median(&t->arms[k].tests[i]), "bytes_per_sec", "B/s", cell_at(cells, ncols, row, c),
				     CELL);
			units_shown_add(units, sizeof units, cell_at(cells, ncols, row, c));
		}
		for (unsigned k = 0; k < t->narms; k++) {
			if (k == t->ref)
				continue;
			const struct disk_pair *pr = &t->pairs[i * t->narms + k];
			units_ratio(pr->r.ratio, cell_at(cells, ncols, row, c++), CELL);
			/* a called change: red when the target is slower than the reference, green
			 * when faster (bandwidth: higher is better); escapes take no column */
			const char *on = "", *off = "";
			if (pr->v.call == PAIRED_CALLED) {
				on = color_on(out, pr->r.ratio < 1 ? COLOR_BAD : COLOR_GOOD);
				off = color_off(out);
			}
			snprintf(cell_at(cells, ncols, row, c++), CELL, "%s%s%s", on, pr->v.text, off);
		}
		row++;
	}
	units_header("bytes_per_sec", units, cell_at(cells, ncols, 0, 0), CELL);
	unsigned c = 1;
	for (unsigned k = 0; k < t->narms; k++, c++) {
		snprintf(cell_at(cells, ncols, 0, c), CELL, "%s", letter(k, l1, sizeof l1));
		right[c] = 1;
	}
	for (unsigned k = 0; k < t->narms; k++) {
		if (k == t->ref)
			continue;
		snprintf(cell_at(cells, ncols, 0, c), CELL, "%s/%s", letter(k, l1, sizeof l1), letter(t->ref, l2, sizeof l2));
		right[c++] = 1;
		snprintf(cell_at(cells, ncols, 0, c++), CELL, "verdict");
	}
	for (unsigned r = 0; r < nrows; r++)
		for (c = 0; c < ncols; c++)
			if (text_width(cell_at(cells, ncols, r, c)) > w[c])
				w[c] = text_width(cell_at(cells, ncols, r, c));
	fputc('\n', out);
	for (unsigned r = 0; r < nrows; r++) {
		for (c = 0; c < ncols; c++) {
			/* two spaces between columns, three before a ratio; no padding at the line's end */
			fputs(c == 0 ? "" : c > t->narms && right[c] ? "   " : "  ", out);
			text_put(out, cell_at(cells, ncols, r, c), c + 1 < ncols ? w[c] : 0, right[c]);
		}
		fputc('\n', out);
	}
	free(cells);
	free(w);
	free(right);
}

void disk_turns_print(FILE *out, const struct disk_turns *t)
{
	const struct disk_plan *p0 = &t->plans[0];
	char a[32], b[32], l1[16], l2[16], facts[400], set[256];
	unsigned rounds = 0;
	for (unsigned i = 0; i < t->ntests; i++)
		if (t->arms[t->ref].tests[i].npasses > rounds)
			rounds = t->arms[t->ref].tests[i].npasses;
	fprintf(out, "nodemark disk: %u %s in turns, %u round%s (one pass of each per round, the order rotated)",
		t->narms, t->settings[0] ? "settings" : "targets", rounds, rounds == 1 ? "" : "s");
	if (p0->profile)
		fprintf(out, ", --profile %s", p0->profile->name);
	fprintf(out, ", %s file", units_bytes_iec(p0->base.size ? p0->base.size : p0->base.filesize, a, sizeof a));
	if (p0->base.runtime_ns)
		fprintf(out, ", passes of %s", units_duration(p0->base.runtime_ns, b, sizeof b));
	fputc('\n', out);
	for (unsigned k = 0; k < t->narms; k++) {
		facts_text(&t->facts[k], facts, sizeof facts);
		disk_turns_setting(t, k, set, sizeof set);
		fprintf(out, "  %-3s %s%s%s  %s%s\n", letter(k, l1, sizeof l1), set, set[0] ? "  " : "",
			disk_turns_target(t, k), facts, k == t->ref ? "  (reference)" : "");
	}
	print_table(out, t);
	fprintf(out, "\nbandwidth: the median of a %s's passes, as compare prints it (MB/s = 10^6 bytes/s).\n"
		     "%s/%s: the ratio from the per-round pairs (Hodges-Lehmann estimate); [lo, hi] its interval\n"
		     "(Wilcoxon signed-rank, exact: 95%% or the next level the pairs allow, 96.9%% from 6 pairs);\n"
		     "called when the whole interval lies beyond ±%.0f%%.\n",
		t->settings[0] ? "setting" : "target", letter(t->ref == 0 ? 1 : 0, l1, sizeof l1),
		letter(t->ref, l2, sizeof l2), PAIRED_FLOOR_PCT);
	for (unsigned i = 0; i < t->ntests; i++) {
		if (!ran_everywhere(t, i))
			continue;
		for (unsigned k = 0; k < t->narms; k++) {
			const struct disk_pair *pr = &t->pairs[i * t->narms + k];
			if (k != t->ref && pr->v.call == PAIRED_CANT_TELL)
				fprintf(out, "%s, %s vs %s: %s\n", row_name(t, i), letter(k, l1, sizeof l1),
					letter(t->ref, l2, sizeof l2), pr->v.why);
		}
	}
}

static json_t *facts_json(const struct disk_turns *t, unsigned k)
{
	const struct disk_target_facts *f = &t->facts[k];
	json_t *o = json_object();
	json_object_set_new(o, "target", json_string(disk_turns_target(t, k)));
	if (t->settings[k])
		json_object_set(o, "parameters", t->settings[k]);
	json_object_set_new(o, "fs", json_string(f->fs));
	json_object_set_new(o, "device", json_string(f->device));
	json_object_set_new(o, "mount_options", json_string(f->mount_options));
	return o;
}

json_t *disk_turns_json(const struct disk_turns *t)
{
	const struct disk_plan *p0 = &t->plans[0];
	json_t *o = json_object();
	json_object_set_new(o, "mode", json_string("turns"));
	json_object_set_new(o, "profile", p0->profile ? json_string(p0->profile->name) : json_null());
	json_object_set_new(o, "reference", json_string(disk_turns_target(t, t->ref)));
	json_t *tg = json_array();
	for (unsigned k = 0; k < t->narms; k++)
		json_array_append_new(tg, facts_json(t, k));
	json_object_set_new(o, "targets", tg);
	json_object_set_new(o, "file_size", json_integer((json_int_t)(p0->base.size ? p0->base.size : p0->base.filesize)));
	json_object_set_new(o, "passes", json_integer(p0->passes));
	json_t *tests = json_array();
	for (unsigned i = 0; i < t->ntests; i++) {
		const struct disk_test *t0 = &t->arms[0].tests[i];
		json_t *x = json_object();
		json_object_set_new(x, "name", json_string(t0->name));
		json_object_set_new(x, "rw", json_string(io_rw_name(t0->job.rw)));
		json_object_set_new(x, "bs", json_integer((json_int_t)t0->job.bs[t0->job.rw == IO_WRITE || t0->job.rw == IO_RANDWRITE]));
		json_object_set_new(x, "iodepth", json_integer(t0->job.iodepth));
		json_object_set_new(x, "numjobs", json_integer(t0->job.numjobs));
		json_t *per = json_array(), *pairs = json_array();
		for (unsigned k = 0; k < t->narms; k++) {
			const struct disk_test *at = &t->arms[k].tests[i];
			json_t *y = json_object(), *bw = json_array(), *iops = json_array();
			json_object_set_new(y, "target", json_string(disk_turns_target(t, k)));
			if (t->settings[k])
				json_object_set(y, "parameters", t->settings[k]);
			json_object_set_new(y, "engine", json_string(at->engine));
			json_object_set_new(y, "direct", at->direct < 0 ? json_null() : json_boolean(at->direct));
			for (unsigned q = 0; q < at->npasses; q++) {
				json_array_append_new(bw, json_real(io_result_bytes_per_sec(&at->total[q])));
				json_array_append_new(iops, json_real(io_result_iops(&at->total[q])));
			}
			json_object_set_new(y, "bytes_per_sec", bw);
			json_object_set_new(y, "iops", iops);
			json_object_set_new(y, "median_bytes_per_sec", json_real(test_median(at)));
			json_array_append_new(per, y);
			if (k != t->ref && ran_everywhere(t, i))
				json_array_append_new(pairs, disk_pair_json(t, k, &t->pairs[i * t->narms + k]));
		}
		json_object_set_new(x, "targets", per);
		json_object_set_new(x, "paired", pairs);
		json_array_append_new(tests, x);
	}
	json_object_set_new(o, "tests", tests);
	return o;
}
