#include "common.h"
#include <sqlite3.h>
#include <stdio.h>

static int fail(sqlite3 *db, int rc, char *error, int error_len) {
    snprintf(error, (size_t)error_len, "%s", db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    return rc;
}

int sb_sqlite_insert(const char *path, const char *pragmas, const char *schema, const char *insert_sql,
                     const sb_article *articles, int count, uint64_t *elapsed_ns, char *error, int error_len) {
    sqlite3 *db = NULL;
    sqlite3_stmt *insert = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) { rc = fail(db, rc, error, error_len); goto done; }
    if ((rc = sqlite3_exec(db, pragmas, NULL, NULL, NULL)) != SQLITE_OK) { rc = fail(db, rc, error, error_len); goto done; }
    if ((rc = sqlite3_exec(db, schema, NULL, NULL, NULL)) != SQLITE_OK) { rc = fail(db, rc, error, error_len); goto done; }

    SB_REGION_START();
    uint64_t start = sb_now_ns();
    if ((rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) != SQLITE_OK) { rc = fail(db, rc, error, error_len); goto done; }
    if ((rc = sqlite3_prepare_v3(db, insert_sql, -1, SQLITE_PREPARE_PERSISTENT, &insert, NULL)) != SQLITE_OK) {
        rc = fail(db, rc, error, error_len);
        goto done;
    }
    for (int i = 0; i < count; i++) {
        const sb_article *a = &articles[i];
        sqlite3_bind_text(insert, 1, a->uid, a->uid_len, SQLITE_TRANSIENT);
        sqlite3_bind_int64(insert, 2, a->feed_id);
        sqlite3_bind_text(insert, 3, a->title, a->title_len, SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 4, a->summary, a->summary_len, SQLITE_TRANSIENT);
        sqlite3_bind_int64(insert, 5, a->published);
        sqlite3_bind_int64(insert, 6, a->read);
        rc = sqlite3_step(insert);
        sqlite3_reset(insert);
        if (rc != SQLITE_DONE) { rc = fail(db, rc, error, error_len); goto done; }
    }
    if ((rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)) != SQLITE_OK) { rc = fail(db, rc, error, error_len); goto done; }
    *elapsed_ns = sb_now_ns() - start;
    SB_REGION_STOP();
    rc = SQLITE_OK;
done:
    sqlite3_finalize(insert);
    sqlite3_close(db);
    return rc;
}

int sb_sqlite_lookup(const char *path, const char *select_sql, const sb_key *keys, int count, sb_found *found,
                     uint64_t *elapsed_ns, char *error, int error_len) {
    sqlite3 *db = NULL;
    sqlite3_stmt *select = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) { rc = fail(db, rc, error, error_len); goto done; }
    if ((rc = sqlite3_prepare_v3(db, select_sql, -1, SQLITE_PREPARE_PERSISTENT, &select, NULL)) != SQLITE_OK) {
        rc = fail(db, rc, error, error_len);
        goto done;
    }
    SB_REGION_START();
    uint64_t start = sb_now_ns();
    for (int i = 0; i < count; i++) {
        sqlite3_bind_text(select, 1, keys[i].bytes, keys[i].len, SQLITE_STATIC);
        rc = sqlite3_step(select);
        sb_found *f = &found[i];
        if (rc == SQLITE_ROW) {
            f->found = 1;
            f->uid_len = sqlite3_column_bytes(select, 0);
            f->uid = sb_copy(sqlite3_column_text(select, 0), f->uid_len);
            f->feed_id = sqlite3_column_int64(select, 1);
            f->title_len = sqlite3_column_bytes(select, 2);
            f->title = sb_copy(sqlite3_column_text(select, 2), f->title_len);
            f->summary_len = sqlite3_column_bytes(select, 3);
            f->summary = sb_copy(sqlite3_column_text(select, 3), f->summary_len);
            f->published = sqlite3_column_int64(select, 4);
            f->read = sqlite3_column_int64(select, 5) != 0;
        } else if (rc != SQLITE_DONE) {
            rc = fail(db, rc, error, error_len);
            goto done;
        }
        sqlite3_reset(select);
    }
    *elapsed_ns = sb_now_ns() - start;
    SB_REGION_STOP();
    rc = SQLITE_OK;
done:
    sqlite3_finalize(select);
    sqlite3_close(db);
    return rc;
}
