/* The spawner: a small process that starts nodemark's children, so their peak memory is their own.
 *
 * Linux gives a child's ru_maxrss the memory high-water mark of the address space it replaced at
 * exec.  After posix_spawn (vfork), that address space is the parent's: every child of a 4 MiB
 * nodemark "peaks" at 4 MiB or more, and at 200 MiB when nodemark holds 200 MiB.  So nodemark
 * runs nodemark-spawn (spawner_main.c: a static program, embedded by spawner_blob.c, executed
 * from a memfd; a few hundred KiB resident) once, and it starts each command with
 * clone(CLONE_VM | CLONE_VFORK | CLONE_PARENT): the command shares the spawner's small address
 * space until its exec, as a vfork child does, and is a child of nodemark itself (CLONE_PARENT),
 * which waits for it, reads /proc/PID/io and reaps it as before.  Where the helper cannot be
 * executed, the fork that was to become it serves instead (a copy of nodemark as it was then).
 *
 * The spawner reads the clock just before clone(), so the measured interval is unchanged (spawn
 * to wait); asking it and hearing back (a few microseconds of socket round trip) happen outside.
 * The request carries the argv, the environment and the descriptors for the child's 0, 1, 2; the
 * spawner keeps nodemark's working directory, umask and limits as they were when it started
 * (nodemark changes none of them), and the inheritable descriptors nodemark had then.
 * It has every signal blocked (the command unblocks them just before exec) and exits when
 * nodemark closes the socket or exits. */
#ifndef NM_PROC_SPAWNER_H
#define NM_PROC_SPAWNER_H

#include <stdint.h>
#include <sys/types.h>

/* Start the spawner now (once; spawn_start calls it too).  Call it early: the fork that executes
 * the helper copies nodemark as it is, and so does the fallback.  Returns 0, or -1 (spawn_start
 * then spawns directly).  NODEMARK_SPAWNER=fork skips the helper, =off the spawner (to compare);
 * NODEMARK_TEST_BALLAST_MIB=N then makes nodemark hold N MiB, for the tests. */
int spawner_start(void);

/* Start argv[0] (a path) with envp, its fds 0, 1, 2 being fds[0..2] (ours; they are passed
 * over the socket).  Returns 0 with *pid (our child) and *t0 (the clock just before the clone);
 * an errno when the exec failed (the child is reaped); -1 when there is no spawner to ask. */
int spawner_spawn(char *const argv[], char *const envp[], const int fds[3], pid_t *pid, uint64_t *t0);

/* Close the socket and reap the spawner (also at exit). */
void spawner_stop(void);

#endif
