// Mounting, the control commands and unmounting (see include/PageCacheLayer.h).
#define _GNU_SOURCE
#define FUSE_USE_VERSION 31
#include <fuse.h>

#include "PageCacheLayer.h"
#include "layer.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    struct fuse *fuse;
    const char *mountpoint;
    int in, out;
} control_t;

static void answer(int fd, const char *line) {
    size_t length = strlen(line);
    while (length > 0) {
        ssize_t count = write(fd, line, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return;
        line += count;
        length -= (size_t)count;
    }
}

/// Runs one command line; writes the answer into `reply`. Returns 1 for `quit`.
static int command(char *line, char *reply, size_t size) {
    char summary[256] = "";
    char directory[4096];
    uint64_t seed = 0;
    size_t end = 0, keep = 0, tear = 0;
    pthread_mutex_lock(&layer.lock);
    int quit = 0;
    if (strcmp(line, "settle") == 0) {
        layer.log.settled = layer.log.count;
        snprintf(reply, size, "ok %zu operations settled\n", layer.log.count);
    } else if (sscanf(line, "drop-sync %zu", &end) == 1) {
        layer.drop_sync = end;
        layer.file_syncs = 0;
        snprintf(reply, size, "ok the file sync %zu from now is answered and never logged (a test seam)\n", end);
    } else if (strcmp(line, "cut") == 0) {
        if (layer.log.cut == SIZE_MAX) layer.log.cut = layer.log.count;
        snprintf(reply, size, "ok cut after %zu operations, %zu bytes written%s\n", layer.log.cut, layer.log.bytes,
                 layer.log.overflowed ? " (overflowed)" : "");
    } else if (strcmp(line, "stats") == 0) {
        snprintf(reply, size, "ok %zu operations, %zu bytes\n", layer.log.count, layer.log.bytes);
    } else if (sscanf(line, "image synced %4095[^\n]", directory) == 1
               || sscanf(line, "image prefix %" SCNu64 " %4095[^\n]", &seed, directory) == 2) {
        int prefix = strncmp(line, "image prefix", 12) == 0;
        int rc = image_write(&layer.log, layer.tree.next_id, prefix, seed, directory, summary, sizeof summary);
        if (rc == 0) snprintf(reply, size, "ok %s\n", summary);
        else snprintf(reply, size, "error image %s: %s (%s)\n", directory, strerror(-rc), summary);
    } else if (sscanf(line, "image state %zu %zu %zu %4095[^\n]", &end, &keep, &tear, directory) == 4) {
        int rc = image_state(&layer.log, layer.tree.next_id, end, keep, tear, directory, summary, sizeof summary);
        if (rc == 0) snprintf(reply, size, "ok %s\n", summary);
        else snprintf(reply, size, "error image %s: %s (%s)\n", directory, strerror(-rc), summary);
    } else if (sscanf(line, "log %4095[^\n]", directory) == 1) {
        if (layer.log.cut == SIZE_MAX) {
            snprintf(reply, size, "error log: the power has not been cut yet\n");
        } else {
            int rc = oplog_dump(&layer.log, layer.tree.next_id, directory, summary, sizeof summary);
            if (rc == 0) snprintf(reply, size, "ok %s\n", summary);
            else snprintf(reply, size, "error log %s: %s (%s)\n", directory, strerror(-rc), summary);
        }
    } else if (strcmp(line, "quit") == 0) {
        snprintf(reply, size, "ok unmounting\n");
        quit = 1;
    } else {
        snprintf(reply, size, "error unknown command: %s\n", line);
    }
    pthread_mutex_unlock(&layer.lock);
    return quit;
}

/// Lazily detaches the mount: the kernel ends the connection once nothing uses it, and the FUSE loop returns.
static void detach(const char *mountpoint) {
    if (umount2(mountpoint, MNT_DETACH) == 0 || errno == EINVAL || errno == ENOENT) return;
    pid_t child = fork();
    if (child == 0) {
        execlp("fusermount3", "fusermount3", "-u", "-z", mountpoint, (char *)NULL);
        _exit(127);
    }
    if (child > 0) waitpid(child, NULL, 0);
}

static void *control_loop(void *argument) {
    control_t *control = argument;
    char line[8192];
    size_t used = 0;
    for (;;) {
        ssize_t count = read(control->in, line + used, sizeof line - 1 - used);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break; // the parent is gone: unmount
        used += (size_t)count;
        line[used] = '\0';
        char *newline;
        int quit = 0;
        while (!quit && (newline = strchr(line, '\n')) != NULL) {
            *newline = '\0';
            char reply[8192];
            quit = command(line, reply, sizeof reply);
            answer(control->out, reply);
            size_t rest = used - (size_t)(newline + 1 - line);
            memmove(line, newline + 1, rest + 1);
            used = rest;
        }
        if (quit) break;
        if (used == sizeof line - 1) used = 0; // an over-long line is dropped
    }
    fuse_exit(control->fuse);
    detach(control->mountpoint);
    return NULL;
}

int storebench_page_cache_serve(const char *mountpoint, int control_in, int control_out) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() == 1) return 2;
    signal(SIGPIPE, SIG_IGN);
    tree_init(&layer.tree);
    layer.log.cut = SIZE_MAX;
    char options[128];
    snprintf(options, sizeof options, "fsname=storebench-pagecache:%d,subtype=storebench", (int)getpid());
    char *argv[] = {"storebench-pagecache", "-o", options, NULL};
    struct fuse_args args = FUSE_ARGS_INIT(3, argv);
    struct fuse *fuse = fuse_new(&args, &layer_operations, sizeof layer_operations, NULL);
    if (fuse == NULL) {
        answer(control_out, "error mount: fuse_new failed\n");
        return 2;
    }
    if (fuse_mount(fuse, mountpoint) != 0) {
        char reply[4200];
        snprintf(reply, sizeof reply, "error mount: cannot mount a FUSE file system on %s (is /dev/fuse there, and may this user mount?)\n", mountpoint);
        answer(control_out, reply);
        fuse_destroy(fuse);
        return 2;
    }
    struct fuse_session *session = fuse_get_session(fuse);
    fuse_set_signal_handlers(session);
    control_t control = {fuse, mountpoint, control_in, control_out};
    pthread_t thread;
    pthread_create(&thread, NULL, control_loop, &control);
    answer(control_out, "ready\n");
    fuse_loop(fuse);
    detach(mountpoint);
    fuse_remove_signal_handlers(session);
    fuse_unmount(fuse);
    fuse_destroy(fuse);
    return 0;
}
