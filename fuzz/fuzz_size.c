/* libFuzzer harness: the size, count, percent, tag and list parsers of util/parse.h.
 *
 * Besides "no crash, no leak, no undefined behaviour" it checks what callers rely on: a failure
 * leaves one printable line in err (it goes straight to the terminal), and a success gives the
 * same value whichever way the number is written again. */
#include "fuzz_util.h"
#include "util/parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_sizes(const char *s)
{
	static const enum size_units all[] = { SIZE_UNITS_NODEMARK, SIZE_UNITS_FIO_1024, SIZE_UNITS_FIO_1000 };
	uint64_t v[3];
	int rc[3];
	char err[256];

	for (int i = 0; i < 3; i++) {
		err[0] = '\0';
		rc[i] = parse_size_units(s, all[i], &v[i], err, sizeof err);
		if (rc[i] < 0)
			fuzz_check_message(err);
		else
			FUZZ_ASSERT(rc[i] == 0);
	}
	if (rc[0] == 0) {
		/* The number of bytes written plainly reads back as itself in every unit system. */
		char again[32];
		snprintf(again, sizeof again, "%" PRIu64, v[0]);
		for (int i = 0; i < 3; i++) {
			uint64_t w;
			FUZZ_ASSERT(parse_size_units(again, all[i], &w, err, sizeof err) == 0 && w == v[0]);
		}
		/* Suffix-free and IEC/"b" forms do not depend on the unit system. */
		size_t n = strlen(s);
		char last = s[n - 1];
		if ((last >= '0' && last <= '9') || last == '.' || (n >= 2 && (s[n - 2] == 'i' || s[n - 2] == 'I')))
			FUZZ_ASSERT(rc[1] == 0 && rc[2] == 0 && v[1] == v[0] && v[2] == v[0]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstring(data, size);
	char err[256];
	uint64_t v;
	double pct;

	check_sizes(s);

	err[0] = '\0';
	if (parse_count(s, 1, 1000000, &v, err, sizeof err) == 0)
		FUZZ_ASSERT(v >= 1 && v <= 1000000);
	else
		fuzz_check_message(err);

	err[0] = '\0';
	if (parse_percent(s, &pct, err, sizeof err) == 0)
		FUZZ_ASSERT(pct >= 0 && pct <= 100);
	else
		fuzz_check_message(err);

	char *key, *value;
	err[0] = '\0';
	if (parse_tag(s, &key, &value, err, sizeof err) == 0) {
		FUZZ_ASSERT(*key && *value && strlen(key) + 1 + strlen(value) == strlen(s));
		free(key);
	} else {
		fuzz_check_message(err);
	}

	char **items;
	err[0] = '\0';
	int n = split_list(s, ',', &items, err, sizeof err);
	if (n >= 0) {
		size_t total = 0;
		for (int i = 0; i < n; i++) {
			FUZZ_ASSERT(items[i] && *items[i] && !strchr(items[i], ','));
			total += strlen(items[i]) + 1;
		}
		FUZZ_ASSERT(items[n] == NULL && total == strlen(s) + 1);
		free_strv(items);
	} else {
		fuzz_check_message(err);
	}
	free(s);
	return 0;
}
