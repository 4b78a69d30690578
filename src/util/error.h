/* Error reporting and exit codes shared by every command.
 *
 * Every message is one line on stderr: "nodemark: <command>: <message>".  The command
 * part is set once by main.c before the subcommand runs, so deep layers need not know it. */
#ifndef NM_UTIL_ERROR_H
#define NM_UTIL_ERROR_H

#include <stdarg.h>
#include <stddef.h>

enum nm_exit {
	NM_EXIT_OK = 0,
	NM_EXIT_FAILED = 1,      /* the benchmark ran but failed: I/O error, command failed */
	NM_EXIT_USAGE = 2,       /* bad usage or input */
	NM_EXIT_INTERRUPTED = 130,
};

void nm_set_command(const char *cmd);
const char *nm_command(void); /* the command's name, or NULL; safe in a signal handler */

/* "nodemark: cmd: msg" on stderr. */
void nm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "nodemark: cmd: warning: msg" on stderr. */
void nm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* nm_error then exit(2): for bad usage found while parsing. Cleanup handlers still run. */
__attribute__((noreturn, format(printf, 1, 2))) void nm_usage_fail(const char *fmt, ...);

/* Format into a caller's error buffer; returns -1 so parsers can "return nm_errf(...)". */
int nm_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));


#endif
