/* Small helpers shared by the libFuzzer harnesses (header-only: each harness is one program). */
#ifndef NM_FUZZ_UTIL_H
#define NM_FUZZ_UTIL_H

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed property is a crash, so libFuzzer saves the input that broke it. */
#define FUZZ_ASSERT(cond)                                                                   \
	do {                                                                                \
		if (!(cond)) {                                                              \
			fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                            \
		}                                                                           \
	} while (0)

/* The input as a NUL-terminated string (parsers of command-line values take C strings). */
static inline char *fuzz_cstring(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* An error message goes to the terminal as one line: not empty, no control characters. */
static inline void fuzz_check_message(const char *err)
{
	FUZZ_ASSERT(err[0] != '\0');
	for (const unsigned char *p = (const unsigned char *)err; *p; p++)
		FUZZ_ASSERT(*p >= 0x20 && *p != 0x7f);
}

static char fuzz_scratch_dir[256];

static inline int fuzz_remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	remove(path);
	return 0;
}

static inline void fuzz_scratch_remove(void)
{
	nftw(fuzz_scratch_dir, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A private scratch directory for harnesses that build files from the input (made once per
 * process, under $TMPDIR, and removed when the process exits: libFuzzer ends a timed run with
 * exit(), so only a crash leaves it, beside its artifact). */
static inline const char *fuzz_scratch(void)
{
	char *dir = fuzz_scratch_dir;
	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof fuzz_scratch_dir, "%s/nm-fuzz-XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(dir))
			abort();
		atexit(fuzz_scratch_remove);
	}
	return dir;
}

/* Write len bytes to path (made or replaced); returns 0 or -1. */
static inline int fuzz_write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t n = len ? fwrite(data, 1, len, f) : 0;
	return fclose(f) == 0 && n == len ? 0 : -1;
}

#endif
