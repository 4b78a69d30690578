/* The results store: every run kept in SQLite (docs/schema.md).
 * Default path: $NODEMARK_DB, else $XDG_DATA_HOME/nodemark/results.db, else
 * ~/.local/share/nodemark/results.db. */
#ifndef NM_RESULTS_STORE_H
#define NM_RESULTS_STORE_H

#include <stddef.h>
#include "results/record.h"

struct store;

/* path NULL: the default path (directories created). Returns NULL with a message. */
struct store *store_open(const char *path, char *err, size_t errlen);
void store_close(struct store *s);
const char *store_default_path(char *buf, size_t len);

/* One transaction per run. Returns 0, or -1 with a message. */
int store_save(struct store *s, const struct record *r, char *err, size_t errlen);

/* A run by id, unique id prefix, label (newest with it) or "last". NULL with a message. */
struct record *store_load(struct store *s, const char *name, char *err, size_t errlen);

#endif
