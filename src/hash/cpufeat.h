/* Which CPU instructions the hashes can use here, and a cycle counter for cycles per byte.
 *
 * The BLAKE3 line mirrors the checks of BLAKE3's own runtime dispatch (AVX-512 needs F and VL
 * and the OS saving ZMM state; AVX2 needs the OS saving YMM state), so what we print is what it
 * runs.  OpenSSL's SHA-256 picks SHA-NI whenever the CPU has it, then AVX2, then SSSE3, after the
 * masks of $OPENSSL_ia32cap. */
#ifndef NM_HASH_CPUFEAT_H
#define NM_HASH_CPUFEAT_H

#include <stdint.h>

#include "hash/hash.h"

struct cpu_features {
	int sse2, ssse3, sse41, avx2, avx512, sha_ni;
};

void cpu_features_detect(struct cpu_features *f);

/* The implementation the algorithm uses on this CPU: "AVX-512", "SHA-NI", "portable", ... */
const char *hash_impl_name(enum hash_algo a);

/* A comma list of the features found ("SSE4.1,AVX2,AVX-512,SHA-NI"), into buf. */
const char *cpu_features_list(char *buf, unsigned len);

/* The cycle counter (x86's TSC: reference cycles at the nominal clock, not the boosted core
 * clock). cycles_readable() is 0 where there is none; cycles_now() then returns 0. */
int cycles_readable(void);
uint64_t cycles_now(void);

#endif
