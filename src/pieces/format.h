/* On-disk formats of the piece store, and their decoders (which `pieces verify` runs on
 * whatever it finds on disk, so they check every length and field; fuzz/fuzz_piece_header.c).
 *
 * files backend, one file per piece (the storage-node layout):
 *   [0, 512)     reserved header: 2-byte big-endian length L, then L bytes of fields
 *   [512, ...)   the piece data
 *   fields (little-endian): u8 version, u8 hash algorithm, u8 hash length, u8 0,
 *                u64 piece size, i64 creation time (Unix ns), 32-byte hash, u32 CRC-32C of the
 *                preceding fields (56 bytes: version 1's fields)
 *   appended since (L = 92): the 32-byte piece id, u32 CRC-32C of those 32 bytes, so verify
 *   can tell a piece renamed to another's name.  A newer version may append more (L larger).
 *
 * log backend: pieces appended to log files, each followed by a 96-byte footer
 *   "NMLF", u8 version, u8 algorithm, u8 hash length, u8 0, u64 size, i64 created (ns),
 *   32-byte piece id, 32-byte hash, u32 0, u32 CRC-32C of bytes [0, 92)
 * and indexed by an open-addressing hash table (linear probing on the id's first 8 bytes):
 *   64-byte table header "NMIX", u32 version, u64 slot count, zeros, u32 CRC-32C at 60
 *   then slot records of 64 bytes: 32-byte id, u32 log number, u32 flags (1 = used),
 *   u64 data offset, u64 piece size, u32 creation time (Unix s), u32 CRC-32C of [0, 60).
 *   An all-zero record is an empty slot. */
#ifndef NM_PIECES_FORMAT_H
#define NM_PIECES_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "hash/hash.h"

#define PIECE_ID_LEN 32
#define PIECE_HEADER_SIZE 512
#define PIECE_HEADER_FIELDS_V1 56    /* the fields every header has */
#define PIECE_HEADER_FIELDS 92       /* with the piece id appended */
#define PIECE_FORMAT_VERSION 1
#define LOG_FOOTER_SIZE 96
#define INDEX_RECORD_SIZE 64
#define PIECE_ID_B32_LEN 52     /* 32 bytes in unpadded base32 */

struct piece_info {
	unsigned version;
	enum hash_algo algo;
	unsigned hash_len;
	uint64_t size;
	int64_t created_ns;
	uint8_t id[PIECE_ID_LEN];       /* log footer; files header when has_id */
	int has_id;                     /* files header: the id is in it (written since L = 92) */
	uint8_t hash[HASH_MAX_DIGEST];
};

struct index_record {
	uint8_t id[PIECE_ID_LEN];
	uint32_t log_no;
	uint32_t flags;
	uint64_t offset;
	uint64_t size;
	uint32_t created_s;
};
#define INDEX_USED 1u

uint32_t crc32c(uint32_t crc, const void *data, size_t len);

/* Fill out[PIECE_HEADER_SIZE] (zero padded); the id only when pi->has_id. */
void piece_header_encode(const struct piece_info *pi, uint8_t *out);
/* Decode len bytes (the start of a piece file). Returns 0, or -1 with a reason in why. */
int piece_header_decode(const uint8_t *buf, size_t len, struct piece_info *pi, const char **why);

void log_footer_encode(const struct piece_info *pi, uint8_t out[LOG_FOOTER_SIZE]);
int log_footer_decode(const uint8_t *buf, size_t len, struct piece_info *pi, const char **why);

void index_header_encode(uint64_t nslots, uint8_t out[INDEX_RECORD_SIZE]);
int index_header_decode(const uint8_t *buf, size_t len, uint64_t *nslots, const char **why);
void index_record_encode(const struct index_record *r, uint8_t out[INDEX_RECORD_SIZE]);
/* Returns 1 for a used record, 0 for an empty slot, -1 for a damaged one (why says how). */
int index_record_decode(const uint8_t *buf, size_t len, struct index_record *r, const char **why);
/* The slot a piece id starts probing at. */
uint64_t index_slot(const uint8_t id[PIECE_ID_LEN], uint64_t nslots);

/* Unpadded lowercase RFC 4648 base32 (the storage node's path encoding). out needs
 * ceil(8n/5)+1 bytes. Decode returns the byte count or -1 on a bad character or length. */
void base32_encode(const uint8_t *in, size_t n, char *out);
int base32_decode(const char *in, size_t len, uint8_t *out, size_t outlen);

#endif
