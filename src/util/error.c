#include "util/error.h"
#include "util/color.h"

#include <stdio.h>
#include <stdlib.h>

static const char *current_command;

void nm_set_command(const char *cmd) { current_command = cmd; }
const char *nm_command(void) { return current_command; }

static void vreport(const char *kind, const char *fmt, va_list ap)
{
	char msg[1024];
	vsnprintf(msg, sizeof msg, fmt, ap);
	/* a warning's word in yellow; errors stay plain (they end the command anyway) */
	const char *on = *kind ? color_on(stderr, COLOR_WARN) : "", *off = *kind ? color_off(stderr) : "";
	if (current_command)
		fprintf(stderr, "nodemark: %s: %s%s%s%s\n", current_command, on, kind, off, msg);
	else
		fprintf(stderr, "nodemark: %s%s%s%s\n", on, kind, off, msg);
}

void nm_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void nm_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void nm_usage_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(NM_EXIT_USAGE);
}

int nm_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
		/* A message is one printable line, even when it quotes input with control bytes. */
		for (unsigned char *c = (unsigned char *)err; *c; c++)
			if (*c < 0x20 || *c == 0x7f)
				*c = '?';
	}
	return -1;
}
