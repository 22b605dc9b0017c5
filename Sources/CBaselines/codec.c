#include "common.h"

static void put_u32(unsigned char **p, uint32_t v) {
    for (int i = 0; i < 4; i++) *(*p)++ = (unsigned char)(v >> (8 * i));
}

static void put_i64(unsigned char **p, int64_t value) {
    uint64_t v = (uint64_t)value;
    for (int i = 0; i < 8; i++) *(*p)++ = (unsigned char)(v >> (8 * i));
}

static void put_text(unsigned char **p, const char *text, int len) {
    put_u32(p, (uint32_t)len);
    memcpy(*p, text, (size_t)len);
    *p += len;
}

size_t sb_encoded_size(const sb_article *a) {
    return 4 + (size_t)a->uid_len + 8 + 4 + (size_t)a->title_len + 4 + (size_t)a->summary_len + 8 + 1;
}

size_t sb_encode(const sb_article *a, unsigned char *out) {
    unsigned char *p = out;
    put_text(&p, a->uid, a->uid_len);
    put_i64(&p, a->feed_id);
    put_text(&p, a->title, a->title_len);
    put_text(&p, a->summary, a->summary_len);
    put_i64(&p, a->published);
    *p++ = a->read ? 1 : 0;
    return (size_t)(p - out);
}

typedef struct { const unsigned char *p, *end; } reader;

static int get_u32(reader *r, uint32_t *v) {
    if (r->end - r->p < 4) return -1;
    *v = 0;
    for (int i = 0; i < 4; i++) *v |= (uint32_t)r->p[i] << (8 * i);
    r->p += 4;
    return 0;
}

static int get_i64(reader *r, int64_t *value) {
    if (r->end - r->p < 8) return -1;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)r->p[i] << (8 * i);
    r->p += 8;
    *value = (int64_t)v;
    return 0;
}

static int get_text(reader *r, char **text, int *len) {
    uint32_t n;
    if (get_u32(r, &n) || (uint32_t)(r->end - r->p) < n) return -1;
    *text = sb_copy(r->p, (int)n);
    *len = (int)n;
    r->p += n;
    return *text ? 0 : -1;
}

int sb_decode(const unsigned char *bytes, size_t len, sb_found *f) {
    reader r = { bytes, bytes + len };
    memset(f, 0, sizeof *f);
    if (get_text(&r, &f->uid, &f->uid_len) || get_i64(&r, &f->feed_id) || get_text(&r, &f->title, &f->title_len)
        || get_text(&r, &f->summary, &f->summary_len) || get_i64(&r, &f->published) || r.end - r.p != 1) {
        return -1;
    }
    f->read = *r.p != 0;
    f->found = 1;
    return 0;
}

static void fnv(uint64_t *h, const void *bytes, size_t len) {
    const unsigned char *p = bytes;
    for (size_t i = 0; i < len; i++) {
        *h ^= p[i];
        *h *= 0x100000001b3ULL;
    }
}

static void fnv_u64(uint64_t *h, uint64_t v, int width) {
    unsigned char bytes[8];
    for (int i = 0; i < width; i++) bytes[i] = (unsigned char)(v >> (8 * i));
    fnv(h, bytes, (size_t)width);
}

uint64_t sb_found_checksum(const sb_found *found, int count) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < count; i++) {
        const sb_found *f = &found[i];
        if (!f->found) {
            fnv_u64(&h, 0xFF, 1);
            continue;
        }
        fnv_u64(&h, (uint64_t)f->uid_len, 4);
        fnv(&h, f->uid, (size_t)f->uid_len);
        fnv_u64(&h, (uint64_t)f->feed_id, 8);
        fnv_u64(&h, (uint64_t)f->title_len, 4);
        fnv(&h, f->title, (size_t)f->title_len);
        fnv_u64(&h, (uint64_t)f->summary_len, 4);
        fnv(&h, f->summary, (size_t)f->summary_len);
        fnv_u64(&h, (uint64_t)f->published, 8);
        fnv_u64(&h, (uint64_t)f->read, 1);
    }
    return h;
}

void sb_found_free(sb_found *found, int count) {
    for (int i = 0; i < count; i++) {
        free(found[i].uid);
        free(found[i].title);
        free(found[i].summary);
        memset(&found[i], 0, sizeof found[i]);
    }
}
