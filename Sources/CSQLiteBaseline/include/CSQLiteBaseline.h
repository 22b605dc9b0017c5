#ifndef CSQLITEBASELINE_H
#define CSQLITEBASELINE_H

#include <stdint.h>

/// One article's fields as C data (UTF-8 text with explicit lengths).
typedef struct {
    const char *uid; int uid_len;
    int64_t feed_id;
    const char *title; int title_len;
    const char *summary; int summary_len;
    int64_t published;
    int read;
} sb_article;

/// The reference for the Swift adapter's overhead: opens `path` with the same pragmas and schema as the
/// `sqlite` backend, then inserts `count` articles in one transaction with one reused prepared statement,
/// exactly as a C programmer would. Only the transaction is timed. Returns 0 and the elapsed nanoseconds in
/// `*elapsed_ns`, or the SQLite error code (and the message in `error`, `error_len` bytes at most).
int sb_c_insert(const char *path, const char *pragmas, const char *schema, const char *insert_sql,
                const sb_article *articles, int count, uint64_t *elapsed_ns, char *error, int error_len);

#endif
