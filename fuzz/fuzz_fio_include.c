/* libFuzzer harness: fio job files that include each other (src/fio/jobfile.c).
 *
 * The input is up to four job files separated by NUL bytes, known as a.fio, b.fio, c.fio and
 * d.fio (and dir/x.fio for the fourth, to exercise relative names); they are read from memory
 * through the plan's read_file hook, never from disk.  a.fio is parsed.  Whatever they include,
 * the parse ends (the include budget bounds fan-outs and loops), a failure is one printable
 * line, and a success is a plan the engine can take. */
#include "fuzz_fio.h"

#define NFILES 4

struct mem_files {
	const char *name[NFILES];
	const uint8_t *text[NFILES];
	size_t len[NFILES];
	unsigned reads;
};

static int mem_read(void *ctx, const char *path, char **text, size_t *len, struct fio_file_id *id, char *err,
		    size_t errlen)
{
	struct mem_files *m = ctx;
	m->reads++;
	for (int i = 0; i < NFILES; i++) {
		size_t n = strlen(m->name[i]), pl = strlen(path);
		/* "a.fio", "./a.fio", "dir/../a.fio": the name at the end of the path */
		if (pl < n || strcmp(path + pl - n, m->name[i]) != 0 || (pl > n && path[pl - n - 1] != '/'))
			continue;
		*text = malloc(m->len[i] + 1);
		if (!*text)
			abort();
		memcpy(*text, m->text[i], m->len[i]);
		(*text)[m->len[i]] = '\0';
		*len = m->len[i];
		id->dev = 1;
		id->ino = (uint64_t)i + 1;
		return 0;
	}
	snprintf(err, errlen, "%.200s: No such file or directory", path);
	for (char *c = err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem_files m = { { "a.fio", "b.fio", "c.fio", "dir/x.fio" }, { 0 }, { 0 }, 0 };
	const uint8_t *s = data, *end = data + size;
	for (int i = 0; i < NFILES; i++) {
		const uint8_t *z = s < end ? memchr(s, '\0', (size_t)(end - s)) : NULL;
		m.text[i] = s;
		m.len[i] = z ? (size_t)(z - s) : (size_t)(end - s);
		s = z ? z + 1 : end;
	}
	struct fio_plan p;
	char err[1024] = "";
	fio_plan_init(&p);
	p.read_file = mem_read;
	p.read_ctx = &m;
	int rc = fio_parse_jobfile(&p, "a.fio", err, sizeof err);
	if (rc == 0)
		rc = fio_plan_finish(&p, err, sizeof err);
	if (rc < 0)
		fuzz_check_message(err);
	else
		fuzz_check_plan(&p);
	FUZZ_ASSERT(m.reads <= 256 + 1 + 1); /* the include budget, the top file, the one refused */
	fio_plan_free(&p);
	return 0;
}
