// The post-crash image: which logged operations a power cut keeps, replayed into a fresh tree and written out.
#include "model.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_namespace(const op_t *op) {
    return op->kind == OP_CREATE || op->kind == OP_REMOVE || op->kind == OP_RENAME;
}

static int is_sync(const op_t *op) { return op->kind == OP_SYNC_FILE || op->kind == OP_SYNC_DIR; }

static size_t min_index(size_t a, size_t b) { return a < b ? a : b; }

/// A file's data and size become durable at the next fsync of that file; a creation, removal or rename at the next
/// fsync of a directory it changes, or together with a later namespace change of the same node that became durable
/// (a rename made durable carries the node's creation).
void oplog_durable_at(const oplog_t *log, size_t end, uint64_t node_count, size_t *durable_at) {
    size_t *next_sync = malloc(node_count * sizeof *next_sync); // the nearest later sync of each node
    size_t *pulled = malloc(node_count * sizeof *pulled);       // the earliest durable_at of a later namespace change
    for (uint64_t n = 0; n < node_count; n++) next_sync[n] = pulled[n] = SIZE_MAX;
    for (size_t i = end; i-- > 0;) {
        const op_t *op = &log->ops[i];
        size_t at = SIZE_MAX;
        if (is_sync(op)) {
            if (op->node < node_count) next_sync[op->node] = i;
            at = i;
        } else if (op->kind == OP_WRITE || op->kind == OP_TRUNCATE) {
            if (op->node < node_count) at = next_sync[op->node];
        } else if (is_namespace(op)) {
            if (op->dir < node_count) at = next_sync[op->dir];
            if (op->kind == OP_RENAME && op->dir2 < node_count) at = min_index(at, next_sync[op->dir2]);
            if (op->node < node_count) {
                at = min_index(at, pulled[op->node]);
                pulled[op->node] = min_index(pulled[op->node], at);
            }
        }
        durable_at[i] = i < log->settled ? 0 : at;
    }
    free(next_sync);
    free(pulled);
}

/// SplitMix64: the same generator the Swift side seeds everything with.
static uint64_t split_mix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int write_file(const char *path, const node_t *node) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, node->mode & 07777);
    if (fd < 0) return -errno;
    size_t done = 0;
    while (done < node->size) {
        ssize_t count = write(fd, node->data + done, node->size - done);
        if (count < 0) {
            int error = errno;
            close(fd);
            return -error;
        }
        done += (size_t)count;
    }
    return close(fd) == 0 ? 0 : -errno;
}

static int write_tree(const node_t *dir, const char *path) {
    for (size_t i = 0; i < dir->entry_count; i++) {
        char child[4096];
        if ((size_t)snprintf(child, sizeof child, "%s/%s", path, dir->entries[i].name) >= sizeof child) return -ENAMETOOLONG;
        const node_t *node = dir->entries[i].node;
        int rc;
        if (node->is_dir) {
            rc = mkdir(child, node->mode & 07777) == 0 ? write_tree(node, child) : -errno;
        } else {
            rc = write_file(child, node);
        }
        if (rc != 0) return rc;
    }
    return 0;
}

/// How many 4 KiB pages of the file a write touches.
static size_t pages_of(const op_t *op) {
    if (op->kind != OP_WRITE || op->length == 0) return 0;
    size_t first = (size_t)op->offset / 4096, last = ((size_t)op->offset + op->length - 1) / 4096;
    return last - first + 1;
}

/// Replays `keep` (and the first `tear` pages of operation `torn`, when `torn` < end) and writes the tree out.
static int replay(const oplog_t *log, size_t end, const unsigned char *keep, size_t torn, size_t tear,
                  const char *path) {
    tree_t tree;
    tree_init(&tree);
    int rc = 0;
    for (size_t i = 0; i < end && rc == 0; i++) {
        if (keep[i]) {
            rc = tree_apply(&tree, &log->ops[i]);
        } else if (i == torn) {
            op_t part = log->ops[i];
            size_t stop = ((size_t)part.offset / 4096 + tear) * 4096;
            part.length = stop - (size_t)part.offset;
            rc = tree_apply(&tree, &part);
        }
    }
    if (rc == 0) rc = write_tree(tree_node(&tree, ROOT_ID), path);
    tree_free(&tree);
    return rc;
}

int image_state(const oplog_t *log, uint64_t node_count, size_t end, size_t keep_count, size_t tear,
                const char *path, char *summary, size_t summary_size) {
    size_t logged = log->cut < log->count ? log->cut : log->count;
    if (log->overflowed) {
        snprintf(summary, summary_size, "the log overflowed its byte cap; no image can be made");
        return -EFBIG;
    }
    if (end > logged) {
        snprintf(summary, summary_size, "a cut after %zu operations, but %zu were logged", end, logged);
        return -EINVAL;
    }
    size_t *durable_at = malloc((end + 1) * sizeof *durable_at);
    unsigned char *keep = calloc(end + 1, 1);
    if (durable_at == NULL || keep == NULL) {
        free(durable_at);
        free(keep);
        return -ENOMEM;
    }
    oplog_durable_at(log, end, node_count, durable_at);
    size_t durable = 0, pending = 0, taken = 0, torn = SIZE_MAX;
    for (size_t i = 0; i < end; i++) {
        if (is_sync(&log->ops[i])) continue;
        if (durable_at[i] < end) {
            keep[i] = 1;
            durable++;
        } else if (pending++ < keep_count) {
            keep[i] = 1;
            taken++;
        } else if (pending == keep_count + 1 && tear > 0) {
            torn = i;
        }
    }
    int rc = 0;
    if (keep_count > pending || (tear > 0 && (torn == SIZE_MAX || tear >= pages_of(&log->ops[torn])))) {
        snprintf(summary, summary_size, "%zu pending operations at a cut after %zu: keeping %zu%s is not a state",
                 pending, end, keep_count, tear > 0 ? " and tearing the next" : "");
        rc = -EINVAL;
    } else {
        rc = replay(log, end, keep, torn, tear, path);
        snprintf(summary, summary_size, "a cut after %zu operations: %zu durable, %zu of %zu pending kept%s", end,
                 durable, taken, pending, tear > 0 ? ", the next torn" : "");
    }
    free(durable_at);
    free(keep);
    return rc;
}

int image_write(const oplog_t *log, uint64_t node_count, int prefix, uint64_t seed, const char *path,
                char *summary, size_t summary_size) {
    if (log->overflowed) {
        snprintf(summary, summary_size, "the log overflowed its byte cap; no image can be made");
        return -EFBIG;
    }
    size_t end = log->cut < log->count ? log->cut : log->count;
    size_t *durable_at = malloc((end + 1) * sizeof *durable_at);
    if (durable_at == NULL) return -ENOMEM;
    oplog_durable_at(log, end, node_count, durable_at);
    size_t pending = 0;
    for (size_t i = 0; i < end; i++) {
        if (!is_sync(&log->ops[i]) && durable_at[i] >= end) pending++;
    }
    free(durable_at);
    size_t keep = 0;
    if (prefix && pending > 0) {
        uint64_t state = seed;
        keep = (size_t)(split_mix(&state) % (pending + 1));
    }
    return image_state(log, node_count, end, keep, 0, path, summary, summary_size);
}

/// Names in the log: bytes that would break a tab-separated line (and `%`) as `%XX`.
static void put_name(FILE *file, const char *name) {
    if (name == NULL) {
        fputc('-', file);
        return;
    }
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        if (*c <= ' ' || *c == '%' || *c == 0x7f) fprintf(file, "%%%02X", *c);
        else fputc(*c, file);
    }
}

int oplog_dump(const oplog_t *log, uint64_t node_count, const char *path, char *summary, size_t summary_size) {
    static const char *kinds[] = {"create", "remove", "rename", "write", "truncate", "sync-file", "sync-dir"};
    size_t end = log->cut < log->count ? log->cut : log->count;
    if (log->overflowed) {
        snprintf(summary, summary_size, "the log overflowed its byte cap");
        return -EFBIG;
    }
    size_t *durable_at = malloc((end + 1) * sizeof *durable_at);
    if (durable_at == NULL) return -ENOMEM;
    oplog_durable_at(log, end, node_count, durable_at);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    FILE *file = fd < 0 ? NULL : fdopen(fd, "w");
    if (file == NULL) {
        int error = errno;
        if (fd >= 0) close(fd);
        free(durable_at);
        return -error;
    }
    fprintf(file, "# settled %zu\n", log->settled);
    fprintf(file, "index\tkind\tnode\tdir\tdir2\tname\tname2\toffset\tlength\tpages\ttime_ns\tdurable_at\n");
    for (size_t i = 0; i < end; i++) {
        const op_t *op = &log->ops[i];
        const char *kind = op->kind < sizeof kinds / sizeof *kinds ? kinds[op->kind] : "unknown";
        fprintf(file, "%zu\t%s%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t", i, kind,
                op->kind == OP_CREATE && op->is_dir ? "-dir" : "", op->node, op->dir, op->dir2);
        put_name(file, op->name);
        fputc('\t', file);
        put_name(file, op->name2);
        fprintf(file, "\t%lld\t%zu\t%zu\t%" PRIu64 "\t", (long long)op->offset, op->length, pages_of(op),
                op->time_ns);
        if (durable_at[i] == SIZE_MAX) fputs("-\n", file);
        else fprintf(file, "%zu\n", durable_at[i]);
    }
    free(durable_at);
    int failed = ferror(file);
    if (fclose(file) != 0 || failed) return -EIO;
    snprintf(summary, summary_size, "%zu operations, %zu settled", end, log->settled);
    return 0;
}
