/* libFuzzer harness: the /proc/diskstats and /sys/block/X/stat line parser behind the disk
 * activity figures (src/inventory/diskstats.h). Besides memory safety: a line that parses gives
 * counters that a second parse of the same text gives again (no state kept between lines). */
#include "fuzz_util.h"
#include "inventory/diskstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);
	struct disk_counters a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	int ra = disk_counters_parse(text, &a);
	int rb = disk_counters_parse(text, &b);
	FUZZ_ASSERT(ra == rb);
	if (ra == 0)
		FUZZ_ASSERT(memcmp(&a, &b, sizeof a) == 0);
	free(text);
	return 0;
}
