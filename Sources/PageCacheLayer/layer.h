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
} layer_t;

extern layer_t layer;

struct fuse_operations;
extern const struct fuse_operations layer_operations;

#endif
