/* libFuzzer harness: the RAPL energy counter reader (src/proc/rapl.h) on a scratch sysroot
 * (NODEMARK_SYSROOT) whose powercap zone files hold the input: energy_uj, then
 * max_energy_range_uj, separated by a NUL byte; the last 16 bytes are two readings for the
 * wrap-around arithmetic. Besides memory safety: a refusal says why in one line, and an energy
 * delta is never negative and never more than one counter range per zone. */
#include "fuzz_util.h"
#include "proc/rapl.h"

#include <math.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char zone[512];
	char path[600], why[256];
	if (!zone[0]) {
		const char *root = fuzz_scratch();
		setenv("NODEMARK_SYSROOT", root, 1);
		const char *parts[] = { "/sys", "/sys/class", "/sys/class/powercap", "/sys/class/powercap/intel-rapl:0" };
		for (int i = 0; i < 4; i++) {
			snprintf(zone, sizeof zone, "%s%s", root, parts[i]);
			mkdir(zone, 0700);
		}
	}
	double readings[2] = { 0, 0 };
	if (size >= 16) {
		memcpy(readings, data + size - 16, 16);
		size -= 16;
	}
	const uint8_t *z = memchr(data, 0, size);
	size_t n1 = z ? (size_t)(z - data) : size;
	snprintf(path, sizeof path, "%s/energy_uj", zone);
	FUZZ_ASSERT(fuzz_write_file(path, data, n1) == 0);
	snprintf(path, sizeof path, "%s/max_energy_range_uj", zone);
	FUZZ_ASSERT(fuzz_write_file(path, z ? z + 1 : data + size, z ? size - n1 - 1 : 0) == 0);
	why[0] = 0;
	struct rapl *r = rapl_open(why, sizeof why);
	if (!r) {
		fuzz_check_message(why);
		return 0;
	}
	double j = rapl_read_j(r);
	(void)j;
	if (isfinite(readings[0]) && isfinite(readings[1]) && readings[0] >= 0 && readings[1] >= 0 &&
	    readings[0] < 1e15 && readings[1] < 1e15) {
		double d = rapl_delta_j(r, readings[0], readings[1]);
		FUZZ_ASSERT(!(d < 0));
	}
	rapl_close(r);
	return 0;
}
