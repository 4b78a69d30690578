/* libFuzzer harness: blktrace binaries (fio/blktrace.c), read onto a job as read_iolog reads a
 * file whose first record has blktrace's magic. The input's first byte picks the options
 * (byte order of the magic put in front, replay_scale, replay_align, replay_skip); the rest
 * follows a first record's magic, so every input reaches the record reader. Checked as for
 * the text logs: one printable line on failure, and on success entries the engine can take. */
#include "fuzz_fio.h"
#include "fio/iolog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const jobs[] = {
		"[j]\nread_iolog=fuzz.bin\nreplay_redirect=fuzz.dat\n",
		"[j]\nread_iolog=fuzz.bin\nreplay_redirect=fuzz.dat\nreplay_scale=3\nreplay_align=4096\n",
		"[j]\nread_iolog=fuzz.bin\nreplay_redirect=fuzz.dat\nreplay_skip=write,sync\n",
		"[j]\nread_iolog=fuzz.bin\nreplay_redirect=fuzz.dat\nreplay_skip=read,trim\nreplay_time_scale=7\n",
	};
	if (size < 1)
		return 0;
	unsigned pick = data[0];
	const char *job = jobs[pick & 3];
	struct fio_plan p;
	char err[1024];
	fio_plan_init(&p);
	p.no_include = 1;
	if (fio_parse_jobfile_text(&p, job, strlen(job), "fuzz.fio", err, sizeof err) < 0 ||
	    fio_plan_finish(&p, err, sizeof err) < 0)
		abort();
	/* the magic and version (7) in the byte order bit 2 picks, then the input */
	static const uint8_t le[4] = { 0x07, 0x74, 0x61, 0x65 }, be[4] = { 0x65, 0x61, 0x74, 0x07 };
	size_t len = 4 + size - 1;
	char *text = malloc(len + 1);
	memcpy(text, pick & 4 ? be : le, 4);
	memcpy(text + 4, data + 1, size - 1);
	text[len] = '\0';
	fuzz_check_iolog(&p, text, len);
	free(text);
	fio_plan_free(&p);
	return 0;
}
