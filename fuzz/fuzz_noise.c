/* libFuzzer harness: the noise monitor's /proc readers (src/proc/noise.h): /proc/stat,
 * /proc/self/stat and /proc/meminfo, from a scratch proc root built from the input (three parts
 * separated by NUL bytes). Besides memory safety: an error is one printable line naming a file;
 * the figures of a sample against itself are finite and the busy test says why in one line. */
#include "fuzz_util.h"
#include "proc/noise.h"

#include <math.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *root = fuzz_scratch();
	static const char *const files[] = { "stat", "self/stat", "meminfo" };
	char path[512], err[512];
	snprintf(path, sizeof path, "%s/self", root);
	mkdir(path, 0700);
	const uint8_t *p = data, *end = data + size;
	for (int i = 0; i < 3; i++) {
		const uint8_t *z = p < end ? memchr(p, 0, (size_t)(end - p)) : NULL;
		size_t len = z ? (size_t)(z - p) : (size_t)(end - p);
		snprintf(path, sizeof path, "%s/%s", root, files[i]);
		FUZZ_ASSERT(fuzz_write_file(path, p, len) == 0);
		p = z ? z + 1 : end;
	}
	struct noise_sample a, b;
	err[0] = 0;
	if (noise_sample(&a, root, err, sizeof err) < 0) {
		fuzz_check_message(err);
		return 0;
	}
	b = a;
	b.t_ns += 1000000000;
	struct noise_figures f;
	noise_figures(&a, &b, &f);
	char why[512];
	why[0] = 0;
	if (noise_is_busy(&f, why, sizeof why))
		fuzz_check_message(why);
	json_decref(noise_to_json(&f));
	return 0;
}
