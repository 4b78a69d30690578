/* The checksums of fio's data verification (verify=), bit for bit as fio 3.33 computes and
 * stores them in its block headers, so that files written by one tool verify under the other.
 *
 * Several are not the textbook algorithm, and are kept as fio has them on purpose:
 *   crc32c  Castagnoli, started at ~0 and not inverted at the end (fio's crc32c_sw/_intel);
 *   crc32   the POSIX cksum polynomial, MSB first, started at 0, no length, not inverted;
 *   sha1    the five state words stored in host order (little-endian here), not big-endian;
 *   sha256  the length in the padding little-endian, and 64 stored bytes: the low byte of each
 *           state word, then bytes 8..63 of the last block hashed (fio stores its work buffer);
 *   sha512  no final step: the 128 stored bytes are fio's block buffer after one update, i.e.
 *           copies of data bytes (no digest at all).
 * md5 and xxhash (XXH32, seed 1) are the standard ones. All of them are host-order (x86). */
#ifndef NM_HASH_FIOSUMS_H
#define NM_HASH_FIOSUMS_H

#include <stddef.h>
#include <stdint.h>

uint32_t fio_sum_crc32c(const void *data, size_t len);
uint32_t fio_sum_crc32(const void *data, size_t len);
uint32_t fio_sum_xxhash(const void *data, size_t len);
void fio_sum_md5(const void *data, size_t len, uint8_t out[16]);
void fio_sum_sha1(const void *data, size_t len, uint8_t out[20]);
void fio_sum_sha256(const void *data, size_t len, uint8_t out[64]);
/* len must be at least 128 (fio's buffer is not filled below that). */
void fio_sum_sha512(const void *data, size_t len, uint8_t out[128]);

#endif
