/* The MPI calls nodemark makes, in one place: who we are, barriers, agreeing on failure so no
 * rank waits forever for one that gave up, gathering results on rank 0, and the stonewall
 * messages (the first rank done tells the others to stop). */
#ifndef NM_MPI_COMM_H
#define NM_MPI_COMM_H

#include <stddef.h>
#include <stdint.h>

struct comm {
	int rank, size;
	char host[256];
	char **hosts;           /* every rank's host name, hosts[r] */
	int host_leader;        /* no lower rank is on this host: this rank describes the host */
};

/* MPI_Init and who is where. Exits 1 with a message when MPI cannot start. */
void comm_init(struct comm *c, int *argc, char ***argv);
void comm_finalize(struct comm *c);

/* A barrier; returns this rank's monotonic time at its exit (the phase's time zero). */
uint64_t comm_barrier(void);

/* Every rank says how its step went (0 ok, 1 failed, 130 interrupted, with a message);
 * all get the worst status back.  On failure rank 0 prints each failing rank's
 * "rank R (host): message" line.  Collective: every rank must call it at the same step. */
int comm_agree(const struct comm *c, int status, const char *msg);

/* Rank 0 gets every rank's len bytes at mine, into all (size * len bytes); others pass NULL. */
void comm_gather(const struct comm *c, const void *mine, size_t len, void *all);

/* Rank 0 gets every rank's string (NULL-terminated array of malloc'd strings); others NULL. */
char **comm_gather_strings(const struct comm *c, const char *mine);

/* Rank 0's string to every rank (malloc'd). */
char *comm_bcast_string(const struct comm *c, const char *s);

/* Stonewalling: between begin and end, comm_stonewall_hit() turns true on every rank as soon
 * as any rank called comm_stonewall_end() (it finished).  end waits for every rank's message,
 * so nothing is left in flight for the next phase. */
void comm_stonewall_begin(const struct comm *c, unsigned phase);
int comm_stonewall_hit(void);
void comm_stonewall_end(void);

#endif
