#define _GNU_SOURCE
#include "perf_event_shim.h"
#include <errno.h>

#ifdef __linux__
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int sb_perf_open(uint32_t type, uint64_t config, int tid) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = type;
    attr.config = config;
    attr.disabled = 1;
    attr.inherit = 1;
    attr.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attr, (pid_t)tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : (int)fd;
}

int sb_perf_set_filter(int fd, const char *filter) {
    return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) < 0 ? -errno : 0;
}

int sb_perf_enable(int fd, int on) {
    return ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) < 0 ? -errno : 0;
}

int sb_perf_enable_owned(int on) {
    return prctl(on ? PR_TASK_PERF_EVENTS_ENABLE : PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0) < 0 ? -errno : 0;
}

int sb_thread_id(void) { return (int)syscall(SYS_gettid); }
#else
int sb_perf_open(uint32_t type, uint64_t config, int tid) { (void)type; (void)config; (void)tid; return -ENOSYS; }
int sb_perf_set_filter(int fd, const char *filter) { (void)fd; (void)filter; return -ENOSYS; }
int sb_perf_enable(int fd, int on) { (void)fd; (void)on; return -ENOSYS; }
int sb_perf_enable_owned(int on) { (void)on; return -ENOSYS; }
int sb_thread_id(void) { return -ENOSYS; }
#endif
