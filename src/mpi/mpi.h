/* The MPI build (make mpi -> build/nodemark-mpi): main.c hands every command here.
 *
 * disk, pieces and hash run on every rank at once, in phases that start together after a
 * barrier; rank 0 reduces the results, prints the aggregate and the per-rank and per-host
 * tables and saves one run.  Every other command runs on rank 0 alone.  Started without
 * mpirun, the binary is a job of one rank. */
#ifndef NM_MPI_MPI_H
#define NM_MPI_MPI_H

int mpi_main(const char *name, int (*fn)(int, char **), const char *usage, int argc, char **argv);

#endif
