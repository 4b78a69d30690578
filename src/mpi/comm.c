#include "mpi/comm.h"
#include "util/clock.h"
#include "util/error.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MSG_LEN 512

void comm_init(struct comm *c, int *argc, char ***argv)
{
	memset(c, 0, sizeof *c);
	if (MPI_Init(argc, argv) != MPI_SUCCESS) {
		nm_error("MPI_Init failed");
		exit(NM_EXIT_FAILED);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->size);
	gethostname(c->host, sizeof c->host - 1);

	char *all = malloc((size_t)c->size * sizeof c->host);
	MPI_Allgather(c->host, sizeof c->host, MPI_CHAR, all, sizeof c->host, MPI_CHAR, MPI_COMM_WORLD);
	c->hosts = calloc((size_t)c->size + 1, sizeof *c->hosts);
	c->host_leader = 1;
	for (int r = 0; r < c->size; r++) {
		c->hosts[r] = strdup(all + (size_t)r * sizeof c->host);
		if (r < c->rank && strcmp(c->hosts[r], c->host) == 0)
			c->host_leader = 0;
	}
	free(all);
}

void comm_finalize(struct comm *c)
{
	for (int r = 0; c->hosts && r < c->size; r++)
		free(c->hosts[r]);
	free(c->hosts);
	c->hosts = NULL;
	MPI_Finalize();
}

uint64_t comm_barrier(void)
{
	MPI_Barrier(MPI_COMM_WORLD);
	return clock_now_ns();
}

int comm_agree(const struct comm *c, int status, const char *msg)
{
	int worst = 0;
	MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (!worst)
		return 0;

	char mine[MSG_LEN] = "";
	if (status && msg)
		snprintf(mine, sizeof mine, "%s", msg);
	int *st = c->rank == 0 ? malloc((size_t)c->size * sizeof *st) : NULL;
	char *msgs = c->rank == 0 ? malloc((size_t)c->size * MSG_LEN) : NULL;
	MPI_Gather(&status, 1, MPI_INT, st, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Gather(mine, MSG_LEN, MPI_CHAR, msgs, MSG_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (c->rank == 0) {
		for (int r = 0; r < c->size; r++) {
			const char *m = msgs + (size_t)r * MSG_LEN;
			if (st[r] == NM_EXIT_INTERRUPTED)
				nm_error("rank %d (%s): interrupted", r, c->hosts[r]);
			else if (st[r])
				nm_error("rank %d (%s): %s", r, c->hosts[r], *m ? m : "failed");
		}
	}
	free(st);
	free(msgs);
	return worst;
}

void comm_gather(const struct comm *c, const void *mine, size_t len, void *all)
{
	MPI_Gather(mine, (int)len, MPI_BYTE, c->rank == 0 ? all : NULL, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
}

char **comm_gather_strings(const struct comm *c, const char *mine)
{
	int len = (int)strlen(mine) + 1;
	int *lens = NULL, *displs = NULL;
	char *buf = NULL, **out = NULL;

	if (c->rank == 0) {
		lens = malloc((size_t)c->size * sizeof *lens);
		displs = malloc((size_t)c->size * sizeof *displs);
	}
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (c->rank == 0) {
		size_t total = 0;
		for (int r = 0; r < c->size; r++) {
			displs[r] = (int)total;
			total += (size_t)lens[r];
		}
		buf = malloc(total ? total : 1);
	}
	MPI_Gatherv(mine, len, MPI_CHAR, buf, lens, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (c->rank == 0) {
		out = calloc((size_t)c->size + 1, sizeof *out);
		for (int r = 0; r < c->size; r++)
			out[r] = strdup(buf + displs[r]);
	}
	free(lens);
	free(displs);
	free(buf);
	return out;
}

char *comm_bcast_string(const struct comm *c, const char *s)
{
	int len = c->rank == 0 ? (int)strlen(s) + 1 : 0;
	MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
	char *buf = malloc((size_t)len);
	if (c->rank == 0)
		memcpy(buf, s, (size_t)len);
	MPI_Bcast(buf, len, MPI_CHAR, 0, MPI_COMM_WORLD);
	return buf;
}

/* --- stonewalling: every rank tells every other one when it is done; the first message a rank
 * gets is its signal to stop, and at the end each rank takes in all size-1 of them. */

static struct {
	int active, size, rank, tag, hit, got_first;
	MPI_Request first;
} wall;

void comm_stonewall_begin(const struct comm *c, unsigned phase)
{
	memset(&wall, 0, sizeof wall);
	wall.size = c->size;
	wall.rank = c->rank;
	wall.tag = 100 + (int)(phase % 30000);
	if (c->size < 2)
		return;
	static char sink;
	MPI_Irecv(&sink, 1, MPI_CHAR, MPI_ANY_SOURCE, wall.tag, MPI_COMM_WORLD, &wall.first);
	wall.active = 1;
}

int comm_stonewall_hit(void)
{
	if (!wall.active || wall.hit)
		return wall.hit;
	int flag = 0;
	MPI_Test(&wall.first, &flag, MPI_STATUS_IGNORE);
	if (flag)
		wall.hit = wall.got_first = 1;
	return wall.hit;
}

void comm_stonewall_end(void)
{
	if (!wall.active)
		return;
	static const char done = 1;
	MPI_Request *sends = malloc((size_t)wall.size * sizeof *sends);
	int n = 0;
	for (int r = 0; r < wall.size; r++)
		if (r != wall.rank)
			MPI_Isend(&done, 1, MPI_CHAR, r, wall.tag, MPI_COMM_WORLD, &sends[n++]);
	if (!wall.got_first)
		MPI_Wait(&wall.first, MPI_STATUS_IGNORE);
	char sink;
	for (int i = 1; i < wall.size - 1; i++)
		MPI_Recv(&sink, 1, MPI_CHAR, MPI_ANY_SOURCE, wall.tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Waitall(n, sends, MPI_STATUSES_IGNORE);
	free(sends);
	wall.active = 0;
}
