/* A small unit-test harness. Each TEST runs in its own forked process, so a crash or a
 * sanitizer report fails that test alone. Output: "PASS: file: name" / "FAIL: file: name: why".
 *
 *   TEST(parse_size_accepts_kib) { uint64_t v; CHECK(parse_size("4KiB", &v, 0, 0) == 0); CHECK_EQ_U64(v, 4096); }
 */
#ifndef NM_TEST_H
#define NM_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void test_register(const char *file, const char *name, void (*fn)(void));
void test_failed(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define TEST(name)                                                                   \
	static void name(void);                                                      \
	__attribute__((constructor)) static void register_##name(void)               \
	{                                                                            \
		test_register(__FILE__, #name, name);                                \
	}                                                                            \
	static void name(void)

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (!(cond)) {                                                       \
			test_failed(__FILE__, __LINE__, "%s", #cond);                \
			return;                                                      \
		}                                                                    \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                           \
	do {                                                                         \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                     \
		if (a_ != b_) {                                                      \
			test_failed(__FILE__, __LINE__, "%s == %" PRIu64 ", expected %" PRIu64, #a, a_, b_); \
			return;                                                      \
		}                                                                    \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                           \
	do {                                                                         \
		long long a_ = (long long)(a), b_ = (long long)(b);                  \
		if (a_ != b_) {                                                      \
			test_failed(__FILE__, __LINE__, "%s == %lld, expected %lld", #a, a_, b_); \
			return;                                                      \
		}                                                                    \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                           \
	do {                                                                         \
		const char *a_ = (a), *b_ = (b);                                     \
		if (!a_ || !b_ || strcmp(a_, b_) != 0) {                             \
			test_failed(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a, \
				    a_ ? a_ : "(null)", b_ ? b_ : "(null)");         \
			return;                                                      \
		}                                                                    \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                        \
	do {                                                                         \
		double a_ = (double)(a), b_ = (double)(b);                           \
		if (!(fabs(a_ - b_) <= (tol))) {                                     \
			test_failed(__FILE__, __LINE__, "%s == %.9g, expected %.9g (±%g)", #a, a_, b_, (double)(tol)); \
			return;                                                      \
		}                                                                    \
	} while (0)

/* Substring check for messages. */
#define CHECK_CONTAINS(hay, needle)                                                  \
	do {                                                                         \
		const char *h_ = (hay), *n_ = (needle);                              \
		if (!h_ || !strstr(h_, n_)) {                                        \
			test_failed(__FILE__, __LINE__, "\"%s\" does not contain \"%s\"", h_ ? h_ : "(null)", n_); \
			return;                                                      \
		}                                                                    \
	} while (0)

/* A scratch directory for this test (removed afterwards by the runner). */
const char *test_tmpdir(void);

/* The engine nodemark knows by this name (io_engine_parse); the test aborts when none is. */
struct io_engine_ops;
const struct io_engine_ops *test_engine(const char *name);

#endif
