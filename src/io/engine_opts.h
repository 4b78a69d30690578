/* io_job.eng: where the options of one engine or another go (fio's engine options), read by
 * that engine's file alone: uring.c, libaio.c, cpuio.c, exec.c, fileops.c (filestat), net.c. Each of
 * those files declares its options (names, types, ranges, help) in its own table; this is
 * only their storage, so a job can hold any engine's options before its engine is known. */
#ifndef NM_IO_ENGINE_OPTS_H
#define NM_IO_ENGINE_OPTS_H

enum io_stat_type { STAT_STAT = 0, STAT_LSTAT, STAT_STATX };
enum io_net_proto { NET_TCP = 0, NET_UDP, NET_UNIX, NET_TCPV6, NET_UDPV6 };

/* 0 is fio's default unless said. */
struct io_engine_opts {
	/* uring (fio's io_uring options) */
	int fixedbufs, registerfiles, sqpoll, hipri;
	/* libaio */
	int aio_nowait;              /* RWF_NOWAIT on each read and write (fio's nowait) */
	/* cpuio */
	unsigned cpuload;           /* percent of a CPU each thread burns; required */
	unsigned cpuchunk_us;       /* one burn; 0: 50000 (fio's cpuchunks) */
	int cpumode_qsort;          /* 0: spin (fio's noop); 1: sort an array (qsort) */
	int exit_on_io_done;        /* stop once the jobs that do I/O are done */
	/* exec */
	const char *program, *arguments; /* arguments: %r the runtime in s, %n the job's name */
	unsigned grace_time_s;           /* SIGTERM, then this long before SIGKILL; fio's default 1 */
	int std_redirect;           /* 1 (fio's default): NAME.stdout and NAME.stderr in the cwd */
	/* filestat */
	int stat_type;                  /* enum io_stat_type */
	/* net */
	const char *hostname;       /* peer (or multicast group); a path for protocol unix */
	unsigned port;
	int proto;                  /* enum io_net_proto */
	int listen, pingpong, nodelay;
	unsigned ttl;               /* multicast; fio's default 1 */
	const char *interface;      /* multicast: the interface's address */
	unsigned window_size, mss;
};

#endif
