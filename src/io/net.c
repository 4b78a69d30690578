/* fio's net engine: a write sends bs bytes to the peer, a read receives them (fio's
 * ioengine=net, TCP, UDP and unix sockets).
 *
 * TCP: the job with listen=1 binds port= (thread i: port + i, as fio's numjobs) and waits
 * for one connection before it starts; the other connects to hostname=.  UDP: readers bind
 * (and join hostname= when it is a multicast group), writers send to hostname=.  unix:
 * hostname= is the socket's path.  As fio, a UDP writer announces itself with an "open"
 * message and ends with a "close" one, which ends the reader's job; a TCP reader's job ends
 * when the peer closes.  pingpong=1: each message is answered (the reader sends it back, the
 * writer waits for the answer), so the latency is a round trip.  The messages are fio's, so a
 * nodemark job can talk to a fio job.  Waiting for the peer minds Ctrl-C and the stop flag. */
#include "io/internal.h"
#include "io/ticks.h"
#include "util/cleanup.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* fio's link messages: magic and command, 8 bytes (open in network order, close little-endian,
 * as fio sends them). */
#define LINK_MAGIC 0x6c696e6bu
#define LINK_OPEN 0x98u
#define LINK_CLOSE 0x89u

/* fio's net options (the table is at the end) */
enum io_net_proto { NET_TCP = 0, NET_UDP, NET_UNIX, NET_TCPV6, NET_UDPV6 };
struct net_opts {
	const char *hostname;       /* peer (or multicast group); a path for protocol unix */
	unsigned port;
	int proto;                  /* enum io_net_proto */
	int listen, pingpong, nodelay;
	unsigned ttl;               /* multicast; fio's default 1 */
	const char *interface;      /* multicast: the interface's address */
	unsigned window_size, mss;
};
IO_ENGINE_OPTS_FIT(struct net_opts);

struct net_state {
	int fd, listenfd;
	struct sockaddr_storage peer;  /* UDP: where writes go (a reader: the last sender) */
	socklen_t peerlen;
	int udp, reader;
};

static int is_udp(enum io_net_proto p)
{
	return p == NET_UDP || p == NET_UDPV6;
}

static int fail(struct io_worker *w, int e, const char *what)
{
	const char *host = IO_WORKER_OPTS(w, struct net_opts)->hostname;
	snprintf(w->err, sizeof w->err, "net %s%sport %u: %s: %s", host ? host : "", host ? " " : "",
		 IO_WORKER_OPTS(w, struct net_opts)->port + w->index, what, strerror(e));
	return -e;
}

/* Wait until fd is ready for events: 0, or -EINTR when the run is stopped or interrupted. */
static int wait_ready(struct io_worker *w, int fd, short events)
{
	for (;;) {
		if (io_worker_stopping(w))
			return -EINTR;
		struct pollfd p = { .fd = fd, .events = events };
		int n = poll(&p, 1, 100);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* Why wait_ready gave up: interrupted (EINTR: the run ends as interrupted), or the runtime
 * passed with no peer (ETIMEDOUT), or poll's own error. */
static int give_up_reason(int rc)
{
	if (rc != -EINTR)
		return -rc;
	return cleanup_interrupted() ? EINTR : ETIMEDOUT;
}

static int resolve(struct io_worker *w, struct net_state *st, int family, int type)
{
	const struct net_opts *o = IO_WORKER_OPTS(w, struct net_opts);
	char port[8];
	snprintf(port, sizeof port, "%u", o->port + w->index);
	struct addrinfo hints = { .ai_family = family, .ai_socktype = type }, *ai;
	int rc = getaddrinfo(o->hostname, port, &hints, &ai);
	if (rc != 0) {
		snprintf(w->err, sizeof w->err, "net: %s: %s", o->hostname, gai_strerror(rc));
		return -EINVAL;
	}
	memcpy(&st->peer, ai->ai_addr, ai->ai_addrlen);
	st->peerlen = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static void tune(const struct net_opts *o, int fd, int tcp)
{
	int one = 1, ws = (int)o->window_size, mss = (int)o->mss;
	/* a blocked send or receive comes back every 100 ms to look at the stop flag */
	struct timeval tv = { 0, 100000 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (tcp && o->nodelay)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (ws) {
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &ws, sizeof ws);
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &ws, sizeof ws);
	}
	if (tcp && mss)
		setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof mss);
}

static int is_multicast(const char *host)
{
	struct in_addr a;
	return host && inet_aton(host, &a) && IN_MULTICAST(ntohl(a.s_addr));
}

/* The receiving side: bind (and for TCP, accept one peer; for UDP, wait for its open). */
static int net_listen(struct io_worker *w, struct net_state *st, int family, int type)
{
	const struct net_opts *o = IO_WORKER_OPTS(w, struct net_opts);
	int fd = socket(family, type | SOCK_CLOEXEC, 0), one = 1;
	if (fd < 0)
		return fail(w, errno, "socket");
	st->listenfd = fd;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
	tune(o, fd, !st->udp);
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	if (family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_any;
		s6->sin6_port = htons((uint16_t)(o->port + w->index));
		len = sizeof *s6;
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
		s4->sin_family = AF_INET;
		s4->sin_addr.s_addr = htonl(INADDR_ANY);
		s4->sin_port = htons((uint16_t)(o->port + w->index));
		len = sizeof *s4;
		if (st->udp && is_multicast(o->hostname)) {
			struct ip_mreq mr = { 0 };
			inet_aton(o->hostname, &mr.imr_multiaddr);
			s4->sin_addr = mr.imr_multiaddr;
			mr.imr_interface.s_addr = htonl(INADDR_ANY);
			if (o->interface && !inet_aton(o->interface, &mr.imr_interface))
				return fail(w, EINVAL, "interface= is not an IPv4 address");
			if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof mr) < 0)
				return fail(w, errno, "joining the multicast group");
		}
	}
	if (bind(fd, (struct sockaddr *)&ss, len) < 0)
		return fail(w, errno, "bind");
	if (st->udp) {
		st->fd = fd;
		st->listenfd = -1;
		uint32_t msg[2];
		int rc = wait_ready(w, fd, POLLIN); /* the writer's open */
		if (rc < 0)
			return fail(w, give_up_reason(rc), "waiting for the writer's open");
		st->peerlen = sizeof st->peer;
		if (recvfrom(fd, msg, sizeof msg, 0, (struct sockaddr *)&st->peer, &st->peerlen) != sizeof msg ||
		    ntohl(msg[0]) != LINK_MAGIC || ntohl(msg[1]) != LINK_OPEN)
			return fail(w, EPROTO, "the first message is not the writer's open");
		return 0;
	}
	if (listen(fd, 10) < 0)
		return fail(w, errno, "listen");
	int rc = wait_ready(w, fd, POLLIN);
	if (rc < 0)
		return fail(w, give_up_reason(rc), "waiting for a connection");
	st->fd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	if (st->fd < 0)
		return fail(w, errno, "accept");
	tune(o, st->fd, 1);
	return 0;
}

static int net_connect(struct io_worker *w, struct net_state *st, int family, int type)
{
	const struct net_opts *o = IO_WORKER_OPTS(w, struct net_opts);
	if (family == AF_UNIX) {
		struct sockaddr_un *su = (struct sockaddr_un *)&st->peer;
		su->sun_family = AF_UNIX;
		snprintf(su->sun_path, sizeof su->sun_path, "%s", o->hostname);
		st->peerlen = sizeof *su;
	} else {
		int rc = resolve(w, st, family, type);
		if (rc < 0)
			return rc;
	}
	st->fd = socket(family, type | SOCK_CLOEXEC, 0);
	if (st->fd < 0)
		return fail(w, errno, "socket");
	tune(o, st->fd, !st->udp && family != AF_UNIX);
	if (st->udp) {
		unsigned char ttl = (unsigned char)o->ttl;
		if (is_multicast(o->hostname)) {
			struct in_addr ifa;
			if (o->interface && (!inet_aton(o->interface, &ifa) ||
					     setsockopt(st->fd, IPPROTO_IP, IP_MULTICAST_IF, &ifa, sizeof ifa) < 0))
				return fail(w, EINVAL, "interface=");
			setsockopt(st->fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl);
		}
		uint32_t msg[2] = { htonl(LINK_MAGIC), htonl(LINK_OPEN) };
		if (sendto(st->fd, msg, sizeof msg, 0, (struct sockaddr *)&st->peer, st->peerlen) < 0)
			return fail(w, errno, "sending the open message");
		return 0;
	}
	if (connect(st->fd, (struct sockaddr *)&st->peer, st->peerlen) < 0)
		return fail(w, errno, "connect");
	return 0;
}

/* fio's rules for a net job, checked before anything runs. */
static int net_check(const struct io_job *job, const void *opts, char *err, size_t errlen)
{
	const struct net_opts *o = opts;
	if (io_job_random(job))
		return snprintf(err, errlen, "the net engine cannot do random I/O"), -1;
	if (o->proto == NET_UNIX ? !o->hostname : !o->port)
		return snprintf(err, errlen, "the net engine needs %s",
				o->proto == NET_UNIX ? "hostname= (the socket's path)" : "port="), -1;
	if (o->proto == NET_UNIX && o->listen)
		return snprintf(err, errlen, "listening on a unix socket is not supported"), -1;
	if (is_udp(o->proto) && (job->rw == IO_RW || o->listen))
		return snprintf(err, errlen, "%s", o->listen ? "listen is for TCP (UDP readers bind anyway)"
								: "a UDP job either reads or writes"), -1;
	if (!is_udp(o->proto) && !o->listen && !o->hostname)
		return snprintf(err, errlen, "the net engine needs hostname= or listen"), -1;
	if (o->pingpong && job->rw == IO_RW)
		return snprintf(err, errlen, "pingpong needs a job that reads or writes, not both"), -1;
	return 0;
}

static int net_setup(struct io_worker *w)
{
	const struct net_opts *o = IO_WORKER_OPTS(w, struct net_opts);
	const struct io_job *job = w->job;
	struct net_state *st = calloc(1, sizeof *st);
	if (!st)
		return -ENOMEM;
	st->fd = st->listenfd = -1;
	st->udp = is_udp(o->proto);
	w->engine_data = st;
	int family = o->proto == NET_UNIX ? AF_UNIX : o->proto == NET_TCPV6 || o->proto == NET_UDPV6 ? AF_INET6 : AF_INET;
	int type = st->udp ? SOCK_DGRAM : SOCK_STREAM;
	int listening = st->udp ? job->rw == IO_READ : o->listen;
	st->reader = job->rw == IO_READ;
	if (job->runtime_ns) /* wait for the peer no longer than the job would run */
		w->deadline = ticks_now() + ticks_from_ns(job->ramp_ns + job->runtime_ns);
	return listening ? net_listen(w, st, family, type) : net_connect(w, st, family, type);
}

/* One message either way; the bytes moved, 0 when the peer closed or the run is over while
 * waiting, or -errno. */
static int64_t xfer(struct io_worker *w, struct net_state *st, struct io_req *r, int dir)
{
	for (;;) {
		ssize_t n;
		if (dir == DIR_WRITE)
			n = st->udp ? sendto(st->fd, r->buf, r->len, 0, (struct sockaddr *)&st->peer, st->peerlen)
				    : send(st->fd, r->buf, r->len, MSG_NOSIGNAL);
		else if (st->udp && st->reader) { /* answers (pingpong) go to the last sender */
			st->peerlen = sizeof st->peer;
			n = recvfrom(st->fd, r->buf, r->len, 0, (struct sockaddr *)&st->peer, &st->peerlen);
		} else if (st->udp)
			n = recvfrom(st->fd, r->buf, r->len, 0, NULL, NULL);
		else
			n = recv(st->fd, r->buf, r->len, MSG_WAITALL);
		if (n >= 0)
			return n;
		if ((errno == EAGAIN || errno == EWOULDBLOCK) && io_worker_stopping(w))
			return 0;
		if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
	}
}

static int is_close(const struct io_req *r, int64_t n)
{
	uint32_t msg[2];
	if (n != (int64_t)sizeof msg)
		return 0;
	memcpy(msg, r->buf, sizeof msg);
	return msg[0] == htole32(LINK_MAGIC) && msg[1] == htole32(LINK_CLOSE);
}

static int net_queue(struct io_worker *w, struct io_req *r)
{
	struct net_state *st = w->engine_data;
	int64_t n = xfer(w, st, r, r->dir);
	if (n == 0 || (r->dir == DIR_READ && is_close(r, n))) {
		r->res = 0;
		return IO_QUEUE_LAST; /* the writer is done, or the run is */
	}
	if (n > 0 && IO_WORKER_OPTS(w, struct net_opts)->pingpong) {
		int64_t back = xfer(w, st, r, r->dir == DIR_READ ? DIR_WRITE : DIR_READ);
		if (back == 0)
			return r->res = 0, IO_QUEUE_LAST;
		if (back < 0)
			n = back;
	}
	r->res = n;
	return 1;
}

static void net_cleanup(struct io_worker *w)
{
	struct net_state *st = w->engine_data;
	if (!st)
		return;
	if (st->fd >= 0 && !st->reader) { /* tell the reader we are done, as fio's writers do */
		uint32_t msg[2] = { htole32(LINK_MAGIC), htole32(LINK_CLOSE) };
		if (!st->udp)
			send(st->fd, msg, sizeof msg, MSG_NOSIGNAL);
		/* a datagram is dropped when the reader's buffer is full: say it a few times, 10 ms
		 * apart, so a reader that fell behind still ends (extra ones go unread) */
		for (int i = 0; st->udp && i < 5; i++) {
			struct timespec ts = { 0, 10000000 };
			sendto(st->fd, msg, sizeof msg, 0, (struct sockaddr *)&st->peer, st->peerlen);
			nanosleep(&ts, NULL);
		}
	}
	if (st->fd >= 0)
		close(st->fd);
	if (st->listenfd >= 0)
		close(st->listenfd);
	free(st);
	w->engine_data = NULL;
}

/* The port comes from port= alone; with protocol=unix, hostname= is the socket's path. */
static const char *const protos[] = { [NET_TCP] = "tcp", [NET_UDP] = "udp", [NET_UNIX] = "unix",
				      [NET_TCPV6] = "tcpv6", [NET_UDPV6] = "udpv6", NULL };
static const struct io_engine_option net_options[] = {
	{ "hostname", NULL, IO_EOPT_STR, NULL, 0, 0, NULL, IO_EOPT_OFF(struct net_opts, hostname),
	  "net_opts.hostname (the peer, a multicast group, a socket path)", 0 },
	{ "port", NULL, IO_EOPT_UINT, NULL, 1, 65535, NULL, IO_EOPT_OFF(struct net_opts, port), "net_opts.port", 0 },
	{ "protocol", "proto", IO_EOPT_CHOICE, "tcp", 0, 0, protos, IO_EOPT_OFF(struct net_opts, proto),
	  "net_opts.proto (tcp, udp, unix, tcpv6, udpv6)", 0 },
	{ "listen", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, IO_EOPT_OFF(struct net_opts, listen), "net_opts.listen (wait for the peer)", 0 },
	{ "pingpong", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, IO_EOPT_OFF(struct net_opts, pingpong),
	  "net_opts.pingpong (each message answered)", 0 },
	{ "nodelay", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, IO_EOPT_OFF(struct net_opts, nodelay), "net_opts.nodelay (TCP_NODELAY)", 0 },
	{ "ttl", NULL, IO_EOPT_UINT, "1", 0, 255, NULL, IO_EOPT_OFF(struct net_opts, ttl), "net_opts.ttl (multicast)", 1 },
	{ "interface", NULL, IO_EOPT_STR, NULL, 0, 0, NULL, IO_EOPT_OFF(struct net_opts, interface),
	  "net_opts.interface (multicast: the interface's address)", 0 },
	{ "window_size", NULL, IO_EOPT_UINT, NULL, 0, INT32_MAX, NULL, IO_EOPT_OFF(struct net_opts, window_size),
	  "net_opts.window_size (socket buffers)", 0 },
	{ "mss", NULL, IO_EOPT_UINT, NULL, 0, INT32_MAX, NULL, IO_EOPT_OFF(struct net_opts, mss), "net_opts.mss (TCP_MAXSEG)", 0 },
	{ 0 },
};

/* fio's net options */
static const struct io_engine_fio_option net_fio_options[] = {
	{ "hostname", 0 }, { "port", 0 }, { "protocol", 0 }, { "proto", 0 }, { "nodelay", 0 },
	{ "listen", 1 }, { "pingpong", 1 }, { "interface", 0 }, { "ttl", 0 }, { "window_size", 0 },
	{ "mss", 0 }, { 0 },
};

const struct io_engine_ops io_net_ops = {
	.name = "net",
	.fio_options = net_fio_options,
	.caps = IO_ENGINE_SYNC | IO_ENGINE_DISKLESS,
	.options = net_options,
	.options_size = sizeof(struct net_opts),
	.check = net_check,
	.setup = net_setup,
	.queue = net_queue,
	.cleanup = net_cleanup,
};
