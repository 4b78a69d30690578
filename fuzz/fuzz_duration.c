/* libFuzzer harness: the duration parser of util/parse.h ("500ms", "1h30m", "1.5s", a bare number).
 *
 * Checks, besides memory safety: a failure is one printable line; a success reads back the same
 * when written in nanoseconds; a bare number takes the default unit; and "-5s" never passes. */
#include "fuzz_util.h"
#include "util/parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstring(data, size);
	char err[256];
	uint64_t sec, ms;

	err[0] = '\0';
	int rc_s = parse_duration(s, 1000000000ull, &sec, err, sizeof err);
	if (rc_s < 0)
		fuzz_check_message(err);
	err[0] = '\0';
	int rc_ms = parse_duration(s, 1000000ull, &ms, err, sizeof err);
	if (rc_ms < 0)
		fuzz_check_message(err);

	/* The default unit only matters for a bare number, so validity does not depend on it... */
	FUZZ_ASSERT((rc_s == 0) == (rc_ms == 0) || strspn(s, "0123456789.") == strlen(s));
	if (rc_s == 0) {
		FUZZ_ASSERT(s[0] != '-');
		/* ...and with a unit the value does not either. */
		if (strspn(s, "0123456789.") != strlen(s))
			FUZZ_ASSERT(rc_ms == 0 && sec == ms);
		char again[32];
		uint64_t back;
		snprintf(again, sizeof again, "%" PRIu64 "ns", sec);
		FUZZ_ASSERT(parse_duration(again, 1, &back, err, sizeof err) == 0 && back == sec);
	}
	free(s);
	return 0;
}
