#include "mem/membw.h"
#include "inventory/sysfs.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BLOCK (1u << 20)

/* The largest cache of CPU 0 ("32768K"), read through inventory/sysfs so a sysroot can fake it. */
uint64_t membw_llc_bytes(void)
{
	const char *root = sysfs_root(NULL);
	uint64_t best = 0;
	for (int i = 0; i < 8; i++) {
		char buf[64];
		if (sysfs_str(root, buf, sizeof buf, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i) < 0)
			continue;
		char *end;
		unsigned long long v = strtoull(buf, &end, 10);
		if (*end == 'K')
			v <<= 10;
		else if (*end == 'M')
			v <<= 20;
		if (v > best)
			best = v;
	}
	return best;
}

size_t membw_copy_size(uint64_t cap)
{
	uint64_t llc = membw_llc_bytes();
	uint64_t size = llc ? 4 * llc : 64ull << 20;
	if (size < (16ull << 20))
		size = 16ull << 20;
	if (cap && size > cap)
		size = cap;
	return (size_t)size;
}

struct copy_thread {
	pthread_t thread;
	char *src, *dst;
	size_t size;
	uint64_t pass_ns;
	unsigned passes;
	uint64_t *bytes;        /* per pass */
	pthread_barrier_t *bar;
};

/* Each pass starts and ends at barriers shared with the timing thread, so the wall time of a
 * pass covers every thread's copies. */
static void *copy_main(void *p)
{
	struct copy_thread *t = p;
	uint64_t n = 0;
	for (unsigned k = 0; k < t->passes; k++) {
		pthread_barrier_wait(t->bar);
		uint64_t deadline = clock_now_ns() + t->pass_ns;
		do {
			memcpy(t->dst, t->src, t->size);
			t->bytes[k] += t->size;
			/* keep the compiler from dropping the copy: the destination feeds the source */
			n++;
			t->src[n % t->size] ^= t->dst[(n * 7919) % t->size];
		} while (clock_now_ns() < deadline && !cleanup_interrupted());
		pthread_barrier_wait(t->bar);
	}
	return NULL;
}

int membw_copy(size_t per_thread, unsigned threads, uint64_t pass_ns, unsigned passes,
	       struct membw_result *res, char *err, size_t errlen)
{
	struct copy_thread *t = calloc(threads ? threads : 1, sizeof *t);
	pthread_barrier_t bar;
	unsigned started = 0;
	int rc = 0;

	memset(res, 0, passes * sizeof *res);
	if (!t || !threads || !per_thread || !passes) {
		free(t);
		return nm_errf(err, errlen, "memory copy: nothing to do (threads %u, size %zu)", threads, per_thread);
	}
	for (unsigned i = 0; i < threads; i++) {
		t[i].src = malloc(per_thread);
		t[i].dst = malloc(per_thread);
		t[i].bytes = calloc(passes, sizeof *t[i].bytes);
		if (!t[i].src || !t[i].dst || !t[i].bytes) {
			rc = nm_errf(err, errlen, "memory copy: cannot allocate 2 x %zu bytes", per_thread);
			goto out;
		}
		/* touch every page now, so page faults are not measured */
		memset(t[i].src, (int)(i + 1), per_thread);
		memset(t[i].dst, 0, per_thread);
		t[i].size = per_thread;
		t[i].pass_ns = pass_ns;
		t[i].passes = passes;
		t[i].bar = &bar;
	}
	pthread_barrier_init(&bar, NULL, threads + 1);
	for (unsigned i = 0; i < threads; i++) {
		if (pthread_create(&t[i].thread, NULL, copy_main, &t[i]) != 0) {
			/* the barrier counts every thread: without all of them nothing can run */
			fprintf(stderr, "nodemark: memory copy: cannot start thread %u: %s\n", i, strerror(errno));
			abort();
		}
		started++;
	}
	for (unsigned k = 0; k < passes; k++) {
		pthread_barrier_wait(&bar);
		uint64_t t0 = clock_now_ns();
		pthread_barrier_wait(&bar);
		res[k].ns = clock_now_ns() - t0;
		for (unsigned i = 0; i < threads; i++)
			res[k].bytes += t[i].bytes[k];
		if (res[k].ns)
			res[k].bytes_per_sec = (double)res[k].bytes * 1e9 / (double)res[k].ns;
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(t[i].thread, NULL);
	pthread_barrier_destroy(&bar);
	if (cleanup_interrupted())
		rc = 1;
out:
	for (unsigned i = 0; i < threads; i++) {
		free(t[i].src);
		free(t[i].dst);
		free(t[i].bytes);
	}
	free(t);
	return rc;
}

static int write_file(int fd, const char *path, const char *buf, uint64_t size, char *err, size_t errlen)
{
	for (uint64_t off = 0; off < size;) {
		size_t n = size - off < BLOCK ? (size_t)(size - off) : BLOCK;
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w <= 0)
			return nm_errf(err, errlen, "%s: write at offset %llu: %s", path, (unsigned long long)off,
				       w < 0 ? strerror(errno) : "no progress");
		off += (uint64_t)w;
	}
	return 0;
}

/* cachestat(2) (Linux 6.5): the page-cache state of a range of a file; libc has no wrapper yet */
struct cachestat_range_arg {
	uint64_t off, len;
};
struct cachestat_out {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};
#define NM_SYS_CACHESTAT 451

int membw_file_cachestat(const struct membw_file *f, struct membw_cache_state *st)
{
	struct cachestat_range_arg range = { 0, f->size };
	struct cachestat_out cs;
	if (syscall(NM_SYS_CACHESTAT, f->fd, &range, &cs, 0) != 0)
		return -1;
	st->cached = cs.nr_cache;
	st->dirty = cs.nr_dirty;
	st->writeback = cs.nr_writeback;
	return 0;
}

/* One whole read of the file; 0, or -1 with a message naming it. */
static int read_whole(struct membw_file *f, uint64_t *bytes, char *err, size_t errlen)
{
	for (uint64_t off = 0; off < f->size;) {
		ssize_t r = pread(f->fd, f->buf, BLOCK, (off_t)off);
		if (r < 0)
			return nm_errf(err, errlen, "%s: read at offset %llu: %s", f->path, (unsigned long long)off,
				       strerror(errno));
		if (r == 0)
			break;
		off += (uint64_t)r;
		*bytes += (uint64_t)r;
	}
	return 0;
}

int membw_file_open(struct membw_file *f, const char *dir, uint64_t size, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	f->fd = -1;
	f->size = size;
	/* page aligned: on AMD EPYC under KVM the kernel's copy into a buffer 16 bytes past a page
	 * (where glibc's malloc puts a 1 MiB block) runs at a quarter of the aligned speed, and a
	 * later malloc from the heap lands elsewhere, so the figure was bimodal */
	if (posix_memalign((void **)&f->buf, 4096, BLOCK) != 0) {
		f->buf = NULL;
		return nm_errf(err, errlen, "page-cache read: out of memory");
	}
	snprintf(f->path, sizeof f->path, "%s/pagecache-%llx", dir, (unsigned long long)(clock_now_ns() & 0xffffff));
	f->fd = open(f->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (f->fd < 0) {
		int e = errno;
		free(f->buf);
		f->buf = NULL;
		return nm_errf(err, errlen, "%s: cannot create: %s", f->path, strerror(e));
	}
	cleanup_add(f->path);
	for (size_t i = 0; i < BLOCK; i++)
		f->buf[i] = (char)(i * 2654435761u >> 13);
	if (write_file(f->fd, f->path, f->buf, size, err, errlen) < 0)
		goto fail;
	/* written back now, so no writeback of its dirty pages runs beside the reads */
	if (fsync(f->fd) != 0) {
		nm_errf(err, errlen, "%s: fsync: %s", f->path, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	membw_file_close(f);
	return -1;
}

int membw_file_read(struct membw_file *f, uint64_t pass_ns, unsigned passes, struct membw_result *res, char *err,
		    size_t errlen)
{
	memset(res, 0, passes * sizeof *res);
	for (unsigned k = 0; k < passes; k++) {
		uint64_t start = clock_now_ns(), now = start;
		do {
			if (read_whole(f, &res[k].bytes, err, errlen) < 0)
				return -1;
			now = clock_now_ns();
		} while (now - start < pass_ns && !cleanup_interrupted());
		res[k].ns = now - start;
		if (res[k].ns)
			res[k].bytes_per_sec = (double)res[k].bytes * 1e9 / (double)res[k].ns;
		if (cleanup_interrupted())
			return 1;
	}
	return 0;
}

void membw_file_close(struct membw_file *f)
{
	if (f->fd >= 0) {
		close(f->fd);
		cleanup_now(f->path);
	}
	f->fd = -1;
	free(f->buf);
	f->buf = NULL;
}
