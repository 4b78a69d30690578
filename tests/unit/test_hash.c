/* The hash interface: known vectors, streaming equals one-shot, and agreement with b3sum and
 * sha256sum on random inputs of the lengths where block and chunk boundaries fall. */
#include "test.h"

#include "hash/bench.h"
#include "hash/cpufeat.h"
#include "hash/hash.h"
#include "util/randfill.h"

#include <stdlib.h>
#include <unistd.h>

static const char *digest_hex(enum hash_algo a, const void *data, size_t len, char *hex)
{
	uint8_t d[HASH_MAX_DIGEST];
	if (hash_buffer(a, data, len, d) < 0)
		return "(failed)";
	return hash_hex(d, hash_digest_size(a), hex);
}

TEST(hash_known_vectors)
{
	char hex[65];
	CHECK_EQ_STR(digest_hex(HASH_BLAKE3, "", 0, hex),
		     "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
	CHECK_EQ_STR(digest_hex(HASH_BLAKE3, "abc", 3, hex),
		     "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85");
	CHECK_EQ_STR(digest_hex(HASH_SHA256, "", 0, hex),
		     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	CHECK_EQ_STR(digest_hex(HASH_SHA256, "abc", 3, hex),
		     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	CHECK_EQ_STR(digest_hex(HASH_SHA256, two_blocks, strlen(two_blocks), hex),
		     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* The official BLAKE3 test vectors use input byte i = i % 251. */
TEST(hash_blake3_official_vectors)
{
	unsigned char in[1025];
	char hex[65];
	for (size_t i = 0; i < sizeof in; i++)
		in[i] = (unsigned char)(i % 251);
	CHECK_EQ_STR(digest_hex(HASH_BLAKE3, in, 1, hex),
		     "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213");
	CHECK_EQ_STR(digest_hex(HASH_BLAKE3, in, 1024, hex),
		     "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7");
	CHECK_EQ_STR(digest_hex(HASH_BLAKE3, in, 1025, hex),
		     "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444");
}

TEST(hash_none_has_no_digest)
{
	uint8_t d[HASH_MAX_DIGEST];
	CHECK_EQ_U64(hash_digest_size(HASH_NONE), 0);
	CHECK(hash_buffer(HASH_NONE, "x", 1, d) == 0);
	for (int i = 0; i < HASH_MAX_DIGEST; i++)
		CHECK_EQ_INT(d[i], 0);
}

TEST(hash_names_parse_both_ways)
{
	enum hash_algo a;
	CHECK(hash_algo_parse("BLAKE3", &a) == 0 && a == HASH_BLAKE3);
	CHECK(hash_algo_parse("sha-256", &a) == 0 && a == HASH_SHA256);
	CHECK(hash_algo_parse("none", &a) == 0 && a == HASH_NONE);
	CHECK(hash_algo_parse("md5", &a) < 0);
	CHECK(hash_algo_parse("", &a) < 0);
	for (unsigned i = 0; i <= HASH_ALGO_MAX; i++) {
		CHECK(hash_algo_parse(hash_algo_name(i), &a) == 0);
		CHECK_EQ_INT(a, i);
	}
	CHECK_EQ_U64(hash_digest_size(HASH_SHA256), 32);
	CHECK_EQ_U64(hash_digest_size(HASH_BLAKE3), 32);
	CHECK(!hash_algo_valid(HASH_ALGO_MAX + 1));
}

/* Feeding the data in odd pieces, through a reused context, gives the one-shot digest. */
TEST(hash_streaming_equals_one_shot)
{
	size_t len = 300000;
	unsigned char *buf = malloc(len);
	rand_fill(buf, len, 42);
	struct hash_ctx h = { 0 };
	enum hash_algo algos[] = { HASH_BLAKE3, HASH_SHA256 };
	size_t steps[] = { 1, 63, 64, 65, 1023, 1024, 4097, 65536 };
	for (unsigned a = 0; a < 2; a++) {
		uint8_t want[HASH_MAX_DIGEST], got[HASH_MAX_DIGEST];
		CHECK(hash_buffer(algos[a], buf, len, want) == 0);
		for (unsigned s = 0; s < sizeof steps / sizeof steps[0]; s++) {
			CHECK(hash_init(&h, algos[a]) == 0);
			for (size_t off = 0; off < len; off += steps[s])
				hash_update(&h, buf + off, len - off < steps[s] ? len - off : steps[s]);
			hash_final(&h, got);
			CHECK(memcmp(want, got, 32) == 0);
		}
	}
	hash_release(&h);
	free(buf);
}

/* Run "tool file" and compare the first word of its output with our digest. */
static int tool_digest(const char *tool, const char *path, char *out, size_t len)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s '%s' 2>/dev/null", tool, path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	int ok = fscanf(p, "%64s", out) == 1;
	(void)len;
	return pclose(p) == 0 && ok ? 0 : -1;
}

TEST(hash_agrees_with_b3sum_and_sha256sum)
{
	static const size_t lens[] = { 0,    1,    63,   64,    65,    1023,  1024,  1025, 2048,
				       4095, 4096, 4097, 16384, 65535, 65536, 65537, 262145,
				       (1u << 20) + 1 };
	const char *tools[] = { "b3sum", "sha256sum" };
	enum hash_algo algos[] = { HASH_BLAKE3, HASH_SHA256 };
	size_t maxlen = (1u << 20) + 1;
	unsigned char *buf = malloc(maxlen);
	char path[512];
	snprintf(path, sizeof path, "%s/input", test_tmpdir());
	for (unsigned t = 0; t < 2; t++) {
		char probe[128];
		snprintf(probe, sizeof probe, "command -v %s >/dev/null", tools[t]);
		if (system(probe) != 0) {
			fprintf(stderr, "    %s not installed: skipped\n", tools[t]);
			continue;
		}
		for (unsigned i = 0; i < sizeof lens / sizeof lens[0]; i++) {
			rand_fill(buf, lens[i], 1000 + i);
			FILE *f = fopen(path, "wb");
			CHECK(f && fwrite(buf, 1, lens[i], f) == lens[i]);
			fclose(f);
			char theirs[80] = "", ours[65];
			CHECK(tool_digest(tools[t], path, theirs, sizeof theirs) == 0);
			digest_hex(algos[t], buf, lens[i], ours);
			if (strcmp(theirs, ours) != 0) {
				test_failed(__FILE__, __LINE__, "%s of %zu bytes: %s, ours %s", tools[t], lens[i],
					    theirs, ours);
				break;
			}
		}
	}
	free(buf);
}

/* hash_bench on 1 thread over exactly the data gives the data's digest; on several threads
 * it still accounts every byte. */
TEST(hash_bench_hashes_what_it_is_given)
{
	size_t len = 1000003;
	unsigned char *buf = malloc(len);
	rand_fill(buf, len, 7);
	struct hash_bench_plan p = { .algo = HASH_BLAKE3, .size = len, .block = 4096, .threads = 1,
				     .data = buf, .data_len = len };
	struct hash_bench_result r;
	char err[256];
	uint8_t want[HASH_MAX_DIGEST];
	hash_buffer(HASH_BLAKE3, buf, len, want);
	CHECK(hash_bench(&p, &r, err, sizeof err) == 0);
	CHECK(memcmp(r.digest, want, 32) == 0);
	CHECK_EQ_U64(r.bytes, len);
	CHECK(r.seconds > 0 && r.bytes_per_sec > 0);
	CHECK(cycles_readable() ? r.cycles_per_byte > 0 : r.cycles_per_byte < 0);

	p.threads = 3;
	p.algo = HASH_SHA256;
	p.size = 3 * len + 2;
	CHECK(hash_bench(&p, &r, err, sizeof err) == 0);
	CHECK_EQ_U64(r.bytes, 3 * len + 2);

	p.size = 0;
	CHECK(hash_bench(&p, &r, err, sizeof err) < 0);
	free(buf);
}

TEST(hash_impl_names_follow_features)
{
	struct cpu_features f;
	char list[128];
	unsetenv("OPENSSL_ia32cap");
	cpu_features_detect(&f);
	cpu_features_list(list, sizeof list);
	if (f.avx512)
		CHECK_EQ_STR(hash_impl_name(HASH_BLAKE3), "AVX-512");
	if (f.sha_ni) {
		CHECK_EQ_STR(hash_impl_name(HASH_SHA256), "SHA-NI");
		CHECK_CONTAINS(list, "SHA-NI");
	}
	if (!f.sse2)
		CHECK_EQ_STR(list, "none");
	CHECK(strlen(hash_impl_name(HASH_BLAKE3)) > 0);
}

/* OPENSSL_ia32cap turns OpenSSL's SHA-NI off (bench/aa.sh's busyab does): the name follows it. */
TEST(hash_impl_name_follows_openssl_masks)
{
	struct cpu_features f;
	cpu_features_detect(&f);
	setenv("OPENSSL_ia32cap", ":~0x20000000", 1);
	CHECK(strcmp(hash_impl_name(HASH_SHA256), "SHA-NI") != 0);
	/* leaf 7 replaced by the AVX2 bit alone: AVX2 where the CPU has it */
	setenv("OPENSSL_ia32cap", ":0x20", 1);
	if (f.avx2)
		CHECK_EQ_STR(hash_impl_name(HASH_SHA256), "AVX2");
	/* SSSE3 (leaf 1 ECX bit 9, bit 41 of the first word) and leaf 7 both cleared */
	setenv("OPENSSL_ia32cap", "~0x20000000000:~0x20000020", 1);
	CHECK_EQ_STR(hash_impl_name(HASH_SHA256), "generic");
	/* a mask of other bits changes nothing; BLAKE3 never reads it */
	setenv("OPENSSL_ia32cap", "~0x1:~0x1", 1);
	if (f.sha_ni)
		CHECK_EQ_STR(hash_impl_name(HASH_SHA256), "SHA-NI");
	char b3[32];
	snprintf(b3, sizeof b3, "%s", hash_impl_name(HASH_BLAKE3));
	unsetenv("OPENSSL_ia32cap");
	CHECK_EQ_STR(b3, hash_impl_name(HASH_BLAKE3));
}
