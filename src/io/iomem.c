/* The I/O buffers' memory, as fio's mem= (iomem=) and lockmem= ask for it, with fio's calls:
 *
 *   malloc      the heap (page aligned here; fio's default)
 *   shm         shmget(IPC_PRIVATE, size, IPC_CREAT|0600) and shmat; shmhuge adds
 *               SHM_HUGETLB, the size rounded up to a huge page (2 MiB, fio's x86-64 default)
 *   mmap        mmap(MAP_PRIVATE|MAP_ANONYMOUS); mmaphuge adds MAP_HUGETLB (rounded up as
 *               shmhuge); mmapshared without a file is the same private mapping, as fio's
 *   mmap*:PATH  the file PATH opened O_RDWR|O_CREAT 0644: mmap sets its length (ftruncate)
 *               and maps it private; mmaphuge and mmapshared map it shared as it is, so a file
 *               shorter than the buffers fails the job here (fio dies of SIGBUS); a file made
 *               here is removed at the end, one that was there stays, as fio's
 *
 * A huge page that is not there fails the job with the call's error, as fio's does. lockmem
 * maps that many bytes and mlocks them for the thread's run (at most the memory less 128 MiB). */
#include "io/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#define IO_HUGE_PAGE (2u << 20) /* fio's hugepage-size default (x86-64) */

static int fail(struct io_worker *w, int e, const char *what)
{
	snprintf(w->err, sizeof w->err, "I/O buffers (%zu bytes): %s: %s", w->mem.len, what, strerror(e));
	return -e;
}

static int alloc_shm(struct io_worker *w, int huge)
{
	int flags = IPC_CREAT | S_IRUSR | S_IWUSR | (huge ? SHM_HUGETLB : 0);
	w->mem.shm_id = shmget(IPC_PRIVATE, w->mem.len, flags);
	if (w->mem.shm_id < 0)
		return fail(w, errno, huge ? "shmget (huge pages: are any free? see /proc/sys/vm/nr_hugepages)"
					   : "shmget");
	void *p = shmat(w->mem.shm_id, NULL, 0);
	int e = errno;
	/* removed now, so that no segment outlives the run: it goes once detached */
	shmctl(w->mem.shm_id, IPC_RMID, NULL);
	if (p == (void *)-1)
		return fail(w, e, "shmat");
	w->bufs = p;
	return 0;
}

static int open_file(struct io_worker *w, const char *path, int shared)
{
	struct stat st;
	w->mem.created = stat(path, &st) != 0;
	w->mem.fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (w->mem.fd < 0) {
		snprintf(w->err, sizeof w->err, "%s: the I/O buffers' file: open: %s", path, strerror(errno));
		w->mem.created = 0;
		return -EIO;
	}
	if (fstat(w->mem.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(w->err, sizeof w->err, "%s: the I/O buffers' file is not a regular file", path);
		return -EINVAL;
	}
	if (!shared && ftruncate(w->mem.fd, (off_t)w->mem.len) != 0) {
		snprintf(w->err, sizeof w->err, "%s: the I/O buffers' file: ftruncate: %s", path, strerror(errno));
		return -EIO;
	}
	if (shared && (uint64_t)st.st_size < w->mem.len) {
		snprintf(w->err, sizeof w->err,
			 "%s: the I/O buffers' file holds %lld bytes, fewer than the %zu they take (a shared mapping "
			 "keeps its length)", path, (long long)st.st_size, w->mem.len);
		return -EINVAL;
	}
	return 0;
}

static int alloc_mmap(struct io_worker *w, enum io_mem_kind kind)
{
	const char *path = w->job->buf.mem_file;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	if (path) {
		int shared = kind != IO_MEM_MMAP;
		int rc = open_file(w, path, shared);
		if (rc < 0)
			return rc;
		flags = shared ? MAP_SHARED : MAP_PRIVATE;
	} else if (kind == IO_MEM_MMAPHUGE) {
		flags |= MAP_HUGETLB;
	} /* an anonymous mmapshared is private, as fio's: nothing else sees it */
	void *p = mmap(NULL, w->mem.len, PROT_READ | PROT_WRITE, flags, w->mem.fd, 0);
	if (p == MAP_FAILED)
		return fail(w, errno, kind == IO_MEM_MMAPHUGE && !path ? "mmap (huge pages: are any free? see "
									"/proc/sys/vm/nr_hugepages)" : "mmap");
	w->bufs = p;
	return 0;
}

int io_mem_alloc(struct io_worker *w, size_t total)
{
	enum io_mem_kind kind = w->job->buf.mem;
	w->mem.shm_id = w->mem.fd = -1;
	w->mem.created = 0;
	if (kind == IO_MEM_SHMHUGE || kind == IO_MEM_MMAPHUGE) /* fio's rounding */
		total = (total + IO_HUGE_PAGE - 1) & ~(size_t)(IO_HUGE_PAGE - 1);
	w->mem.len = total;
	switch (kind) {
	case IO_MEM_SHM:
	case IO_MEM_SHMHUGE:
		return alloc_shm(w, kind == IO_MEM_SHMHUGE);
	case IO_MEM_MMAP:
	case IO_MEM_MMAPHUGE:
	case IO_MEM_MMAPSHARED:
		return alloc_mmap(w, kind);
	case IO_MEM_MALLOC:
		break;
	}
	void *p = NULL;
	if (posix_memalign(&p, 4096, total))
		return fail(w, ENOMEM, "malloc");
	w->bufs = p;
	return 0;
}

void io_mem_free(struct io_worker *w)
{
	enum io_mem_kind kind = w->job->buf.mem;
	if (!w->mem.len) /* io_mem_alloc never ran */
		return;
	if (kind == IO_MEM_MALLOC)
		free(w->bufs);
	else if ((kind == IO_MEM_SHM || kind == IO_MEM_SHMHUGE) && w->bufs)
		shmdt(w->bufs);
	else if (w->bufs)
		munmap(w->bufs, w->mem.len);
	w->bufs = NULL;
	if (w->mem.fd >= 0) {
		close(w->mem.fd);
		w->mem.fd = -1;
		if (w->mem.created)
			unlink(w->job->buf.mem_file);
	}
	w->mem.created = 0;
	w->mem.len = 0;
}

int io_mem_pin(struct io_worker *w)
{
	uint64_t n = w->job->buf.lockmem;
	if (!n)
		return 0;
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t phys = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
	if (phys && n + (128u << 20) > phys) /* fio's cap: the memory less 128 MiB */
		n = phys > (128u << 20) ? phys - (128u << 20) : (uint64_t)psz;
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(w->err, sizeof w->err, "lockmem: mmap of %llu bytes: %s", (unsigned long long)n, strerror(errno));
		return -ENOMEM;
	}
	if (mlock(p, n) != 0) {
		int e = errno;
		munmap(p, n);
		snprintf(w->err, sizeof w->err, "lockmem: mlock of %llu bytes: %s (RLIMIT_MEMLOCK: ulimit -l)",
			 (unsigned long long)n, strerror(e));
		return -e;
	}
	w->mem.pinned = p;
	w->mem.pinned_len = n;
	return 0;
}

void io_mem_unpin(struct io_worker *w)
{
	if (!w->mem.pinned)
		return;
	munlock(w->mem.pinned, w->mem.pinned_len);
	munmap(w->mem.pinned, w->mem.pinned_len);
	w->mem.pinned = NULL;
}
