#include "io/ticks.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int ticks_use_tsc;
uint64_t ticks_mult = 1ull << 32;

static int tsc_is_invariant(void)
{
	char line[4096];
	int ok = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "flags", 5) == 0) {
			ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
			break;
		}
	fclose(f);
	return ok;
}

static void calibrate(void)
{
#if TICKS_HAVE_TSC
	if (!tsc_is_invariant())
		return;
	/* Two readings 20 ms apart; the scale is good to a few parts per million. */
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	uint64_t n0 = clock_now_ns(), t0 = __rdtsc();
	nanosleep(&pause, NULL);
	uint64_t n1 = clock_now_ns(), t1 = __rdtsc();
	if (t1 <= t0 || n1 <= n0)
		return;
	ticks_mult = (uint64_t)(((__uint128_t)(n1 - n0) << 32) / (t1 - t0));
	ticks_use_tsc = ticks_mult > 0;
	if (!ticks_use_tsc)
		ticks_mult = 1ull << 32;
#endif
}

void ticks_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, calibrate);
}

uint64_t ticks_from_ns(uint64_t ns)
{
	if (!ticks_use_tsc)
		return ns;
	return (uint64_t)(((__uint128_t)ns << 32) / ticks_mult);
}
