// The post-crash image: which logged operations a power cut keeps, replayed into a fresh tree and written out.
#include "model.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_namespace(const op_t *op) {
    return op->kind == OP_CREATE || op->kind == OP_REMOVE || op->kind == OP_RENAME;
}

/// durable[i] for the operations before the cut: a file's data and size at the next fsync of that file; a
/// creation, removal or rename at the next fsync of a directory it changes, together with the earlier pending
/// namespace changes of the same node (a rename made durable carries the node's creation).
static void mark_durable(const oplog_t *log, size_t end, uint64_t node_count, unsigned char *durable) {
    size_t *last_sync = calloc(node_count, sizeof *last_sync); // index + 1 of the last sync of each node
    unsigned char *pulled = calloc(node_count, 1);
    for (size_t i = 0; i < end; i++) {
        const op_t *op = &log->ops[i];
        if ((op->kind == OP_SYNC_FILE || op->kind == OP_SYNC_DIR) && op->node < node_count) last_sync[op->node] = i + 1;
    }
    for (size_t i = end; i-- > 0;) {
        const op_t *op = &log->ops[i];
        if (i < log->settled) {
            durable[i] = 1;
        } else if (op->kind == OP_WRITE || op->kind == OP_TRUNCATE) {
            durable[i] = op->node < node_count && i < last_sync[op->node];
        } else if (is_namespace(op)) {
            int direct = (op->dir < node_count && i < last_sync[op->dir])
                || (op->kind == OP_RENAME && op->dir2 < node_count && i < last_sync[op->dir2]);
            durable[i] = direct || (op->node < node_count && pulled[op->node]);
            if (durable[i] && op->node < node_count) pulled[op->node] = 1;
        }
    }
    free(last_sync);
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

int image_write(const oplog_t *log, uint64_t node_count, int prefix, uint64_t seed, const char *path,
                char *summary, size_t summary_size) {
    if (log->overflowed) {
        snprintf(summary, summary_size, "the log overflowed its byte cap; no image can be made");
        return -EFBIG;
    }
    size_t end = log->cut < log->count ? log->cut : log->count;
    unsigned char *keep = calloc(end + 1, 1);
    if (keep == NULL) return -ENOMEM;
    mark_durable(log, end, node_count, keep);
    size_t durable = 0, pending = 0;
    for (size_t i = 0; i < end; i++) {
        if (keep[i]) durable++;
        else if (log->ops[i].kind != OP_SYNC_FILE && log->ops[i].kind != OP_SYNC_DIR) pending++;
    }
    size_t taken = 0;
    if (prefix && pending > 0) {
        uint64_t state = seed;
        size_t wanted = (size_t)(split_mix(&state) % (pending + 1));
        for (size_t i = 0; i < end && taken < wanted; i++) {
            if (!keep[i] && log->ops[i].kind != OP_SYNC_FILE && log->ops[i].kind != OP_SYNC_DIR) {
                keep[i] = 1;
                taken++;
            }
        }
    }
    tree_t tree;
    tree_init(&tree);
    int rc = 0;
    for (size_t i = 0; i < end && rc == 0; i++) {
        if (keep[i]) rc = tree_apply(&tree, &log->ops[i]);
    }
    if (rc == 0) rc = write_tree(tree_node(&tree, ROOT_ID), path);
    snprintf(summary, summary_size, "%zu operations logged before the cut, %zu durable, %zu of %zu pending kept",
             end, durable, taken, pending);
    tree_free(&tree);
    free(keep);
    return rc;
}
