/* libFuzzer harness: JSON records as `import` and `compare` read them (results/record_json.c).
 *
 * Besides "no crash, no leak, no undefined behaviour": a failure is one printable line, and a
 * record that was accepted writes out and reads back to the same JSON (the export/import round
 * trip is lossless). */
#include "fuzz_util.h"
#include "results/record_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	struct record **v;
	long n = records_parse((const char *)data, size, &v, err, sizeof err);
	if (n < 0) {
		fuzz_check_message(err);
		return 0;
	}
	for (long i = 0; i < n; i++) {
		json_t *j = record_to_json(v[i]);
		char *a = json_dumps(j, JSON_COMPACT);
		struct record *back = record_from_json(j, err, sizeof err);
		FUZZ_ASSERT(back != NULL);
		json_t *j2 = record_to_json(back);
		char *b = json_dumps(j2, JSON_COMPACT);
		FUZZ_ASSERT(a && b && strcmp(a, b) == 0);
		free(a);
		free(b);
		json_decref(j);
		json_decref(j2);
		record_free(back);
	}
	records_free(v, (size_t)n);
	return 0;
}
