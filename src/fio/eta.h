/* fio's status line while the jobs run (fio's eta.c behaviour, written from its documented
 * output): "Jobs: 1 (f=1): [r(1)][45.0%][r=45.3MiB/s][r=11.6k IOPS][eta 00m:11s]" on stdout,
 * redrawn in place ('\r', blanks over a longer line before it) every --eta-interval (1 s),
 * cleared before the report.  Shown when stdout is a terminal (--eta=auto), always with
 * --eta=always, never with --eta=never, and not when stdout takes only JSON or terse output. */
#ifndef NM_FIO_ETA_H
#define NM_FIO_ETA_H

#include <stdint.h>
#include <stdio.h>
#include "fio/sched.h"

struct fio_eta {
	uint64_t start_ns, prev_ns, newline_ns;
	uint64_t prev_bytes[3], prev_ios[3];
	int linelen_last;
	int eta_good; /* a percentage was shown: later 0 s left is 100%, not -.-% */
};

/* Whether the status line is shown for plan p; stdout_tty: isatty(1). */
int fio_eta_wanted(const struct fio_plan *p, int stdout_tty);

void fio_eta_begin(struct fio_eta *e);
/* The line at now_ns (the jobs' state from s), padded over the last one, without the '\r'. */
void fio_eta_line(struct fio_eta *e, struct fio_sched *s, uint64_t now_ns, char *buf, size_t len);
/* Draws the line on f ("\r" after it; a newline first every --eta-newline). */
void fio_eta_show(struct fio_eta *e, struct fio_sched *s, FILE *f);
/* Blanks the line out, so the report starts on a clean line. */
void fio_eta_clear(struct fio_eta *e, FILE *f);

/* The bytes moved so far by every job's threads, per direction (read, write, trim). */
void fio_eta_bytes(struct fio_sched *s, uint64_t bytes[3]);

/* "00m:11s", "01h:02m:03s", "01d:00h:00m:05s" (fio's eta_to_str, hours and days once needed). */
void fio_eta_str(uint64_t sec, char *buf, size_t len);

#endif
