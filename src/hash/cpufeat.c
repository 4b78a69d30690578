#include "hash/cpufeat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>

static uint64_t xgetbv0(void)
{
	uint32_t eax, edx;
	__asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
	return ((uint64_t)edx << 32) | eax;
}

void cpu_features_detect(struct cpu_features *f)
{
	unsigned a, b, c, d;
	memset(f, 0, sizeof *f);
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	f->sse2 = !!(d & (1u << 26));
	f->ssse3 = !!(c & (1u << 9));
	f->sse41 = !!(c & (1u << 19));
	int osxsave = !!(c & (1u << 27));
	uint64_t xcr0 = osxsave ? xgetbv0() : 0;
	int os_ymm = (xcr0 & 6) == 6, os_zmm = (xcr0 & 0xe6) == 0xe6;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		f->avx2 = os_ymm && (b & (1u << 5));
		/* AVX512F (bit 16) and AVX512VL (bit 31), as BLAKE3's dispatch asks. */
		f->avx512 = os_zmm && (b & (1u << 16)) && (b & (1u << 31));
		f->sha_ni = !!(b & (1u << 29));
	}
}

int cycles_readable(void)
{
	return 1;
}

uint64_t cycles_now(void)
{
	return __rdtsc();
}
#else
void cpu_features_detect(struct cpu_features *f)
{
	memset(f, 0, sizeof *f);
}

int cycles_readable(void)
{
	return 0;
}

uint64_t cycles_now(void)
{
	return 0;
}
#endif

/* OpenSSL masks what it sees of the CPU by $OPENSSL_ia32cap, "[~]A[:[~]B]": A stands for
 * CPUID leaf 1 (EDX, then ECX in the high half), B for leaf 7 (EBX, then ECX); with '~' the bits
 * are cleared, without it the word replaces the CPU's.  SHA-256's choice depends on SHA-NI (leaf
 * 7 EBX bit 29), AVX2 (bit 5) and SSSE3 (leaf 1 ECX bit 9): apply the same masks, so a run made
 * with SHA-NI turned off says so instead of naming what the CPU has. */
static void openssl_mask(int *feature, const char *word, unsigned bit)
{
	int clear = *word == '~';
	unsigned long long v = strtoull(word + clear, NULL, 0);
	int set = (v >> bit) & 1;
	*feature = clear ? *feature && !set : *feature && set;
}

static void openssl_features(struct cpu_features *f)
{
	const char *env = getenv("OPENSSL_ia32cap");
	if (!env || !*env)
		return;
	if (*env != ':')
		openssl_mask(&f->ssse3, env, 32 + 9);
	const char *leaf7 = strchr(env, ':');
	if (leaf7 && leaf7[1]) {
		openssl_mask(&f->sha_ni, leaf7 + 1, 29);
		openssl_mask(&f->avx2, leaf7 + 1, 5);
	}
}

const char *hash_impl_name(enum hash_algo a)
{
	struct cpu_features f;
	cpu_features_detect(&f);
	if (a == HASH_SHA256)
		openssl_features(&f);
	switch (a) {
	case HASH_BLAKE3:
		return f.avx512 ? "AVX-512" : f.avx2 ? "AVX2" : f.sse41 ? "SSE4.1" : f.sse2 ? "SSE2" : "portable";
	case HASH_SHA256:
		return f.sha_ni ? "SHA-NI" : f.avx2 ? "AVX2" : f.ssse3 ? "SSSE3" : "generic";
	case HASH_NONE:
		return "-";
	}
	return "?";
}

const char *cpu_features_list(char *buf, unsigned len)
{
	struct cpu_features f;
	cpu_features_detect(&f);
	snprintf(buf, len, "%s%s%s%s%s%s", f.sse2 ? "SSE2," : "", f.ssse3 ? "SSSE3," : "",
		 f.sse41 ? "SSE4.1," : "", f.avx2 ? "AVX2," : "", f.avx512 ? "AVX-512," : "",
		 f.sha_ni ? "SHA-NI," : "");
	size_t n = strlen(buf);
	if (n)
		buf[n - 1] = 0;
	else
		snprintf(buf, len, "none");
	return buf;
}
