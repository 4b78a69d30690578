/* src/proc/: the progress pattern, the line reader and the milestone timeline of track. */
#include "test.h"
#include "proc/linereader.h"
#include "proc/progress_re.h"
#include "proc/track.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static char *translate(const char *p, int *group)
{
	static char err[256];
	char *e = progress_re_translate(p, group, err, sizeof err);
	return e ? e : err;
}

TEST(progress_re_translates_perl_habits_to_posix)
{
	int g = 0;
	char *e = translate("block (\\d+) of \\d+", &g);
	CHECK_EQ_STR(e, "block ([0-9]+) of [0-9]+");
	CHECK_EQ_INT(g, 1);
	free(e);
	e = translate("(?:a|b) (?P<height>[\\d.]+) (x)", &g);
	CHECK_EQ_STR(e, "(a|b) ([0-9.]+) (x)");
	CHECK_EQ_INT(g, 2); /* the named group wins over the later plain one */
	free(e);
	e = translate("(a) (?<n>\\d+)", &g);
	CHECK_EQ_INT(g, 2);
	free(e);
	e = translate("^(\\S+) [[:space:]\\s]", &g);
	CHECK_EQ_STR(e, "^(\\S+) [[:space:][:space:]]");
	free(e);
}

TEST(progress_re_rejects_what_it_cannot_do)
{
	char err[256];
	int g;
	CHECK(progress_re_translate("block \\d+", &g, err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "needs a group");
	CHECK(progress_re_translate("a(?=b)(\\d)", &g, err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "only (?:...)");
	CHECK(progress_re_translate("([0-9", &g, err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "not closed");
	CHECK(progress_re_translate("(x)\\", &g, err, sizeof err) == NULL);
	CHECK(progress_re_compile("(a", err, sizeof err) == NULL);
	CHECK(progress_re_translate("b+++(\\d+)", &g, err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "quantifier after a quantifier");
	CHECK(progress_re_translate("(a)\\1", &g, err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "back-references");
	char *ok = progress_re_translate("x{2}(\\d{1,3})", &g, err, sizeof err);
	CHECK_EQ_STR(ok, "x{2}([0-9]{1,3})");
	free(ok);
}

static double number(const char *pattern, const char *line, int *ok)
{
	char err[256];
	double v = -1;
	struct progress_re *re = progress_re_compile(pattern, err, sizeof err);
	if (!re) {
		*ok = -1;
		return 0;
	}
	*ok = progress_re_number(re, line, strlen(line), &v);
	progress_re_free(re);
	return v;
}

TEST(progress_re_finds_the_number)
{
	int ok;
	CHECK_NEAR(number("Imported #(\\d+)", "12:00 Imported #4521 (0xab)", &ok), 4521, 0);
	CHECK_EQ_INT(ok, 1);
	CHECK_NEAR(number("height=([0-9.]+)", "x height=12.5 y", &ok), 12.5, 0);
	CHECK_NEAR(number("(?P<n>\\d+)/\\d+ done", "step 7/10 done", &ok), 7, 0);
	number("block (\\d+)", "no progress here", &ok);
	CHECK_EQ_INT(ok, 0);
	/* The first candidate fails (no digits), a later one matches. */
	CHECK_NEAR(number("b=(\\d+);", "b=x; b=12; b=13;", &ok), 12, 0);
	CHECK_NEAR(number("^b(\\d+)$", "b42", &ok), 42, 0);
	number("^b(\\d+)$", "b42 ", &ok);
	CHECK_EQ_INT(ok, 0);
	CHECK_NEAR(number("(\\d+)%", "at 3 of 55% now", &ok), 55, 0);
	number("v([0-9]+|x)", "vx v9", &ok); /* regexec: the first match captures "x", no number */
	CHECK_EQ_INT(ok, 0);
}

TEST(progress_re_takes_the_fast_path_for_simple_shapes)
{
	char err[256];
	const char *fast[] = { "block (\\d+)", "^#([0-9]+) done$", "h=(?P<h>[0-9.]+) ", "(\\d+)", "a\\.b([0-9]+)" };
	const char *slow[] = { "block (\\d+)5", "b+ (\\d+)", "(\\d+) (\\d+)", "x(\\d*)", "([0-9.]+)\\.", "[ab](\\d+)" };
	for (size_t i = 0; i < sizeof fast / sizeof fast[0]; i++) {
		struct progress_re *re = progress_re_compile(fast[i], err, sizeof err);
		CHECK(re && progress_re_is_fast(re));
		progress_re_free(re);
	}
	for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++) {
		struct progress_re *re = progress_re_compile(slow[i], err, sizeof err);
		CHECK(re && !progress_re_is_fast(re));
		progress_re_free(re);
	}
}

TEST(progress_re_fast_path_agrees_with_regexec)
{
	const char *patterns[] = { "block (\\d+)", "^#([0-9]+) done$", "h=([0-9.]+) ", "(\\d+)", "ab([0-9]+)x",
				   "(\\d+)$", "^(\\d+)" };
	const char alphabet[] = "ab#h=x .09 done";
	char err[256], line[40];
	unsigned seed = 12345;
	for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
		struct progress_re *re = progress_re_compile(patterns[p], err, sizeof err);
		CHECK(re && progress_re_is_fast(re));
		for (int k = 0; k < 20000; k++) {
			size_t len = (seed = seed * 1103515245u + 12345u) % 24;
			for (size_t i = 0; i < len; i++)
				line[i] = alphabet[(seed = seed * 1103515245u + 12345u) >> 16 & 0xf];
			const char *c1 = NULL, *c2 = NULL;
			size_t n1 = 0, n2 = 0;
			int f = progress_re_capture(re, line, len, &c1, &n1);
			int s = progress_re_capture_slow(re, line, len, &c2, &n2);
			if (f != s || (f && (c1 != c2 || n1 != n2))) {
				test_failed(__FILE__, __LINE__, "pattern %s line \"%.*s\": fast %d slow %d", patterns[p],
					    (int)len, line, f, s);
				progress_re_free(re);
				return;
			}
		}
		progress_re_free(re);
	}
}

TEST(line_reader_splits_lines_and_keeps_the_last)
{
	char path[512];
	snprintf(path, sizeof path, "%s/lines", test_tmpdir());
	FILE *fp = fopen(path, "w");
	fputs("one\n\nthree\nlast", fp);
	fclose(fp);
	int fd = open(path, O_RDONLY);
	struct line_reader lr;
	const char *l;
	size_t n;
	lr_init(&lr, fd, -1);
	CHECK_EQ_INT(lr_next(&lr, &l, &n), 1);
	CHECK(n == 3 && memcmp(l, "one", 3) == 0);
	CHECK_EQ_INT(lr_next(&lr, &l, &n), 1);
	CHECK_EQ_INT(n, 0);
	CHECK_EQ_INT(lr_next(&lr, &l, &n), 1);
	CHECK(n == 5 && memcmp(l, "three", 5) == 0);
	CHECK_EQ_INT(lr_next(&lr, &l, &n), 1);
	CHECK(n == 4 && memcmp(l, "last", 4) == 0);
	CHECK_EQ_INT(lr_next(&lr, &l, &n), 0);
	lr_free(&lr);
	close(fd);
}

TEST(line_reader_cuts_very_long_lines)
{
	char path[512];
	snprintf(path, sizeof path, "%s/long", test_tmpdir());
	FILE *fp = fopen(path, "w");
	for (size_t i = 0; i < LINE_MAX_LEN + 10; i++)
		fputc('x', fp);
	fputs("\nshort\n", fp);
	fclose(fp);
	int fd = open(path, O_RDONLY);
	struct line_reader lr;
	const char *l;
	size_t n, total = 0;
	int pieces = 0;
	lr_init(&lr, fd, -1);
	while (lr_next(&lr, &l, &n) == 1 && !(n == 5 && memcmp(l, "short", 5) == 0)) {
		total += n;
		pieces++;
	}
	CHECK_EQ_INT(pieces, 2);
	CHECK_EQ_U64(total, LINE_MAX_LEN + 10);
	lr_free(&lr);
	close(fd);
}

TEST(track_rows_at_milestones)
{
	struct track t;
	track_init(&t, 100, 25, NULL);
	CHECK_EQ_INT(track_point(&t, 1000, 0), 0);     /* the origin */
	CHECK_EQ_INT(track_point(&t, 1010, 20), 0);
	CHECK_EQ_INT(track_point(&t, 1020, 30), 1);    /* 25 */
	CHECK_EQ_INT(track_point(&t, 1080, 60), 1);    /* 50 */
	CHECK_EQ_INT(track_point(&t, 1100, 100), 2);   /* 75 and 100 at once */
	CHECK_EQ_INT(track_point(&t, 1200, 150), 0);   /* past the total: nothing more */
	CHECK_EQ_INT(t.nrows, 4);
	CHECK_NEAR(t.rows[0].seg_s, 20, 1e-9);
	CHECK_NEAR(t.rows[0].pct, 25, 1e-9);
	CHECK_NEAR(t.rows[0].rate, 25.0 / 20, 1e-9);
	CHECK_NEAR(t.rows[0].eta_s, 75 / (25.0 / 20), 1e-9);
	CHECK_NEAR(t.rows[1].seg_s, 60, 1e-9);
	CHECK_NEAR(t.rows[1].first_ratio, 3, 1e-9);
	CHECK_NEAR(t.rows[2].seg_s, 20, 1e-9);
	CHECK_NEAR(t.rows[3].seg_s, 0, 1e-9);
	CHECK_NEAR(t.rows[3].cum_s, 100, 1e-9);
	CHECK_NEAR(t.rows[3].eta_s, 0, 1e-9);
	CHECK(isnan(t.rows[0].base_diff_s));
	track_free(&t);
}

TEST(track_command_origin_starts_from_zero)
{
	struct track t;
	track_init(&t, 0, 10, NULL);
	track_start(&t, 50);
	CHECK_EQ_INT(track_point(&t, 55, 10), 1); /* within the first milestone: counted from 0 */
	CHECK_NEAR(t.rows[0].seg_s, 5, 1e-9);
	CHECK(isnan(t.rows[0].pct));
	CHECK(isnan(t.rows[0].eta_s));
	track_free(&t);
	track_init(&t, 0, 10, NULL);
	track_start(&t, 50);
	CHECK_EQ_INT(track_point(&t, 55, 1000), 0); /* a resumed job: starts where it is */
	CHECK_NEAR(t.v0, 1000, 0);
	track_free(&t);
}

TEST(track_compares_segments_with_a_baseline)
{
	struct series base = { 0 };
	double bx[] = { 0, 10, 30 }, by[] = { 0, 100, 200 };
	base.x = bx;
	base.y = by;
	base.n = 3;
	CHECK_NEAR(track_series_time(&base, 150), 20, 1e-9);
	CHECK(isnan(track_series_time(&base, 250)));
	struct track t;
	track_init(&t, 200, 100, &base);
	track_point(&t, 0, 0);
	track_point(&t, 12, 100);
	track_point(&t, 27, 200);
	CHECK_EQ_INT(t.nrows, 2);
	CHECK_NEAR(t.rows[0].base_diff_s, 2, 1e-9);  /* 12 s against 10 s */
	CHECK_NEAR(t.rows[1].base_diff_s, -5, 1e-9); /* 15 s against 20 s */
	track_free(&t);
}

TEST(track_parse_time_formats)
{
	double a, b;
	CHECK_EQ_INT(track_parse_time("2024-01-01T00:00:00", 19, "%Y-%m-%dT%H:%M:%S", &a), 0);
	CHECK_EQ_INT(track_parse_time("2024-01-01T01:00:02.250", 23, "%Y-%m-%dT%H:%M:%S", &b), 0);
	CHECK_NEAR(b - a, 3602.25, 1e-6);
	CHECK_NEAR(a, 1704067200, 0);
	CHECK_EQ_INT(track_parse_time("1700000000.5", 12, "%s", &a), 0);
	CHECK_NEAR(a, 1700000000.5, 1e-6);
	CHECK_EQ_INT(track_parse_time("yesterday", 9, "%Y-%m-%d", &a), -1);
	CHECK_EQ_INT(track_parse_time("", 0, "%s", &a), -1);
}
