// The layer's state, shared by the FUSE operations and the control thread; every access holds `lock`.
#ifndef STOREBENCH_PAGE_CACHE_LAYER_STATE_H
#define STOREBENCH_PAGE_CACHE_LAYER_STATE_H

#include "model.h"

#include <pthread.h>

/// Past this many bytes of logged writes the log stops and images are refused (a trial that writes this much
/// is too long for the model).
#define LAYER_LOG_BYTE_CAP ((size_t)4 << 30)

typedef struct {
    pthread_mutex_t lock;
    tree_t tree;
    oplog_t log;
    size_t drop_sync;  // a test seam: the drop_sync-th file sync after `drop-sync` is answered but never logged
    size_t file_syncs; // file syncs seen since `drop-sync`
} layer_t;

extern layer_t layer;

struct fuse_operations;
extern const struct fuse_operations layer_operations;

#endif
