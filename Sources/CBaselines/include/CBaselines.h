#ifndef CBASELINES_H
#define CBASELINES_H

#include <stddef.h>
#include <stdint.h>

/// The work of the `sqlite`, `lmdb` and `gdbm` backends' inserts and point lookups written in C the way a C
/// programmer would, for `storebench overhead`. Each function times only the operation (the open, schema and
/// pragmas are outside), returns 0 and the elapsed nanoseconds in `*elapsed_ns`, or the library's error code
/// with its message in `error` (`error_len` bytes at most).

/// One article's fields as C data (UTF-8 text with explicit lengths).
typedef struct {
    const char *uid; int uid_len;
    int64_t feed_id;
    const char *title; int title_len;
    const char *summary; int summary_len;
    int64_t published;
    int read;
} sb_article;

/// A key to look up (UTF-8 with its length).
typedef struct {
    const char *bytes; int len;
} sb_key;

/// What a lookup found: copies of the fields in memory the C side owns (`found` 0: nothing was found).
/// Release them with `sb_found_free`.
typedef struct {
    int found;
    char *uid; int uid_len;
    int64_t feed_id;
    char *title; int title_len;
    char *summary; int summary_len;
    int64_t published;
    int read;
} sb_found;

/// FNV-1a 64 over every found article in order (uid, title and summary bytes each preceded by their length as
/// 4 little-endian bytes; feed_id and published as 8 little-endian bytes; read as one byte; a missing article as
/// one 0xFF byte): the proof that both sides found the same. Untimed.
uint64_t sb_found_checksum(const sb_found *found, int count);
void sb_found_free(sb_found *found, int count);

/// SQLite: opens `path` with `pragmas` and `schema`, then inserts in one transaction with one prepared statement.
int sb_sqlite_insert(const char *path, const char *pragmas, const char *schema, const char *insert_sql,
                     const sb_article *articles, int count, uint64_t *elapsed_ns, char *error, int error_len);
/// SQLite: one prepared `select_sql` (uid, feed_id, title, summary, published, read by uid ?1), bound and stepped
/// per key, its columns copied out.
int sb_sqlite_lookup(const char *path, const char *select_sql, const sb_key *keys, int count, sb_found *found,
                     uint64_t *elapsed_ns, char *error, int error_len);

/// LMDB: an environment as the `lmdb` backend opens it (MDB_NOTLS | MDB_NOSYNC, `map_size`, its five named
/// databases), then every article encoded as the backend's RecordCodec does and put with MDB_NOOVERWRITE into
/// `articles`, in one write transaction.
int sb_lmdb_insert(const char *path, size_t map_size, const sb_article *articles, int count, uint64_t *elapsed_ns,
                   char *error, int error_len);
/// LMDB: per key a read-only transaction, mdb_get from `articles`, the record decoded into copies.
int sb_lmdb_lookup(const char *path, size_t map_size, const sb_key *keys, int count, sb_found *found,
                   uint64_t *elapsed_ns, char *error, int error_len);

/// GDBM: `path` opened GDBM_WRCREAT, every article stored under "a:<uid>" (GDBM_REPLACE), no sync.
int sb_gdbm_insert(const char *path, const sb_article *articles, int count, uint64_t *elapsed_ns,
                   char *error, int error_len);
/// GDBM: per key gdbm_fetch of "a:<uid>", the record decoded into copies and the fetched datum freed.
int sb_gdbm_lookup(const char *path, const sb_key *keys, int count, sb_found *found, uint64_t *elapsed_ns,
                   char *error, int error_len);

#endif
