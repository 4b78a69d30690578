/* libFuzzer harness: fio's verify state file reader (io_vstate_parse, src/io/verify_state.c),
 * which reads the file verify_state_load names. Besides memory safety: a refusal is one
 * printable line; a state that parses, written again (io_vstate_encode), parses to the same
 * numbers. */
#include "fuzz_util.h"
#include "hash/fiosums.h"
#include "io/engine.h"

static void one(const uint8_t *data, size_t size);

/* Each input twice: as it is, and with the header's crc made right for the record it gives
 * (the fuzzer seldom guesses a crc32c), so the record's own checks are reached. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size);
	if (size >= IO_VSTATE_HDR) {
		uint8_t *copy = malloc(size);
		uint64_t rec, crc;
		FUZZ_ASSERT(copy != NULL);
		memcpy(copy, data, size);
		memcpy(&rec, copy + 8, 8);
		if (rec <= size - IO_VSTATE_HDR) {
			crc = fio_sum_crc32c(copy + IO_VSTATE_HDR, (size_t)rec);
			memcpy(copy + 16, &crc, 8);
			one(copy, size);
		}
		free(copy);
	}
	return 0;
}

static void one(const uint8_t *data, size_t size)
{
	struct io_vstate a, b;
	char err[512];
	if (io_vstate_parse(data, size, &a, err, sizeof err) < 0) {
		fuzz_check_message(err);
		FUZZ_ASSERT(a.comps == NULL);
		return;
	}
	FUZZ_ASSERT(a.ncomps <= (uint64_t)IO_VSTATE_MAX_SLOTS);
	/* the record holds depth x files slots: written again, those that fit it come back */
	uint64_t slots = (uint64_t)a.depth * a.nfiles;
	if (slots <= IO_VSTATE_MAX_SLOTS && a.ncomps <= slots) {
		unsigned char *buf;
		size_t n = io_vstate_encode(&a, "fuzz", 0, &buf);
		FUZZ_ASSERT(n == IO_VSTATE_HDR + IO_VSTATE_REC + slots * 16);
		FUZZ_ASSERT(io_vstate_parse(buf, n, &b, err, sizeof err) == 0);
		FUZZ_ASSERT(b.numberio == a.numberio && b.depth == a.depth && b.nfiles == a.nfiles &&
			    b.ncomps == a.ncomps);
		FUZZ_ASSERT(a.ncomps == 0 || memcmp(a.comps, b.comps, a.ncomps * sizeof *a.comps) == 0);
		free(b.comps);
		free(buf);
	}
	free(a.comps);
}
