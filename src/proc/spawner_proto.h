/* The request and reply between nodemark (src/proc/spawner.c) and its spawner
 * (src/proc/spawner_serve.c, in the static helper or in a fork of nodemark). */
#ifndef NM_PROC_SPAWNER_PROTO_H
#define NM_PROC_SPAWNER_PROTO_H

#include <stddef.h>
#include <stdint.h>

/* nodemark -> spawner: this header (the child's three descriptors ride on it as SCM_RIGHTS),
 * then len bytes: argc NUL-terminated arguments, then envc NUL-terminated environment strings. */
struct spawn_request {
	uint32_t argc, envc;
	uint64_t len;
};

/* spawner -> nodemark */
struct spawn_reply {
	int32_t pid; /* -1: clone failed */
	int32_t err; /* errno of clone or exec; 0 when the command is running */
	uint64_t t0; /* CLOCK_MONOTONIC just before the clone */
};

/* Serve requests on fd until EOF, then _exit. forked: this is a fork of nodemark (the helper
 * could not be executed), which must first drop nodemark's signal handlers and close-on-exec
 * descriptors. */
_Noreturn void spawner_serve(int fd, int forked);

int spawner_read_full(int fd, void *buf, size_t n);
int spawner_write_full(int fd, const void *buf, size_t n);

#endif
