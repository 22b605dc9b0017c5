#include "common.h"
#include <lmdb.h>
#include <stdio.h>

static const char *names[] = { "articles", "users", "timeline", "settings", "cache" };

static int fail(int rc, const char *what, char *error, int error_len) {
    snprintf(error, (size_t)error_len, "%s: %s", what, mdb_strerror(rc));
    return rc;
}

/// The environment and the `articles` database as the lmdb backend opens them (all five named databases).
static int open_env(const char *path, size_t map_size, MDB_env **env, MDB_dbi *articles, char *error, int error_len) {
    int rc;
    if ((rc = mdb_env_create(env))) return fail(rc, "mdb_env_create", error, error_len);
    if ((rc = mdb_env_set_mapsize(*env, map_size))) return fail(rc, "mdb_env_set_mapsize", error, error_len);
    if ((rc = mdb_env_set_maxdbs(*env, 8))) return fail(rc, "mdb_env_set_maxdbs", error, error_len);
    if ((rc = mdb_env_open(*env, path, MDB_NOTLS | MDB_NOSYNC, 0600))) return fail(rc, "mdb_env_open", error, error_len);
    for (int i = 0; i < 5; i++) {
        MDB_txn *txn;
        MDB_dbi dbi;
        if ((rc = mdb_txn_begin(*env, NULL, 0, &txn))) return fail(rc, "mdb_txn_begin", error, error_len);
        if ((rc = mdb_dbi_open(txn, names[i], MDB_CREATE, &dbi))) {
            mdb_txn_abort(txn);
            return fail(rc, "mdb_dbi_open", error, error_len);
        }
        if ((rc = mdb_txn_commit(txn))) return fail(rc, "mdb_txn_commit", error, error_len);
        if (i == 0) *articles = dbi;
    }
    return 0;
}

int sb_lmdb_insert(const char *path, size_t map_size, const sb_article *articles, int count, uint64_t *elapsed_ns,
                   char *error, int error_len) {
    MDB_env *env = NULL;
    MDB_dbi dbi;
    MDB_txn *txn = NULL;
    int rc = open_env(path, map_size, &env, &dbi, error, error_len);
    if (rc) goto done;
    SB_REGION_START();
    uint64_t start = sb_now_ns();
    if ((rc = mdb_txn_begin(env, NULL, 0, &txn))) { rc = fail(rc, "mdb_txn_begin", error, error_len); goto done; }
    for (int i = 0; i < count; i++) {
        const sb_article *a = &articles[i];
        unsigned char *bytes = malloc(sb_encoded_size(a));
        MDB_val key = { (size_t)a->uid_len, (void *)a->uid };
        MDB_val value = { sb_encode(a, bytes), bytes };
        rc = mdb_put(txn, dbi, &key, &value, MDB_NOOVERWRITE);
        free(bytes);
        if (rc) { rc = fail(rc, "mdb_put", error, error_len); goto done; }
    }
    rc = mdb_txn_commit(txn);
    txn = NULL;
    if (rc) { rc = fail(rc, "mdb_txn_commit", error, error_len); goto done; }
    *elapsed_ns = sb_now_ns() - start;
    SB_REGION_STOP();
done:
    if (txn) mdb_txn_abort(txn);
    if (env) mdb_env_close(env);
    return rc;
}

int sb_lmdb_lookup(const char *path, size_t map_size, const sb_key *keys, int count, sb_found *found,
                   uint64_t *elapsed_ns, char *error, int error_len) {
    MDB_env *env = NULL;
    MDB_dbi dbi;
    int rc = open_env(path, map_size, &env, &dbi, error, error_len);
    if (rc) goto done;
    SB_REGION_START();
    uint64_t start = sb_now_ns();
    for (int i = 0; i < count; i++) {
        MDB_txn *txn;
        if ((rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn))) { rc = fail(rc, "mdb_txn_begin", error, error_len); goto done; }
        MDB_val key = { (size_t)keys[i].len, (void *)keys[i].bytes }, value;
        rc = mdb_get(txn, dbi, &key, &value);
        if (rc == 0 && sb_decode(value.mv_data, value.mv_size, &found[i])) rc = MDB_CORRUPTED;
        mdb_txn_abort(txn);
        if (rc && rc != MDB_NOTFOUND) { rc = fail(rc, "mdb_get", error, error_len); goto done; }
    }
    *elapsed_ns = sb_now_ns() - start;
    SB_REGION_STOP();
    rc = 0;
done:
    if (env) mdb_env_close(env);
    return rc;
}
