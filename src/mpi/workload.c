/* What every workload needs the same way: the directory named on the command line, and each
 * rank's own directory under it. */
#include "mpi/workload.h"
#include "util/cleanup.h"
#include "util/error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void workload_check_dir(const char *dir, const char *workload)
{
	struct stat sb;
	if (!dir[0])
		nm_usage_fail("a directory is needed: nodemark-mpi %s DIR [options]", workload);
	if (stat(dir, &sb) < 0)
		nm_usage_fail("%s: %s", dir, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		nm_usage_fail("%s: not a directory", dir);
}

int workload_rank_dir(const char *dir, int rank, char *out, size_t outlen, int *made, char *err, size_t errlen)
{
	*made = 0;
	if ((size_t)snprintf(out, outlen, "%s/rank-%d", dir, rank) >= outlen)
		return nm_errf(err, errlen, "%s: path too long", dir);
	if (mkdir(out, 0700) == 0) {
		*made = 1;
		cleanup_add(out); /* removed at the end, and on a signal */
		return 0;
	}
	if (errno != EEXIST)
		return nm_errf(err, errlen, "%s: cannot create: %s", out, strerror(errno));
	struct stat sb;
	if (stat(out, &sb) < 0 || !S_ISDIR(sb.st_mode))
		return nm_errf(err, errlen, "%s: not a directory", out);
	return 0;
}
