#ifndef STOREBENCH_PERF_EVENT_SHIM_H
#define STOREBENCH_PERF_EVENT_SHIM_H
#include <stdint.h>

// Linux's perf_event_open(2), prctl(2) and ioctl(2) are reached through syscall()/variadic functions, which Swift
// cannot call: these wrappers are the whole shim. Elsewhere they return -ENOSYS.

/// The event kinds storebench opens (values of `perf_event_attr.type`).
enum sb_perf_type { SB_PERF_TYPE_SOFTWARE = 1, SB_PERF_TYPE_TRACEPOINT = 2 };

/// Opens a counting event on thread `tid` (any CPU), disabled, inherited by the threads and child processes the
/// thread creates afterwards, kernel included (tracepoints fire in the kernel). Returns the descriptor or -errno.
int sb_perf_open(uint32_t type, uint64_t config, int tid);

/// Attaches a tracepoint filter (`PERF_EVENT_IOC_SET_FILTER`), e.g. "flags & 4". Returns 0 or -errno.
int sb_perf_set_filter(int fd, const char *filter);

/// Enables (on != 0) or disables one event and its inherited copies (`PERF_EVENT_IOC_ENABLE/DISABLE`).
int sb_perf_enable(int fd, int on);

/// Enables (on != 0) or disables every event the calling thread opened, with their inherited copies in other threads
/// and children (`prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE)`): one system call. Returns 0 or -errno.
int sb_perf_enable_owned(int on);

/// The calling thread's kernel id (`gettid`).
int sb_thread_id(void);

#endif
