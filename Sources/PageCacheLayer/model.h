// The page-cache model: an in-memory file tree, the operations that change it, and their log.
#ifndef STOREBENCH_PAGE_CACHE_MODEL_H
#define STOREBENCH_PAGE_CACHE_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

typedef struct node node_t;

typedef struct {
    char *name;
    node_t *node;
} entry_t;

struct node {
    uint64_t id;
    int is_dir;
    mode_t mode;
    unsigned char *data; // file content
    size_t size, capacity;
    entry_t *entries; // directory entries
    size_t entry_count, entry_capacity;
    struct timespec modified;
};

/// A file tree whose nodes are found by id (operations name nodes by id, so that an image can be replayed).
typedef struct {
    node_t **nodes; // by id; NULL where the tree has no such node
    size_t node_capacity;
    uint64_t next_id;
} tree_t;

enum op_kind { OP_CREATE, OP_REMOVE, OP_RENAME, OP_WRITE, OP_TRUNCATE, OP_SYNC_FILE, OP_SYNC_DIR };

/// One change (or sync) as the layer saw it. Names are copied; write data is copied.
typedef struct {
    uint8_t kind;
    uint8_t is_dir;      // OP_CREATE
    mode_t mode;         // OP_CREATE
    uint64_t node;       // the node created, removed, renamed, written, truncated or synced
    uint64_t dir, dir2;  // parent directory (and the rename's target directory)
    char *name, *name2;
    off_t offset;        // OP_WRITE; the new size for OP_TRUNCATE
    size_t length;       // OP_WRITE
    unsigned char *data; // OP_WRITE
    uint64_t time_ns;    // CLOCK_MONOTONIC when the layer logged it (the writer acknowledges on the same clock)
} op_t;

typedef struct {
    op_t *ops;
    size_t count, capacity;
    size_t bytes;      // write data held
    size_t settled;    // ops before this index are durable
    size_t cut;        // ops at or after this index happened after the power cut (SIZE_MAX: no cut yet)
    int overflowed;    // more than the byte cap was written: the log is incomplete
} oplog_t;

#define ROOT_ID 1

void tree_init(tree_t *tree);
void tree_free(tree_t *tree);
node_t *tree_node(tree_t *tree, uint64_t id);
/// The node with `id`, created (empty, of the given kind) when missing.
node_t *tree_node_make(tree_t *tree, uint64_t id, int is_dir, mode_t mode);
entry_t *dir_find(node_t *dir, const char *name);
/// Applies one operation to the tree; operations whose directory or source is missing change nothing.
/// Returns 0, or -ENOMEM.
int tree_apply(tree_t *tree, const op_t *op);

/// Appends a copy of `op` (name and data copied); past `byte_cap` bytes the log is marked overflowed.
int oplog_append(oplog_t *log, const op_t *op, size_t byte_cap);
void oplog_free(oplog_t *log);

/// Writes the post-crash image into the empty directory `path`: the durable state, and with `prefix` set a
/// seeded random in-order prefix of the operations that were not durable. Returns 0 or -errno; `summary`
/// receives a short description.
int image_write(const oplog_t *log, uint64_t node_count, int prefix, uint64_t seed, const char *path,
                char *summary, size_t summary_size);

/// For each of the first `end` operations, the index of the sync that made it durable (0 for settled operations,
/// its own index for a sync, SIZE_MAX when nothing before `end` did): a cut after `e` operations keeps operation
/// `i < e` exactly when `durable_at[i] < e`.
void oplog_durable_at(const oplog_t *log, size_t end, uint64_t node_count, size_t *durable_at);

/// The crash state of a cut after the first `end` operations: what was durable there, the first `keep` of the
/// operations that were not (in program order), and with `tear` > 0 the first `tear` 4 KiB pages of the next one
/// when it is a write spanning more pages (a torn write). Written into the empty directory `path`. Returns 0 or
/// -errno (-EINVAL when `end`, `keep` or `tear` is out of range); `summary` receives a short description.
int image_state(const oplog_t *log, uint64_t node_count, size_t end, size_t keep, size_t tear, const char *path,
                char *summary, size_t summary_size);

/// Writes the log up to the cut as tab-separated lines into the new file `path` (see PageCacheLayer.h, `log`).
int oplog_dump(const oplog_t *log, uint64_t node_count, const char *path, char *summary, size_t summary_size);

#endif
