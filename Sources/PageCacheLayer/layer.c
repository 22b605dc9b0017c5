// The FUSE file system: every change is checked, applied to the live tree and logged (see model.h).
#define FUSE_USE_VERSION 31
#include <fuse.h>

#include "layer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

layer_t layer = {.lock = PTHREAD_MUTEX_INITIALIZER};

/// The live node at `path` (NULL: missing); with `parent`/`leaf` set, also the parent directory and last name.
static node_t *resolve(const char *path, node_t **parent, const char **leaf) {
    node_t *node = tree_node(&layer.tree, ROOT_ID);
    if (parent) *parent = NULL;
    if (leaf) *leaf = NULL;
    const char *cursor = path;
    while (*cursor == '/') cursor++;
    while (*cursor != '\0') {
        const char *end = strchr(cursor, '/');
        size_t length = end ? (size_t)(end - cursor) : strlen(cursor);
        char name[256];
        if (length >= sizeof name) return NULL;
        memcpy(name, cursor, length);
        name[length] = '\0';
        if (node == NULL || !node->is_dir) {
            node = NULL;
        } else {
            if (parent) *parent = node;
            if (leaf) *leaf = cursor;
            entry_t *entry = dir_find(node, name);
            node = entry ? entry->node : NULL;
        }
        cursor += length;
        while (*cursor == '/') cursor++;
    }
    return node;
}

/// The parent directory of `path` and its last name (copied into `name`), or an -errno.
static int resolve_parent(const char *path, node_t **parent, char name[256]) {
    const char *slash = strrchr(path, '/');
    const char *leaf = slash ? slash + 1 : path;
    if (strlen(leaf) >= 256 || *leaf == '\0') return -ENAMETOOLONG;
    strcpy(name, leaf);
    char directory[4096];
    size_t length = (size_t)(leaf - path);
    if (length >= sizeof directory) return -ENAMETOOLONG;
    memcpy(directory, path, length);
    directory[length] = '\0';
    node_t *dir = resolve(directory, NULL, NULL);
    if (dir == NULL) return -ENOENT;
    if (!dir->is_dir) return -ENOTDIR;
    *parent = dir;
    return 0;
}

/// Applies `op` to the live tree and, before the cut, logs it.
static int change(op_t *op) {
    int rc = tree_apply(&layer.tree, op);
    if (rc == 0 && layer.log.cut == SIZE_MAX) rc = oplog_append(&layer.log, op, LAYER_LOG_BYTE_CAP);
    return rc;
}

static node_t *file_of(const char *path, struct fuse_file_info *fi) {
    if (fi != NULL) return tree_node(&layer.tree, fi->fh);
    return path ? resolve(path, NULL, NULL) : NULL;
}

#define LOCKED(body) do { pthread_mutex_lock(&layer.lock); int result_ = (body); pthread_mutex_unlock(&layer.lock); return result_; } while (0)

static int do_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    node_t *node = file_of(path, fi);
    if (node == NULL) return -ENOENT;
    memset(st, 0, sizeof *st);
    st->st_ino = node->id;
    st->st_mode = (node->is_dir ? S_IFDIR : S_IFREG) | (node->mode & 07777);
    st->st_nlink = node->is_dir ? 2 : 1;
    st->st_size = (off_t)node->size;
    st->st_blocks = (blkcnt_t)((node->size + 511) / 512);
    st->st_blksize = 4096;
    st->st_uid = getuid();
    st->st_gid = getgid();
    st->st_atim = st->st_mtim = st->st_ctim = node->modified;
    return 0;
}
static int layer_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) { LOCKED(do_getattr(path, st, fi)); }

static int do_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, struct fuse_file_info *fi) {
    node_t *dir = file_of(path, fi);
    if (dir == NULL) return -ENOENT;
    if (!dir->is_dir) return -ENOTDIR;
    fill(buffer, ".", NULL, 0, 0);
    fill(buffer, "..", NULL, 0, 0);
    for (size_t i = 0; i < dir->entry_count; i++) fill(buffer, dir->entries[i].name, NULL, 0, 0);
    return 0;
}
static int layer_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, off_t offset, struct fuse_file_info *fi,
                         enum fuse_readdir_flags flags) {
    (void)offset; (void)flags;
    LOCKED(do_readdir(path, buffer, fill, fi));
}

static int do_make(const char *path, mode_t mode, int is_dir, struct fuse_file_info *fi) {
    node_t *parent;
    char name[256];
    int rc = resolve_parent(path, &parent, name);
    if (rc != 0) return rc;
    entry_t *existing = dir_find(parent, name);
    if (existing != NULL) {
        if (is_dir || (fi->flags & O_EXCL)) return -EEXIST;
        if (existing->node->is_dir) return -EISDIR;
        fi->fh = existing->node->id;
        return 0;
    }
    op_t op = {.kind = OP_CREATE, .is_dir = (uint8_t)is_dir, .mode = mode & 07777, .node = layer.tree.next_id,
               .dir = parent->id, .name = name};
    rc = change(&op);
    if (rc == 0 && fi != NULL) fi->fh = op.node;
    return rc;
}
static int layer_mkdir(const char *path, mode_t mode) { LOCKED(do_make(path, mode, 1, NULL)); }
static int layer_create(const char *path, mode_t mode, struct fuse_file_info *fi) { LOCKED(do_make(path, mode, 0, fi)); }

static int do_remove(const char *path, int want_dir) {
    node_t *parent;
    char name[256];
    int rc = resolve_parent(path, &parent, name);
    if (rc != 0) return rc;
    entry_t *entry = dir_find(parent, name);
    if (entry == NULL) return -ENOENT;
    if (want_dir && !entry->node->is_dir) return -ENOTDIR;
    if (!want_dir && entry->node->is_dir) return -EISDIR;
    if (want_dir && entry->node->entry_count > 0) return -ENOTEMPTY;
    op_t op = {.kind = OP_REMOVE, .node = entry->node->id, .dir = parent->id, .name = name};
    return change(&op);
}
static int layer_unlink(const char *path) { LOCKED(do_remove(path, 0)); }
static int layer_rmdir(const char *path) { LOCKED(do_remove(path, 1)); }

static int do_rename(const char *from, const char *to, unsigned int flags) {
    node_t *source_dir, *target_dir;
    char source_name[256], target_name[256];
    int rc = resolve_parent(from, &source_dir, source_name);
    if (rc == 0) rc = resolve_parent(to, &target_dir, target_name);
    if (rc != 0) return rc;
    if (flags & ~(unsigned int)RENAME_NOREPLACE) return -EINVAL;
    entry_t *source = dir_find(source_dir, source_name);
    if (source == NULL) return -ENOENT;
    entry_t *target = dir_find(target_dir, target_name);
    if (target != NULL) {
        if (flags & RENAME_NOREPLACE) return -EEXIST;
        if (target->node == source->node) return 0;
        if (target->node->is_dir && !source->node->is_dir) return -EISDIR;
        if (!target->node->is_dir && source->node->is_dir) return -ENOTDIR;
        if (target->node->is_dir && target->node->entry_count > 0) return -ENOTEMPTY;
    }
    op_t op = {.kind = OP_RENAME, .node = source->node->id, .dir = source_dir->id, .name = source_name,
               .dir2 = target_dir->id, .name2 = target_name};
    return change(&op);
}
static int layer_rename(const char *from, const char *to, unsigned int flags) { LOCKED(do_rename(from, to, flags)); }

static int do_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    node_t *file = file_of(path, fi);
    if (file == NULL) return -ENOENT;
    if (file->is_dir) return -EISDIR;
    if (size < 0) return -EINVAL;
    op_t op = {.kind = OP_TRUNCATE, .node = file->id, .offset = size};
    return change(&op);
}
static int layer_truncate(const char *path, off_t size, struct fuse_file_info *fi) { LOCKED(do_truncate(path, size, fi)); }

static int do_open(const char *path, struct fuse_file_info *fi) {
    node_t *node = resolve(path, NULL, NULL);
    if (node == NULL) return -ENOENT;
    fi->fh = node->id;
    if (!node->is_dir && (fi->flags & O_TRUNC) && node->size > 0) {
        op_t op = {.kind = OP_TRUNCATE, .node = node->id, .offset = 0};
        return change(&op);
    }
    return 0;
}
static int layer_open(const char *path, struct fuse_file_info *fi) { LOCKED(do_open(path, fi)); }

static int do_read(char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    node_t *file = tree_node(&layer.tree, fi->fh);
    if (file == NULL) return -EBADF;
    if ((size_t)offset >= file->size) return 0;
    size_t count = file->size - (size_t)offset < size ? file->size - (size_t)offset : size;
    memcpy(buffer, file->data + offset, count);
    return (int)count;
}
static int layer_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)path;
    LOCKED(do_read(buffer, size, offset, fi));
}

static int do_write(const char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    node_t *file = tree_node(&layer.tree, fi->fh);
    if (file == NULL) return -EBADF;
    op_t op = {.kind = OP_WRITE, .node = file->id, .offset = offset, .length = size, .data = (unsigned char *)buffer};
    int rc = change(&op);
    return rc == 0 ? (int)size : rc;
}
static int layer_write(const char *path, const char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)path;
    LOCKED(do_write(buffer, size, offset, fi));
}

static int do_sync(const char *path, struct fuse_file_info *fi, int is_dir) {
    node_t *node = file_of(path, fi);
    if (node == NULL) return -ENOENT;
    op_t op = {.kind = is_dir ? OP_SYNC_DIR : OP_SYNC_FILE, .node = node->id};
    if (!is_dir && layer.drop_sync > 0 && ++layer.file_syncs == layer.drop_sync) return 0; // lost, as if skipped
    return change(&op);
}
static int layer_fsync(const char *path, int datasync, struct fuse_file_info *fi) { (void)datasync; LOCKED(do_sync(path, fi, 0)); }
static int layer_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi) { (void)datasync; LOCKED(do_sync(path, fi, 1)); }

static int do_opendir(const char *path, struct fuse_file_info *fi) {
    node_t *dir = resolve(path, NULL, NULL);
    if (dir == NULL) return -ENOENT;
    if (!dir->is_dir) return -ENOTDIR;
    fi->fh = dir->id;
    return 0;
}
static int layer_opendir(const char *path, struct fuse_file_info *fi) { LOCKED(do_opendir(path, fi)); }

static int do_fallocate(int mode, off_t offset, off_t length, struct fuse_file_info *fi) {
    node_t *file = tree_node(&layer.tree, fi->fh);
    if (file == NULL) return -EBADF;
    if (mode != 0) return -EOPNOTSUPP;
    if ((size_t)(offset + length) <= file->size) return 0;
    op_t op = {.kind = OP_TRUNCATE, .node = file->id, .offset = offset + length};
    return change(&op);
}
static int layer_fallocate(const char *path, int mode, off_t offset, off_t length, struct fuse_file_info *fi) {
    (void)path;
    LOCKED(do_fallocate(mode, offset, length, fi));
}

static int do_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    node_t *node = file_of(path, fi);
    if (node == NULL) return -ENOENT;
    node->mode = mode & 07777;
    return 0;
}
static int layer_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) { LOCKED(do_chmod(path, mode, fi)); }

static int do_exists(const char *path, struct fuse_file_info *fi) { return file_of(path, fi) ? 0 : -ENOENT; }
static int layer_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    (void)uid; (void)gid;
    LOCKED(do_exists(path, fi));
}
static int layer_utimens(const char *path, const struct timespec times[2], struct fuse_file_info *fi) {
    (void)times;
    LOCKED(do_exists(path, fi));
}
static int layer_access(const char *path, int mask) { (void)mask; LOCKED(do_exists(path, NULL)); }

static int layer_statfs(const char *path, struct statvfs *st) {
    (void)path;
    memset(st, 0, sizeof *st);
    st->f_bsize = st->f_frsize = 4096;
    st->f_blocks = st->f_bfree = st->f_bavail = 1u << 24;
    st->f_files = st->f_ffree = st->f_favail = 1u << 20;
    st->f_namemax = 255;
    return 0;
}

static void *layer_init(struct fuse_conn_info *conn, struct fuse_config *config) {
    conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE; // writes reach the layer when the program makes them
    config->use_ino = 1;
    config->hard_remove = 1;  // an unlinked open file stays nameless (no .fuse_hidden renames in the log)
    config->nullpath_ok = 1;
    return NULL;
}

const struct fuse_operations layer_operations = {
    .init = layer_init, .getattr = layer_getattr, .readdir = layer_readdir, .mkdir = layer_mkdir,
    .create = layer_create, .unlink = layer_unlink, .rmdir = layer_rmdir, .rename = layer_rename,
    .truncate = layer_truncate, .open = layer_open, .read = layer_read, .write = layer_write,
    .fsync = layer_fsync, .opendir = layer_opendir, .fsyncdir = layer_fsyncdir, .fallocate = layer_fallocate,
    .chmod = layer_chmod, .chown = layer_chown, .utimens = layer_utimens, .access = layer_access,
    .statfs = layer_statfs,
};
