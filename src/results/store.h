/* The results store: every run kept in SQLite (docs/schema.md).
 * Default path: $NODEMARK_DB, else $XDG_DATA_HOME/nodemark/results.db, else
 * ~/.local/share/nodemark/results.db.
 *
 * WAL mode, one transaction per run (a run is either all there or not there at all), a schema
 * version in PRAGMA user_version with migrations applied on open, and a busy timeout
 * ($NODEMARK_DB_BUSY_MS, default 10000) before a lock held by another process is an error.
 * Every failure comes back as a one-line message naming the file. */
#ifndef NM_RESULTS_STORE_H
#define NM_RESULTS_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "results/record.h"

#define STORE_SCHEMA_VERSION 1

struct store;

/* path NULL: the default path (directories created). Returns NULL with a message. */
struct store *store_open(const char *path, char *err, size_t errlen);
void store_close(struct store *s);
const char *store_default_path(char *buf, size_t len);

/* One transaction per run. Returns 0, or -1 with a message (a run with the same id already
 * stored is an error: see store_has). */
int store_save(struct store *s, const struct record *r, char *err, size_t errlen);

/* 1 when a run with exactly this id is stored, 0 when not, -1 with a message. */
int store_has(struct store *s, const char *id, char *err, size_t errlen);

/* A run by id, unique id prefix, label (newest with it) or "last" (see store_resolve_kind). NULL with a
 * message. */
struct record *store_load(struct store *s, const char *name, char *err, size_t errlen);
/* As store_load; a "last" without :KIND means the newest run of command kind (NULL: of any). */
struct record *store_load_kind(struct store *s, const char *name, const char *kind, char *err, size_t errlen);

/* The id that name means (as store_load), into id[24]. 0, or -1 with a message. */
int store_resolve(struct store *s, const char *name, char id[24], char *err, size_t errlen);
/* "last" is the newest run, "last:KIND" the newest run of that command (disk, track, ...), "~N" after
 * either the Nth before it.  A "last" without :KIND means kind_default's newest (NULL: any). */
int store_resolve_kind(struct store *s, const char *name, const char *kind_default, char id[24], char *err,
		       size_t errlen);
/* 1 when name is such a reference (kind[] the :KIND or "", *back the ~N or 0), 0 when it is no
 * reference, -1 when it starts like one but is malformed. */
int store_last_parse(const char *name, char kind[32], long *back);

/* Delete a run by exact id, in one transaction. 0, or -1 with a message. */
int store_delete(struct store *s, const char *id, char *err, size_t errlen);

/* Listing, newest first.  Every filter field is optional (NULL / 0 = any). */
struct store_filter {
	const char *host;
	const char *label;
	const char *command;
	const char *tag_keys[16];
	const char *tag_values[16];  /* NULL: the tag is set, to anything */
	size_t ntags;
	size_t limit;                /* 0: all */
};

struct run_summary {
	char id[24];
	int64_t time_ms;
	char *host, *command, *label, *cmdline;
	char *tags;                  /* "k=v,k=v", never NULL */
	size_t nbenches;
};

/* 0 with a malloc'd array (free with run_summaries_free), or -1 with a message. */
int store_list(struct store *s, const struct store_filter *f, struct run_summary **out, size_t *n,
	       char *err, size_t errlen);
void run_summaries_free(struct run_summary *v, size_t n);

#endif
