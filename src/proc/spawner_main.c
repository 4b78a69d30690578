/* nodemark-spawn: the spawner as a program of its own (see proc/spawner.h), linked statically so
 * its address space, which every command shares until its exec, is a few hundred KiB.
 * nodemark embeds it (spawner_blob.c) and runs it as: nodemark-spawn FD (its end of the socket). */
#include "proc/spawner_proto.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	spawner_serve(atoi(argv[1]), 0);
}
