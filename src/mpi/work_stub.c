/* Placeholders until the I/O engine and the piece store are on main. */
#include "mpi/workload.h"
#include "util/error.h"

#include <stdlib.h>

static const struct opt_spec none[] = { { 0 } };

static void *stub_create(void)
{
	return NULL;
}

static void stub_option(void *st, int id, const struct opt_iter *it)
{
}

static void stub_check(void *st, struct work_ctx *ctx)
{
	nm_usage_fail("not built yet under MPI");
}

const struct workload work_disk = { .name = "disk", .usage = "usage: nodemark-mpi disk (not built yet)\n",
				    .specs = none, .create = stub_create, .option = stub_option,
				    .check = stub_check };
const struct workload work_pieces = { .name = "pieces", .usage = "usage: nodemark-mpi pieces (not built yet)\n",
				      .specs = none, .create = stub_create, .option = stub_option,
				      .check = stub_check };
