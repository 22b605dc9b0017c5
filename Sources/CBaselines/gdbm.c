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

int sb_gdbm_insert(const char *path, const sb_article *articles, int count, uint64_t *elapsed_ns,
                   char *error, int error_len) {
    GDBM_FILE file = gdbm_open(path, 0, GDBM_WRCREAT | GDBM_CLOEXEC, 0600, NULL);
    if (!file) return fail("gdbm_open", error, error_len);
    int rc = 0;
    uint64_t start = sb_now_ns();
    for (int i = 0; i < count; i++) {
        const sb_article *a = &articles[i];
        char *key_bytes = malloc((size_t)a->uid_len + 2);
        unsigned char *bytes = malloc(sb_encoded_size(a));
        datum key = article_key(a->uid, a->uid_len, key_bytes);
        datum value = { (char *)bytes, (int)sb_encode(a, bytes) };
        rc = gdbm_store(file, key, value, GDBM_REPLACE);
        free(bytes);
        free(key_bytes);
        if (rc) { rc = fail("gdbm_store", error, error_len); goto done; }
    }
    *elapsed_ns = sb_now_ns() - start;
done:
    gdbm_close(file);
    return rc;
}

int sb_gdbm_lookup(const char *path, const sb_key *keys, int count, sb_found *found, uint64_t *elapsed_ns,
                   char *error, int error_len) {
    GDBM_FILE file = gdbm_open(path, 0, GDBM_WRCREAT | GDBM_CLOEXEC, 0600, NULL);
    if (!file) return fail("gdbm_open", error, error_len);
    int rc = 0;
    uint64_t start = sb_now_ns();
    for (int i = 0; i < count; i++) {
        char *key_bytes = malloc((size_t)keys[i].len + 2);
        datum value = gdbm_fetch(file, article_key(keys[i].bytes, keys[i].len, key_bytes));
        free(key_bytes);
        if (value.dptr) {
            rc = sb_decode((const unsigned char *)value.dptr, (size_t)value.dsize, &found[i]);
            free(value.dptr);
            if (rc) {
                snprintf(error, (size_t)error_len, "gdbm_fetch: a malformed record");
                goto done;
            }
        } else if (gdbm_last_errno(file) != GDBM_ITEM_NOT_FOUND && gdbm_last_errno(file) != GDBM_NO_ERROR) {
            rc = fail("gdbm_fetch", error, error_len);
            goto done;
        }
    }
    *elapsed_ns = sb_now_ns() - start;
done:
    gdbm_close(file);
    return rc;
}
