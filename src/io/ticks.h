/* A cheap clock for the hot loop: the CPU's time-stamp counter where it is invariant
 * (constant_tsc + nonstop_tsc), scaled to nanoseconds by a calibration against
 * CLOCK_MONOTONIC; clock_gettime elsewhere.  Reading the TSC costs about a third of a
 * clock_gettime under KVM, and a benchmark reads the clock twice per I/O. */
#ifndef NM_IO_TICKS_H
#define NM_IO_TICKS_H

#include <stdint.h>
#include "util/clock.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define TICKS_HAVE_TSC 1
#else
#define TICKS_HAVE_TSC 0
#endif

extern int ticks_use_tsc;
extern uint64_t ticks_mult;   /* ns = ticks * mult >> 32 */

void ticks_init(void);        /* once, before any worker starts (thread-safe) */

static inline uint64_t ticks_now(void)
{
#if TICKS_HAVE_TSC
	if (ticks_use_tsc)
		return __rdtsc();
#endif
	return clock_now_ns();
}

static inline uint64_t ticks_to_ns(uint64_t t)
{
#if TICKS_HAVE_TSC
	if (ticks_use_tsc)
		return (uint64_t)(((__uint128_t)t * ticks_mult) >> 32);
#endif
	return t;
}

/* Nanoseconds to ticks (for deadlines). */
uint64_t ticks_from_ns(uint64_t ns);

#endif
