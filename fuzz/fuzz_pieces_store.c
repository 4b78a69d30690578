/* libFuzzer harness: `pieces verify` (and --repair) walking a store directory built from the
 * input (src/pieces/verify.c, verify_log.c). The input is a list of entries:
 *   u8 kind (0 file, 1 directory, 2 symbolic link, 3 FIFO), u8 name length, the name (a path
 *   inside the store, '/' allowed, ".." refused), u16 little-endian content length, the content
 *   (a file's bytes; a link's target)
 * under a store root whose PIECES marker names the backend in the first byte's low bit.
 * Besides memory safety: verify ends, its counts add up, every finding is one printable line,
 * and nothing outside the store is touched: a sentinel directory next to it, which links may
 * point into, is the same after every --repair. */
#include "fuzz_util.h"
#include "pieces/run.h"
#include "pieces/verify.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void on_finding(void *arg, enum pieces_finding kind, const char *path, const char *why)
{
	(void)arg;
	FUZZ_ASSERT(kind == PIECES_CORRUPT || kind == PIECES_DAMAGED || kind == PIECES_LEFT_ALONE);
	FUZZ_ASSERT(path && *path);
	fuzz_check_message(why);
}

static void mkdirs(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(path, 0700);
		*s = '/';
	}
}

static int sentinel_ok(const char *dir)
{
	char path[600], buf[32];
	snprintf(path, sizeof path, "%s/keep.txt", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return n == 6 && memcmp(buf, "keep!\n", 6) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *scratch = fuzz_scratch();
	char store[512], root[600], sentinel[512], path[1200], err[1024];
	snprintf(store, sizeof store, "%s/s", scratch);
	snprintf(root, sizeof root, "%s/.nodemark-fuzz", store);
	snprintf(sentinel, sizeof sentinel, "%s/user", scratch);
	nftw(store, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	mkdir(store, 0700);
	mkdir(root, 0700);
	mkdir(sentinel, 0700);
	snprintf(path, sizeof path, "%s/keep.txt", sentinel);
	fuzz_write_file(path, "keep!\n", 6);
	int backend_log = size && (data[0] & 1), repair = size && (data[0] & 2);
	const char *marker = backend_log ? "nodemark piece store\nversion 1\nbackend log\n"
					 : "nodemark piece store\nversion 1\nbackend files\n";
	snprintf(path, sizeof path, "%s/PIECES", root);
	fuzz_write_file(path, marker, strlen(marker));

	size_t pos = size ? 1 : 0;
	for (int k = 0; k < 64 && pos + 2 <= size; k++) {
		unsigned kind = data[pos] & 3, nlen = data[pos + 1];
		pos += 2;
		if (pos + nlen + 2 > size)
			break;
		char name[256];
		memcpy(name, data + pos, nlen);
		name[nlen] = 0;
		pos += nlen;
		size_t clen = (size_t)data[pos] | (size_t)data[pos + 1] << 8;
		pos += 2;
		if (clen > size - pos)
			clen = size - pos;
		const uint8_t *content = data + pos;
		pos += clen;
		if (!nlen || strlen(name) != nlen || name[0] == '/' || strstr(name, ".."))
			continue;
		snprintf(path, sizeof path, "%s/%s", root, name);
		mkdirs(path);
		if (kind == 0) {
			fuzz_write_file(path, content, clen);
		} else if (kind == 1) {
			mkdir(path, 0700);
		} else if (kind == 2) {
			char target[600];
			/* A target inside the sentinel directory, or the sentinel itself. */
			snprintf(target, sizeof target, "%s%s%.*s", sentinel, clen ? "/" : "", (int)(clen < 64 ? clen : 64),
				 (const char *)content);
			if (!memchr(content, 0, clen < 64 ? clen : 64))
				symlink(target, path);
		} else {
			mkfifo(path, 0600);
		}
	}
	struct pieces_verify_report rep;
	int rc = pieces_verify(root, repair, &rep, on_finding, NULL, err, sizeof err);
	if (rc != 0) {
		fuzz_check_message(err);
	} else {
		FUZZ_ASSERT(rep.stores == 1);
		FUZZ_ASSERT(rep.ok + rep.unverified <= rep.pieces);
		FUZZ_ASSERT(rep.index_rebuilt <= rep.index_damaged);
	}
	FUZZ_ASSERT(sentinel_ok(sentinel));
	return 0;
}
