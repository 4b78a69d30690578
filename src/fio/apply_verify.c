/* fio's data verification options onto io_job.verify (the engine's side: io/verify.c). */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

static const struct { const char *name; enum io_verify_kind kind; } verify_kinds[] = {
	{ "0", IO_VERIFY_NONE },          { "none", IO_VERIFY_NONE },           { "null", IO_VERIFY_NULL },
	{ "md5", IO_VERIFY_MD5 },         { "crc32", IO_VERIFY_CRC32 },         { "crc32c", IO_VERIFY_CRC32C },
	{ "crc32c-intel", IO_VERIFY_CRC32C }, { "sha1", IO_VERIFY_SHA1 },       { "sha256", IO_VERIFY_SHA256 },
	{ "sha512", IO_VERIFY_SHA512 },   { "xxhash", IO_VERIFY_XXHASH },       { "meta", IO_VERIFY_META },
	{ "pattern", IO_VERIFY_PATTERN_NO_HDR },
};

FIO_APPLY(verify)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < sizeof verify_kinds / sizeof verify_kinds[0]; i++)
		if (strcmp(v, verify_kinds[i].name) == 0) {
			j->io.verify.kind = verify_kinds[i].kind;
			j->verify_given = 1;
			return 0;
		}
	if (!strcmp(v, "crc64") || !strcmp(v, "crc16") || !strcmp(v, "crc7") || !strncmp(v, "sha3-", 5))
		return nm_errf(err, errlen, "\"%s\": not implemented (md5, crc32c, crc32c-intel, crc32, sha1, sha256, "
			       "sha512, xxhash, meta, pattern and null are)", fio_q(v, qb, sizeof qb));
	return nm_errf(err, errlen, "\"%s\": expected md5, crc32c, crc32c-intel, crc32, sha1, sha256, sha512, xxhash, "
		       "meta, pattern, null or 0", fio_q(v, qb, sizeof qb));
}

FIO_APPLY(do_verify)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.verify.no_readback = !b;
	return 0;
}

FIO_APPLY(verify_only)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.verify.only = b;
	return 0;
}

/* fio's minimums: an interval holds two headers, an offset at least clears one. */
FIO_APPLY(verify_interval)
{
	uint64_t n;
	if (fio_int(j, v, 80, UINT32_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.verify.interval = (unsigned)n;
	return 0;
}

FIO_APPLY(verify_offset)
{
	uint64_t n;
	if (fio_int(j, v, 40, UINT32_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.verify.offset = (unsigned)n;
	return 0;
}

FIO_APPLY(verify_backlog)
{
	return fio_int(j, v, 0, UINT32_MAX, &j->io.verify.backlog, err, errlen);
}

FIO_APPLY(verify_backlog_batch)
{
	return fio_int(j, v, 0, UINT32_MAX, &j->io.verify.batch, err, errlen);
}

/* Booleans that change nothing here (the table's text says why); the value is still checked. */
FIO_APPLY(verify_bool)
{
	int b;
	(void)j;
	return fio_parse_bool(v, &b, err, errlen);
}

/* fio's verify state files (fio/vstate.c): read before the run, written after it. */
FIO_APPLY(verify_state_load)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->vstate.load = b;
	return 0;
}

FIO_APPLY(verify_state_save)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.verify.save_state = b;
	return 0;
}

FIO_APPLY(experimental_verify)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.verify.experimental = b;
	return 0;
}

/* verify_pattern: the parts one after another; without verify= it means verify with a header
 * and the pattern (fio's VERIFY_PATTERN), as in fio. */
FIO_APPLY(verify_pattern)
{
	uint8_t pat[IO_VERIFY_PATTERN_MAX];
	unsigned len;
	if (fio_parse_pattern(v, pat, sizeof pat, &len, err, errlen) < 0)
		return -1;
	memcpy(j->io.verify.pattern, pat, len);
	j->io.verify.pattern_len = len;
	if (!j->verify_given)
		j->io.verify.kind = IO_VERIFY_PATTERN;
	return 0;
}
