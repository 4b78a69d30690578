/* fio's I/O logs on the engine's side (write_iolog, read_iolog): a thread records each I/O it
 * issues as a line of fio's iolog v3 text, or replays a log's I/Os in the log's order, spaced
 * as the log says unless no_stall. The front end (fio/iolog.c) reads a log into entries and
 * names its files as the job's targets (entry.file indexes them, in order), and opens the file
 * a record goes to. A job with neither has no trace (io_worker.trace NULL) and pays one
 * untaken branch per I/O (io/loop.c next_io). */
#ifndef NM_IO_REPLAY_H
#define NM_IO_REPLAY_H

#include <stddef.h>
#include <stdint.h>

/* What an entry does: an I/O of a direction (the io/dir.h values), a sync of its file, a wait,
 * or a file action (add, open, close: the files are open from the start, so only its delay). */
enum io_replay_act {
	IO_REPLAY_READ = 0,
	IO_REPLAY_WRITE = 1,
	IO_REPLAY_TRIM = 2,
	IO_REPLAY_SYNC,
	IO_REPLAY_DATASYNC,
	IO_REPLAY_WAIT,     /* v2's wait: until offset ms after the job began (as fio 3.33 reads it) */
	IO_REPLAY_FILE,
};

struct io_replay_entry {
	uint64_t offset;    /* bytes; a wait's time */
	uint64_t delay_us;  /* after the previous entry was issued (v3's time stamps); 0: at once */
	uint32_t len;
	uint16_t file;      /* index into io_job.targets */
	uint8_t act;        /* enum io_replay_act */
};

/* One log's entries. */
struct io_replay_log {
	const struct io_replay_entry *entries;
	size_t n;
};

/* io_job.replay. */
struct io_replay_spec {
	const struct io_replay_entry *entries; /* the log to replay, or NULL */
	size_t n;
	/* numjobs' threads with logs of their own (fio's read_iolog=a:b): thread t replays
	 * logs[t % nlogs]; nlogs 0: every thread replays entries (fio's one name) */
	const struct io_replay_log *logs;
	unsigned nlogs;
	int record;         /* write each issued I/O to record_fd, as fio's iolog v3 */
	int record_fd;
	/* numjobs > 1: thread t's lines go to record_fds[t] (0: record_fd), which the front end
	 * puts one after another, as fio's threads each append a whole log to the file */
	const int *record_fds;
	const char *record_name; /* the file, for messages */
};

#endif
