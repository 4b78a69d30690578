/* src/proc/: the progress pattern, the line reader and the milestone timeline of track. */
#include "test.h"
#include "proc/linereader.h"
#include "proc/progress_re.h"
#include "compare/track.h"
#include "proc/track_time.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(progress_re_refuses_bad_patterns_in_one_line)
{
	char err[256];
	const char *bad[] = { "block \\d+", "([0-9", "(x)\\", "(a", "a(?<n>b", "x{2,1}(\\d)" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		CHECK(progress_re_compile(bad[i], err, sizeof err) == NULL);
		CHECK(err[0] != 0 && strchr(err, '\n') == NULL);
	}
	CHECK(progress_re_compile("block \\d+", err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "needs a group");
	CHECK(progress_re_compile("([0-9", err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "offset");
}

static char *literal(const char *p)
{
	size_t n;
	char *l = progress_re_required_literal(p, &n);
	return l ? l : strdup("(none)");
}

TEST(progress_re_literal_prefilter)
{
	struct {
		const char *pattern, *lit;
	} cases[] = {
		{ "([0-9]+) of [0-9]+ blocks", " blocks" },
		{ "Imported #(\\d+)", "Imported #" },
		{ "height=(?P<h>\\d+)", "height=" },
		{ "abcx?(\\d+)", "abc" },          /* the optional x is not required */
		{ "ab\\.cd(\\d+)", "ab.cd" },
		{ "ab{2}(\\d+)", "(none)" },      /* "a" alone is too short to be worth it */
		{ "(\\d+) (done|ok)", "(none)" },
		{ "a|bcd(\\d+)", "(none)" },       /* alternatives */
		{ "(?i)block (\\d+)", "(none)" },  /* case folded */
		{ "\\x41bc(\\d+)", "(none)" },   /* an escape it does not follow */
		{ "[a-z]+ed=([0-9]+)", "ed=" },
		{ "(\\d+)", "(none)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *l = literal(cases[i].pattern);
		CHECK_EQ_STR(l, cases[i].lit);
		free(l);
	}
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

TEST(progress_re_patterns_without_a_literal_captures_and_anchors)
{
	int ok;
	/* No literal at all: the regex alone finds it. */
	CHECK_NEAR(number("(\\d+)", "abc 17 x", &ok), 17, 0);
	CHECK_NEAR(number("([0-9]+) of [0-9]+ blocks",
			  "2024-01-03T05:00:27.502 database.cpp:385 reindex ] 10000000 of 81583660 blocks = 12.26%", &ok),
		   10000000, 0);
	CHECK_EQ_INT(ok, 1);
	/* Which group: the first named one, else the first. */
	CHECK_NEAR(number("(a+) (?P<n>\\d+)", "aa 33", &ok), 33, 0);
	CHECK_NEAR(number("(?<x>\\d+)/(?<y>\\d+)", "4/9", &ok), 4, 0);
	CHECK_NEAR(number("(\\d+)/(\\d+)", "4/9", &ok), 4, 0);
	CHECK_NEAR(number("(?:x|y)=(\\d+)", "y=8", &ok), 8, 0);
	/* Lazy and possessive quantifiers, and lookarounds, which POSIX had not. */
	CHECK_NEAR(number("n=(\\d+?)5", "n=1235", &ok), 123, 0);
	CHECK_NEAR(number("(\\d++)(?= blocks)", "9 of 12 blocks", &ok), 12, 0);
	/* Anchors hold per line. */
	CHECK_NEAR(number("^(\\d+) done$", "41 done", &ok), 41, 0);
	number("^(\\d+) done$", "x 41 done", &ok);
	CHECK_EQ_INT(ok, 0);
	number("^(\\d+) done$", "41 done ", &ok);
	CHECK_EQ_INT(ok, 0);
	/* A group that is not set in the match gives nothing. */
	number("(\\d+)?x", "x", &ok);
	CHECK_EQ_INT(ok, 0);
	/* A pathological pattern gives up on the line instead of hanging. */
	char line[64];
	memset(line, 'a', 40);
	line[40] = 0;
	number("^(a+)+(\\d)$", line, &ok);
	CHECK_EQ_INT(ok, 0);
	/* The capture may carry a fraction. */
	CHECK_NEAR(number("h=([0-9.]+)", "h=12.75", &ok), 12.75, 0);
}

TEST(progress_re_prefilter_agrees_with_the_regex_alone)
{
	const char *patterns[] = { "block (\\d+)", "^#([0-9]+) done$", "h=([0-9.]+) ", "(\\d+)", "ab([0-9]+)x",
				   "(\\d+)$", "^(\\d+)", "b+ (\\d+) do?ne", "[ab]=(\\d+)" };
	const char alphabet[] = "ab#h=x .09 done";
	char err[256], line[40];
	unsigned seed = 12345;
	for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
		struct progress_re *re = progress_re_compile(patterns[p], err, sizeof err);
		CHECK(re != NULL);
		if (!re)
			continue;
		for (int k = 0; k < 20000; k++) {
			size_t len = (seed = seed * 1103515245u + 12345u) % 24;
			for (size_t i = 0; i < len; i++)
				line[i] = alphabet[(seed = seed * 1103515245u + 12345u) >> 16 & 0xf];
			const char *c1 = NULL, *c2 = NULL;
			size_t n1 = 0, n2 = 0;
			int f = progress_re_capture(re, line, len, &c1, &n1);
			int s = progress_re_capture_unfiltered(re, line, len, &c2, &n2);
			if (f != s || (f && (c1 != c2 || n1 != n2))) {
				test_failed(__FILE__, __LINE__, "pattern %s line \"%.*s\": filtered %d alone %d", patterns[p],
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

/* A saved run's series (start, each milestone, the end) replays to the live rows, and two
 * saved runs compare as the live --baseline table: the second against the first. */
TEST(track_saved_runs_replay_to_the_live_rows)
{
	struct record *r = record_new("track", 0, NULL);
	struct bench *b = record_add_bench(r, "replay");
	bench_set(b, "every", json_real(100));
	struct series *s = bench_series(b, "progress", "s", "");
	double x[] = { 0, 10, 30, 37 }, y[] = { 0, 100, 200, 250 }; /* 250: partial, at the end */
	for (size_t i = 0; i < 4; i++)
		series_add(s, x[i], y[i]);
	struct record *r2 = record_new("track", 0, NULL);
	struct bench *b2 = record_add_bench(r2, "replay");
	bench_set(b2, "every", json_real(100));
	struct series *s2 = bench_series(b2, "progress", "s", "");
	double x2[] = { 0, 12, 27, 30 };
	for (size_t i = 0; i < 4; i++)
		series_add(s2, x2[i], y[i]);
	metric_add(bench_metric(b2, "total_s", "s", LOWER_IS_BETTER), 31); /* ran on past its last line */

	struct track live;
	track_init(&live, 0, 100, s);
	track_start(&live, 0);
	track_point(&live, 0, 0);
	track_point(&live, 12, 100);
	track_point(&live, 27, 200);
	track_seen(&live, 250);
	track_finish(&live, 30);

	const struct bench *benches[] = { b, b2 };
	const char *names[] = { "a", "b" };
	struct track_cmp c;
	CHECK_EQ_INT(track_cmp_build(&c, benches, names, 2), 0);
	CHECK_EQ_INT(c.runs[1].nrows, live.nrows);
	for (size_t i = 0; i < live.nrows && i < c.runs[1].nrows; i++) {
		CHECK_NEAR(c.runs[1].rows[i].milestone, live.rows[i].milestone, 1e-9);
		CHECK_NEAR(c.runs[1].rows[i].seg_s, live.rows[i].seg_s, 1e-9);
		CHECK_NEAR(c.runs[1].rows[i].first_ratio, live.rows[i].first_ratio, 1e-9);
		CHECK_NEAR(c.runs[1].rows[i].base_diff_s, live.rows[i].base_diff_s, 1e-9);
	}
	CHECK_NEAR(c.runs[1].rows[1].base_diff_s, -5, 1e-9);  /* 15 s against 20 s */
	CHECK_NEAR(c.runs[1].rows[2].base_diff_s, -4, 1e-9);  /* 3 s against 7 s */
	CHECK(isnan(c.runs[0].rows[0].base_diff_s));         /* the baseline has none */
	CHECK_NEAR(c.total_s[0], 37, 1e-9);
	CHECK_NEAR(c.total_s[1], 31, 1e-9);
	CHECK_NEAR(c.total_s[1] - track_base_total(&c.runs[1]), -6, 1e-9);
	track_cmp_free(&c);
	track_free(&live);
	CHECK(track_replay(&live, r->benches[0], NULL) == 37);
	track_free(&live);
	bench_set(b, "every", json_string("x"));                 /* not a track run */
	CHECK(track_replay(&live, b, NULL) < 0);
	record_free(r);
	record_free(r2);
}

TEST(track_partial_segments_are_marked_and_compared_per_unit)
{
	struct track t;
	track_init(&t, 250, 100, NULL);
	track_point(&t, 0, 0);
	track_point(&t, 10, 100);
	track_point(&t, 30, 200);
	track_point(&t, 35, 250);                   /* the total: a 50-unit segment */
	CHECK_EQ_INT(t.nrows, 3);
	CHECK(!t.rows[0].partial && !t.rows[1].partial);
	CHECK(t.rows[2].partial);
	CHECK_NEAR(t.rows[2].span, 50, 1e-9);
	CHECK_NEAR(t.rows[1].first_ratio, 2, 1e-9);
	CHECK_NEAR(t.rows[2].first_ratio, 1, 1e-9); /* 5 s for 50 units is the first's pace */
	CHECK_EQ_INT(track_finish(&t, 40), 0);      /* nothing past the last row */
	track_free(&t);

	track_init(&t, 0, 100, NULL);
	track_point(&t, 0, 0);
	track_point(&t, 10, 100);
	track_seen(&t, 130);                        /* no milestone: its time is not taken */
	CHECK_EQ_INT(track_finish(&t, 16), 1);      /* the end: up to the highest value */
	CHECK_EQ_INT(t.nrows, 2);
	CHECK(t.rows[1].partial);
	CHECK_NEAR(t.rows[1].milestone, 130, 1e-9);
	CHECK_NEAR(t.rows[1].seg_s, 6, 1e-9);
	CHECK_NEAR(t.rows[1].first_ratio, 2, 1e-9); /* 6 s for 30 units against 10 s for 100 */
	CHECK_EQ_INT(track_finish(&t, 20), 0);      /* only once */
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

TEST(track_parse_time_by_hand_agrees_with_strptime)
{
	/* The numeric formats are parsed by hand; %b goes through strptime: both give the same. */
	double a, b;
	CHECK_EQ_INT(track_parse_time("2024-03-01 12:34:56", 19, "%F %T", &a), 0);
	CHECK_EQ_INT(track_parse_time("Mar 01 2024 12:34:56", 20, "%b %d %Y %H:%M:%S", &b), 0);
	CHECK_NEAR(a, b, 0);
	CHECK_NEAR(a, 1709296496, 0);
	CHECK_EQ_INT(track_parse_time("2000-02-29T23:59:59,5", 21, "%Y-%m-%dT%H:%M:%S", &a), 0);
	CHECK_NEAR(a, 951868799.5, 1e-6);
	CHECK_EQ_INT(track_parse_time("1969-12-31T23:59:59", 19, "%Y-%m-%dT%H:%M:%S", &a), 0);
	CHECK_NEAR(a, -1, 0);
	CHECK_EQ_INT(track_parse_time("24/01/03 05:00:27", 17, "%y/%m/%d %H:%M:%S", &a), 0);
	CHECK_NEAR(a, 1704258027, 0);
	CHECK_EQ_INT(track_parse_time("2024-13-01T00:00:00", 19, "%Y-%m-%dT%H:%M:%S", &a), -1);
	CHECK_EQ_INT(track_parse_time("2024-01-01X00:00:00", 19, "%Y-%m-%dT%H:%M:%S", &a), -1);
}

