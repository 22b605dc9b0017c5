#include "common.h"
#include <gdbm.h>
#include <stdio.h>

static int fail(const char *what, char *error, int error_len) {
    int code = gdbm_errno ? gdbm_errno : -1;
    snprintf(error, (size_t)error_len, "%s: %s", what, gdbm_strerror(gdbm_errno));
    return code;
}

/// "a:<uid>" in `buffer` (at least len + 2 bytes).
static datum article_key(const char *uid, int len, char *buffer) {
    buffer[0] = 'a';
    buffer[1] = ':';
    memcpy(buffer + 2, uid, (size_t)len);
    datum key = { buffer, len + 2 };
    return key;
}

/// One record's step of a timed loop: 0, or an error code with `error` filled.
typedef int (*sb_gdbm_step)(GDBM_FILE file, int index, void *context, char *error, int error_len);

/// Opens the store, times `count` steps and closes it; the clock covers the steps only.
static int timed_loop(const char *path, int count, sb_gdbm_step step, void *context, uint64_t *elapsed_ns,
                      char *error, int error_len) {
    GDBM_FILE file = gdbm_open(path, 0, GDBM_WRCREAT | GDBM_CLOEXEC, 0600, NULL);
    if (!file) return fail("gdbm_open", error, error_len);
    int rc = 0;
    SB_REGION_START();
    uint64_t start = sb_now_ns();
    for (int i = 0; i < count && rc == 0; i++) rc = step(file, i, context, error, error_len);
    if (rc == 0) *elapsed_ns = sb_now_ns() - start;
    SB_REGION_STOP();
    gdbm_close(file);
    return rc;
}

static int store_step(GDBM_FILE file, int index, void *context, char *error, int error_len) {
    const sb_article *a = &((const sb_article *)context)[index];
    char *key_bytes = malloc((size_t)a->uid_len + 2);
    unsigned char *bytes = malloc(sb_encoded_size(a));
    datum key = article_key(a->uid, a->uid_len, key_bytes);
    datum value = { (char *)bytes, (int)sb_encode(a, bytes) };
    int rc = gdbm_store(file, key, value, GDBM_REPLACE);
    free(bytes);
    free(key_bytes);
    return rc ? fail("gdbm_store", error, error_len) : 0;
}

int sb_gdbm_insert(const char *path, const sb_article *articles, int count, uint64_t *elapsed_ns,
                   char *error, int error_len) {
    return timed_loop(path, count, store_step, (void *)articles, elapsed_ns, error, error_len);
}

typedef struct {
    const sb_key *keys;
    sb_found *found;
} lookup_context;

static int fetch_step(GDBM_FILE file, int index, void *context, char *error, int error_len) {
    const lookup_context *lookup = context;
    const sb_key *key = &lookup->keys[index];
    char *key_bytes = malloc((size_t)key->len + 2);
    datum value = gdbm_fetch(file, article_key(key->bytes, key->len, key_bytes));
    free(key_bytes);
    if (value.dptr) {
        int rc = sb_decode((const unsigned char *)value.dptr, (size_t)value.dsize, &lookup->found[index]);
        free(value.dptr);
        if (rc) snprintf(error, (size_t)error_len, "gdbm_fetch: a malformed record");
        return rc;
    }
    int last = gdbm_last_errno(file);
    return last == GDBM_ITEM_NOT_FOUND || last == GDBM_NO_ERROR ? 0 : fail("gdbm_fetch", error, error_len);
}

int sb_gdbm_lookup(const char *path, const sb_key *keys, int count, sb_found *found, uint64_t *elapsed_ns,
                   char *error, int error_len) {
    lookup_context context = { keys, found };
    return timed_loop(path, count, fetch_step, &context, elapsed_ns, error, error_len);
}
