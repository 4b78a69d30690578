/* fio's value expansion (fio/expand.c, fio/arith.c): ${VAR}, $keywords with bc's arithmetic,
 * and "(...)" expressions, with the results fio 3.33 gives. */
#include "test.h"

#include <stdlib.h>

#include "fio/expand.h"
#include "fio/plan.h"

static const struct fio_sysvals sys = { .pagesize = 4096, .mb_memory = 64000, .ncpus = 8 };

static int expands_to(const char *line, const char *want)
{
	char *out = NULL, err[256] = "";
	int rc = fio_expand_line(line, &sys, &out, err, sizeof err);
	int same = rc == 0 && strcmp(out, want) == 0;
	if (!same)
		fprintf(stderr, "%s -> %s (%s), expected %s\n", line, out ? out : "(error)", err, want);
	free(out);
	return same;
}

static int expand_fails(const char *line)
{
	char *out = NULL, err[256] = "";
	int rc = fio_expand_line(line, &sys, &out, err, sizeof err);
	free(out);
	return rc < 0 && err[0];
}

TEST(fio_expand_env_vars_and_unset_ones_become_empty)
{
	setenv("NM_T_SIZE", "64m", 1);
	setenv("NM_T_KEY", "direct", 1);
	unsetenv("NM_T_UNSET");
	CHECK(expands_to("size=${NM_T_SIZE}", "size=64m"));
	CHECK(expands_to("description=a${NM_T_UNSET}b", "description=ab"));
	CHECK(expands_to("${NM_T_KEY}=1", "direct=1"));           /* the whole line, key too */
	CHECK(expands_to("size=${NM_T_SIZE", "size=${NM_T_SIZE")); /* no brace: kept */
	CHECK(expands_to("size=4k", "size=4k"));
	/* a value from the environment is not computed (only keywords send it to bc) */
	setenv("NM_T_SUM", "1+1", 1);
	CHECK(expands_to("description=${NM_T_SUM}", "description=1+1"));
}

TEST(fio_expand_keywords_and_their_arithmetic)
{
	CHECK(expands_to("bs=$pagesize", "bs=4096"));
	CHECK(expands_to("numjobs=$ncpus", "numjobs=8"));
	CHECK(expands_to("size=$mb_memory/2", "size=32000"));
	CHECK(expands_to("size=5*1024*1024*$mb_memory/8", "size=41943040000"));
	CHECK(expands_to("iodepth=($ncpus+2)*2", "iodepth=20"));
	CHECK(expands_to("size=$mb_memory", "size=64000"));
	CHECK(expands_to("size=${NM_T_UNSET}$ncpus", "size=8"));
	/* a keyword in something bc cannot compute: fio fails to parse it too */
	CHECK(expand_fails("filename=/tmp/$ncpus"));
	CHECK(expand_fails("size=$mb_memory/0"));
	CHECK(expand_fails("size=$mb_memory*2m"));
	/* fio leaves a line of 128 characters or more as it is */
	char line[200];
	snprintf(line, sizeof line, "description=%0120d+$ncpus", 1);
	char want[200];
	snprintf(want, sizeof want, "description=%0120d+8", 1);
	CHECK(expands_to(line, want));
}

TEST(fio_bc_is_whole_numbers_with_bcs_precedence)
{
	long long v;
	char err[128];
	CHECK(fio_bc_eval("2+3*4", &v, err, sizeof err) == 0);
	CHECK_EQ_INT(v, 14);
	CHECK(fio_bc_eval("(2+3)*4", &v, err, sizeof err) == 0);
	CHECK_EQ_INT(v, 20);
	CHECK(fio_bc_eval("-2^2", &v, err, sizeof err) == 0); /* bc: (-2)^2 */
	CHECK_EQ_INT(v, 4);
	CHECK(fio_bc_eval("2^3^2", &v, err, sizeof err) == 0); /* right to left */
	CHECK_EQ_INT(v, 512);
	CHECK(fio_bc_eval("7/2", &v, err, sizeof err) == 0);
	CHECK_EQ_INT(v, 3);
	CHECK(fio_bc_eval("7 % 4", &v, err, sizeof err) == 0);
	CHECK_EQ_INT(v, 3);
	CHECK(fio_bc_eval("1.5*2", &v, err, sizeof err) < 0);
	CHECK(fio_bc_eval("a*2", &v, err, sizeof err) < 0);
	CHECK(fio_bc_eval("99999999999*99999999999", &v, err, sizeof err) < 0);
}

static long long arith(const char *s, enum fio_arith_kind kind)
{
	long long v = -12345;
	char err[128] = "";
	if (fio_arith_eval(s, kind, &v, err, sizeof err) < 0)
		fprintf(stderr, "%s: %s\n", s, err);
	return v;
}

TEST(fio_arith_sizes_counts_and_fios_precedence)
{
	CHECK_EQ_INT(arith("(1+1)m", FIO_ARITH_NUMBER), 2 << 20);
	CHECK_EQ_INT(arith("(1+1k)", FIO_ARITH_NUMBER), 1025);      /* a unit binds tighter than + */
	CHECK_EQ_INT(arith("(2*3k)", FIO_ARITH_NUMBER), 6144);      /* ... and looser than * */
	CHECK_EQ_INT(arith("(7%4*2)", FIO_ARITH_NUMBER), 6);        /* % before * */
	CHECK_EQ_INT(arith("(2^10)", FIO_ARITH_NUMBER), 1024);
	CHECK_EQ_INT(arith("(1.5*4)", FIO_ARITH_NUMBER), 6);
	CHECK_EQ_INT(arith("(1.5k)", FIO_ARITH_NUMBER), 1024);      /* fio truncates a real before its unit */
	CHECK_EQ_INT(arith("(4KiB)", FIO_ARITH_NUMBER), 4000);      /* fio's inverted KiB */
	CHECK_EQ_INT(arith("(0x10*2)", FIO_ARITH_NUMBER), 32);
	CHECK_EQ_INT(arith("(-2+5)", FIO_ARITH_NUMBER), 3);
	CHECK_EQ_INT(arith("(8) # a comment", FIO_ARITH_NUMBER), 8);
	long long v;
	char err[128];
	CHECK(fio_arith_eval("(1+", FIO_ARITH_NUMBER, &v, err, sizeof err) < 0);
	CHECK(fio_arith_eval("(1))", FIO_ARITH_NUMBER, &v, err, sizeof err) < 0);
	CHECK(fio_arith_eval("(4/0)", FIO_ARITH_NUMBER, &v, err, sizeof err) < 0);
	CHECK(fio_arith_eval("(4q)", FIO_ARITH_NUMBER, &v, err, sizeof err) < 0);
	CHECK(fio_arith_eval("(3000000000)", FIO_ARITH_NUMBER, &v, err, sizeof err) < 0);
	char deep[1000];
	memset(deep, '(', sizeof deep - 1);
	deep[sizeof deep - 1] = '\0';
	CHECK(fio_arith_eval(deep, FIO_ARITH_NUMBER, &v, err, sizeof err) < 0);
}

TEST(fio_arith_times_in_microseconds)
{
	CHECK_EQ_INT(arith("(10+20)", FIO_ARITH_SECONDS), 30000000);  /* a bare number is seconds */
	CHECK_EQ_INT(arith("(1m)", FIO_ARITH_SECONDS), 60000000);     /* m is minutes in a time */
	CHECK_EQ_INT(arith("(2500ms)", FIO_ARITH_SECONDS), 2000000);  /* fio keeps whole seconds */
	CHECK_EQ_INT(arith("(500ms)", FIO_ARITH_USEC), 500000);
	CHECK_EQ_INT(arith("(10*2)", FIO_ARITH_USEC), 20);            /* think times count in us */
}

static int parse_text(struct fio_plan *p, const char *text, char *err, size_t errlen)
{
	fio_plan_init(p);
	if (fio_parse_jobfile_text(p, text, strlen(text), "t.fio", err, errlen) < 0)
		return -1;
	return fio_plan_finish(p, err, errlen);
}

TEST(fio_jobfile_values_are_expanded_and_computed)
{
	setenv("NM_T_BS", "8k", 1);
	struct fio_plan p;
	char err[512] = "";
	CHECK(parse_text(&p, "[a]\nbs=${NM_T_BS}\nsize=(1+1)m\nruntime=(1+2)\niodepth=(2*4)\n", err, sizeof err) == 0);
	CHECK_EQ_U64(p.jobs[0].io.bs[DIR_READ], 8192);
	CHECK_EQ_U64(p.jobs[0].io.size, 2 << 20);
	CHECK_EQ_U64(p.jobs[0].io.runtime_ns, 3000000000ull);
	CHECK_EQ_INT(p.jobs[0].io.iodepth, 8);
	/* the options shown back: expanded, but the expression as typed (fio's "job options") */
	CHECK_EQ_STR(p.jobs[0].opts.kv[0].value, "8k");
	CHECK_EQ_STR(p.jobs[0].opts.kv[1].value, "(1+1)m");
	fio_plan_free(&p);
	CHECK(parse_text(&p, "[a]\nsize=(1+)m\n", err, sizeof err) < 0);
	CHECK(strstr(err, "t.fio:2") != NULL);
	fio_plan_free(&p);
	CHECK(parse_text(&p, "[a]\nsize=1m\nrate=(1)m,(2)m\n", err, sizeof err) == 0);
	CHECK_EQ_U64(p.jobs[0].io.pace.rate_bps[DIR_READ], 1 << 20);
	CHECK_EQ_U64(p.jobs[0].io.pace.rate_bps[DIR_WRITE], 2 << 20);
	fio_plan_free(&p);
}
