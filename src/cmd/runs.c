/* Placeholder: this command is being built (see the issue that names it). */
#include "cmd/cmd.h"
#include "util/error.h"

const char cmd_runs_usage[] = "usage: nodemark runs [options]\n\n(not built yet)\n";

int cmd_runs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	nm_error("not built yet");
	return NM_EXIT_USAGE;
}
