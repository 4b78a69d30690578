/* Placeholder: this command is being built (see the issue that names it). */
#include "cmd/cmd.h"
#include "util/error.h"

const char cmd_compare_usage[] = "usage: nodemark compare [options]\n\n(not built yet)\n";

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	nm_error("not built yet");
	return NM_EXIT_USAGE;
}
