/* Placeholder: this command is being built (see the issue that names it). */
#include "cmd/cmd.h"
#include "util/error.h"

const char cmd_show_usage[] = "usage: nodemark show [options]\n\n(not built yet)\n";

int cmd_show(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	nm_error("not built yet");
	return NM_EXIT_USAGE;
}
