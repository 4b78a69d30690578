/* What fio does to option values before it reads them (internal to src/fio/):
 *
 *  - in job files, ${VAR} becomes the environment variable's value (nothing when unset), then
 *    fio's keywords $pagesize, $mb_memory and $ncpus become this machine's figures, and a
 *    value a keyword went into that has + - * or / in it is computed the way fio has bc do it
 *    (whole numbers: "size=$mb_memory/2" is half the memory in MiB);
 *  - anywhere (job files and the command line), a number of a numeric option given as an
 *    expression in parentheses, "(1+1)m", is computed with fio's own arithmetic: sizes and
 *    time units inside, floats, + - * / % ^.
 *
 * None of it prints or exits; problems come back as one line in err. */
#ifndef NM_FIO_EXPAND_H
#define NM_FIO_EXPAND_H

#include <stddef.h>

/* The figures fio's keywords stand for. */
struct fio_sysvals {
	unsigned long long pagesize;    /* $pagesize: bytes */
	unsigned long long mb_memory;   /* $mb_memory: physical memory in MiB */
	unsigned long long ncpus;       /* $ncpus: CPUs configured (fio's count, online or not) */
};

/* This machine's figures, as fio reads them (sysconf). */
void fio_sysvals_get(struct fio_sysvals *sv);

/* A job-file option line ("key=value" or a bare key) after fio's expansion, malloc'd into
 * *out (a copy when there is nothing to expand). 0, or -1 with a message in err. */
int fio_expand_line(const char *line, const struct fio_sysvals *sv, char **out, char *err, size_t errlen);

/* bc's whole-number arithmetic, as fio pipes a keyword's value through it: + - * / % ^ and
 * parentheses, / truncating. 0, or -1 with err (letters, fractions, division by zero). */
int fio_bc_eval(const char *s, long long *out, char *err, size_t errlen);

/* What a "(...)" value is: a size or count, or a time whose bare number is microseconds
 * (thinktime) or seconds (runtime: fio keeps whole seconds of the result). */
enum fio_arith_kind { FIO_ARITH_NUMBER, FIO_ARITH_USEC, FIO_ARITH_SECONDS };

/* fio's "(...)" arithmetic (its expression parser): *out is the value as fio stores it, bytes
 * or a count (FIO_ARITH_NUMBER), else microseconds. s starts with '('. 0, or -1 with err. */
int fio_arith_eval(const char *s, enum fio_arith_kind kind, long long *out, char *err, size_t errlen);

#endif
