// The in-memory file tree and the operation log (see model.h).
#include "model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/// Makes room for at least `needed` elements of `size` bytes in `*array` (doubling from `first`); the new
/// elements are zeroed. Returns 0 or -ENOMEM.
static int grow(void **array, size_t *capacity, size_t needed, size_t size, size_t first) {
    if (needed <= *capacity) return 0;
    size_t wanted = *capacity ? *capacity : first;
    while (wanted < needed) wanted *= 2;
    unsigned char *grown = realloc(*array, wanted * size);
    if (grown == NULL) return -ENOMEM;
    memset(grown + *capacity * size, 0, (wanted - *capacity) * size);
    *array = grown;
    *capacity = wanted;
    return 0;
}

void tree_init(tree_t *tree) {
    memset(tree, 0, sizeof *tree);
    tree->next_id = ROOT_ID + 1;
    tree_node_make(tree, ROOT_ID, 1, 0755);
}

void tree_free(tree_t *tree) {
    for (size_t id = 0; id < tree->node_capacity; id++) {
        node_t *node = tree->nodes[id];
        if (node == NULL) continue;
        for (size_t i = 0; i < node->entry_count; i++) free(node->entries[i].name);
        free(node->entries);
        free(node->data);
        free(node);
    }
    free(tree->nodes);
    memset(tree, 0, sizeof *tree);
}

node_t *tree_node(tree_t *tree, uint64_t id) {
    return id < tree->node_capacity ? tree->nodes[id] : NULL;
}

node_t *tree_node_make(tree_t *tree, uint64_t id, int is_dir, mode_t mode) {
    node_t *existing = tree_node(tree, id);
    if (existing != NULL) return existing;
    if (grow((void **)&tree->nodes, &tree->node_capacity, id + 1, sizeof *tree->nodes, 64) != 0) return NULL;
    node_t *node = calloc(1, sizeof *node);
    if (node == NULL) return NULL;
    node->id = id;
    node->is_dir = is_dir;
    node->mode = mode;
    clock_gettime(CLOCK_REALTIME, &node->modified);
    tree->nodes[id] = node;
    if (id >= tree->next_id) tree->next_id = id + 1;
    return node;
}

entry_t *dir_find(node_t *dir, const char *name) {
    for (size_t i = 0; i < dir->entry_count; i++) {
        if (strcmp(dir->entries[i].name, name) == 0) return &dir->entries[i];
    }
    return NULL;
}

static void dir_remove(node_t *dir, entry_t *entry) {
    free(entry->name);
    *entry = dir->entries[--dir->entry_count];
    clock_gettime(CLOCK_REALTIME, &dir->modified);
}

static int dir_set(node_t *dir, const char *name, node_t *node) {
    entry_t *entry = dir_find(dir, name);
    if (entry != NULL) {
        entry->node = node;
    } else {
        if (grow((void **)&dir->entries, &dir->entry_capacity, dir->entry_count + 1, sizeof *dir->entries, 8) != 0) {
            return -ENOMEM;
        }
        char *copy = strdup(name);
        if (copy == NULL) return -ENOMEM;
        dir->entries[dir->entry_count++] = (entry_t){copy, node};
    }
    clock_gettime(CLOCK_REALTIME, &dir->modified);
    return 0;
}

static int file_resize(node_t *file, size_t size) {
    if (grow((void **)&file->data, &file->capacity, size, 1, 4096) != 0) return -ENOMEM;
    if (size > file->size) memset(file->data + file->size, 0, size - file->size);
    file->size = size;
    clock_gettime(CLOCK_REALTIME, &file->modified);
    return 0;
}

int tree_apply(tree_t *tree, const op_t *op) {
    node_t *dir = tree_node(tree, op->dir);
    switch (op->kind) {
    case OP_CREATE: {
        if (dir == NULL || !dir->is_dir) return 0;
        node_t *node = tree_node_make(tree, op->node, op->is_dir, op->mode);
        return node == NULL ? -ENOMEM : dir_set(dir, op->name, node);
    }
    case OP_REMOVE: {
        entry_t *entry = dir && dir->is_dir ? dir_find(dir, op->name) : NULL;
        if (entry != NULL && entry->node->id == op->node) dir_remove(dir, entry);
        return 0;
    }
    case OP_RENAME: {
        entry_t *entry = dir && dir->is_dir ? dir_find(dir, op->name) : NULL;
        if (entry == NULL || entry->node->id != op->node) return 0;
        node_t *node = entry->node;
        dir_remove(dir, entry);
        node_t *target = tree_node(tree, op->dir2);
        return target != NULL && target->is_dir ? dir_set(target, op->name2, node) : 0;
    }
    case OP_WRITE: {
        node_t *file = tree_node_make(tree, op->node, 0, 0644);
        if (file == NULL) return -ENOMEM;
        size_t end = (size_t)op->offset + op->length;
        if (end > file->size) {
            int rc = file_resize(file, end);
            if (rc != 0) return rc;
        }
        memcpy(file->data + op->offset, op->data, op->length);
        clock_gettime(CLOCK_REALTIME, &file->modified);
        return 0;
    }
    case OP_TRUNCATE: {
        node_t *file = tree_node_make(tree, op->node, 0, 0644);
        return file == NULL ? -ENOMEM : file_resize(file, (size_t)op->offset);
    }
    default:
        return 0;
    }
}

int oplog_append(oplog_t *log, const op_t *op, size_t byte_cap) {
    if (log->overflowed) return 0;
    if (log->bytes + op->length > byte_cap) {
        log->overflowed = 1;
        return 0;
    }
    if (grow((void **)&log->ops, &log->capacity, log->count + 1, sizeof *log->ops, 1024) != 0) return -ENOMEM;
    op_t copy = *op;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    copy.time_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
    copy.name = op->name ? strdup(op->name) : NULL;
    copy.name2 = op->name2 ? strdup(op->name2) : NULL;
    copy.data = NULL;
    if (op->length > 0) {
        copy.data = malloc(op->length);
        if (copy.data == NULL) return -ENOMEM;
        memcpy(copy.data, op->data, op->length);
    }
    log->ops[log->count++] = copy;
    log->bytes += op->length;
    return 0;
}

void oplog_free(oplog_t *log) {
    for (size_t i = 0; i < log->count; i++) {
        free(log->ops[i].name);
        free(log->ops[i].name2);
        free(log->ops[i].data);
    }
    free(log->ops);
    memset(log, 0, sizeof *log);
}
