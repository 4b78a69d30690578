/* fio's command line as fio 3.33 reads it: with glibc's getopt_long_only over the names fio
 * knows there -- its own switches (--output, --section, ...), every job option, and the options
 * of the engine loaded at that point. A word names an option with one dash or two, in full or
 * by an abbreviation that starts only one name (any two names make it ambiguous, even aliases
 * of one option); a word that names none may be one of fio's one-letter switches (-o FILE).
 *
 * Only names and whether they take a value live here (fio's, so abbreviations resolve as
 * fio's do); what a switch does is cmdline.c's, what a job option does the option table's. */
#ifndef NM_FIO_LONGOPTS_H
#define NM_FIO_LONGOPTS_H

#include <stddef.h>

/* How a name takes its value, as getopt does: none ("--minimal=1" is refused), required
 * ("--bs=4k" or "--bs 4k": the next word, whatever it is), optional (only "--hipri=1"). */
enum fio_arg { FIO_ARG_NONE, FIO_ARG_REQUIRED, FIO_ARG_OPTIONAL };

struct fio_word {
	const char *name;  /* the full name matched (static storage): "output-format", "bs" */
	enum fio_arg arg;
	int is_switch;     /* one of fio's own switches, not a job or engine option */
	int has_value;     /* the word carries the value: "--bs=4k", "-ofile" */
	const char *value; /* then that value (points into the word) */
	const char *rest;  /* a one-letter switch without a value followed by more letters ("-rP"):
	                    * the letters still to read as switches; else NULL */
};

/* w (a word that starts with '-' and is not "-" or "--"), with engine the fio name of the
 * engine loaded now (its options are among the names): 0 and *out, or -1 with fio's reason in
 * err ("--rwmix: ambiguous: rwmixread, rwmixwrite", "--foo: unrecognized option"). */
int fio_word_match(const char *w, const char *engine, struct fio_word *out, char *err, size_t errlen);

/* The letters of a "-rP" cluster after the first: each a one-letter switch. */
int fio_word_short(const char *letters, struct fio_word *out, char *err, size_t errlen);

/* Whether fio 3.33's engine ENGINE (fio's name for it: io_uring, posixaio) has the option
 * NAME (a name or alias; each engine's file lists fio's: io_engine_fio_options); and whether
 * NAME is an engine's option in fio at all (cmdprio is io_uring's and libaio's, not a job
 * option), so that an engine without it refuses it. */
int fio_engine_has_option(const char *engine, const char *name);
int fio_is_engine_option(const char *name);

/* Whether an engine nodemark runs has fio's name ENGINE (its options are then known). */
int fio_engine_known(const char *engine);

#endif
