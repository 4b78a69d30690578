/* Shared by the fio parser's files (options, plan, cmdline, jobfile); not for other layers. */
#ifndef NM_FIO_PARSE_UTIL_H
#define NM_FIO_PARSE_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "fio/plan.h"
#include "util/xalloc.h"

#define FIO_MAX_JOBS 4096
#define FIO_MAX_NUMJOBS 4096

/* At most 40 characters of user input for a message, non-printables as '?'. */
const char *fio_q(const char *s, char *buf, size_t len);
void fio_strv_push(char ***v, size_t *n, char *s);
void fio_strv_free(char **v, size_t n);

void fio_optlist_free(struct fio_optlist *l);
void fio_optlist_append(struct fio_optlist *l, const char *key, const char *value);
/* Replace the value in place when the key is there (fio's "global options": first position,
 * latest value), else append. */
void fio_optlist_set(struct fio_optlist *l, const char *key, const char *value);
void fio_optlist_copy(struct fio_optlist *dst, const struct fio_optlist *src);
const char *fio_optlist_get(const struct fio_optlist *l, const char *key, int *found);

/* fio's value syntax; each returns 0, or -1 with a message in err. */
int fio_parse_bool(const char *v, int *out, char *err, size_t errlen);   /* NULL (bare flag) = 1 */
int fio_need_value(const char *v, char *err, size_t errlen);
/* A CPU list's characters (digits, ',' and '-': "0-3,8"), as cpus_allowed and
 * log_compression_cpus take it; the numbers themselves are the caller's to check. */
int fio_cpu_list_chars(const char *v, char *err, size_t errlen);
/* Whether v's word before its first ':' (all of v without one) is name: "zipf:1.2" is "zipf". */
int fio_word_is(const char *v, const char *name);
int fio_size(const struct fio_job *j, const char *v, uint64_t *out, char *err, size_t errlen);
/* A whole number in [min, max], fio's size suffixes allowed (an option fio reads as INT/ULL). */
int fio_int(const struct fio_job *j, const char *v, uint64_t min, uint64_t max, uint64_t *out, char *err,
	    size_t errlen);
/* A whole number in [min, max], digits only (a field inside a value: bssplit's share, ...). */
int fio_count(const char *v, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen);
int fio_duration(const char *v, uint64_t *ns, char *err, size_t errlen); /* bare number: seconds */
const char *fio_job_strdup(struct fio_job *j, const char *s);           /* owned by the job */
/* fio's pattern syntax ("text", 'file', 0xHEX, decimal parts, one after another) into out,
 * at most max bytes; *len the bytes (fio/pattern_parse.c). */
int fio_parse_pattern(const char *v, uint8_t *out, unsigned max, unsigned *len, char *err, size_t errlen);

struct fio_job *fio_plan_add_job(struct fio_plan *p, const char *name, const struct fio_optlist *globals,
				 char *err, size_t errlen);
void fio_job_free(struct fio_job *j);

#endif
