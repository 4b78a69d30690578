/* `pieces verify`: check a piece store left on disk (a --keep run's), and repair what can be
 * repaired without losing a piece.  The store's layout: pieces/run.h and pieces/format.h. */
#ifndef NM_PIECES_VERIFY_H
#define NM_PIECES_VERIFY_H

#include <stddef.h>
#include <stdint.h>

/* What `pieces verify` found. */
struct pieces_verify_report {
	uint64_t pieces, ok, corrupt;
	uint64_t unverified;            /* pieces stored without a hash: data not checkable */
	uint64_t missing;               /* committed (the marker's count) but not found */
	uint64_t unindexed;             /* log: committed pieces found by their footers, not in the index */
	uint64_t bad_records;           /* log: damaged index records and index headers */
	uint64_t left_alone;            /* entries nodemark does not write (links, other files): untouched */
	uint64_t temp_files;            /* files backend: leftover temp/blob-...partial files */
	uint64_t tail_bytes;            /* log backend: bytes after the last committed piece */
	uint64_t removed;               /* temp files removed / logs truncated by repair */
	uint64_t reindexed;             /* log: pieces put back in a rebuilt index by repair */
	unsigned index_damaged;         /* log: shards whose index is missing, damaged or lacks pieces */
	unsigned index_rebuilt;         /* log: of those, rebuilt by repair */
	unsigned stores;
	unsigned uncounted;             /* stores without a committed count (the run did not finish) */
	uint64_t duplicates;            /* log: second copies of a piece already in the store (a copied log) */
	unsigned no_marker;             /* .nodemark-* stores whose PIECES marker is gone: checked, unsound */
};

/* What a finding is: a corrupt piece, a damaged store (missing pieces, a damaged index), or an
 * entry left alone (nodemark did not write it, and never follows or removes it). */
enum pieces_finding { PIECES_CORRUPT, PIECES_DAMAGED, PIECES_LEFT_ALONE };

/* Called for each finding: its kind, the file and what is wrong. */
typedef void (*pieces_verify_fn)(void *arg, enum pieces_finding kind, const char *path, const char *why);

/* The store is sound: no corrupt or missing piece, no damaged index, nothing foreign. */
int pieces_verify_sound(const struct pieces_verify_report *rep);

/* Verify the store at dir, or every store directly under dir (a kept run's parent).
 * Returns 0 when checked (corrupt pieces are in the report), NM_EXIT_USAGE when dir holds no
 * store, NM_EXIT_FAILED on an I/O error. */
int pieces_verify(const char *dir, int repair, struct pieces_verify_report *rep, pieces_verify_fn fn,
		  void *arg, char *err, size_t errlen);

#endif
