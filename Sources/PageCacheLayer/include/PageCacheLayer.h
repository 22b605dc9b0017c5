#ifndef STOREBENCH_PAGE_CACHE_LAYER_H
#define STOREBENCH_PAGE_CACHE_LAYER_H

/// Mounts the page-cache model at `mountpoint` (an empty directory) and serves it until a `quit` command, the end
/// of `control_in`, SIGTERM/SIGINT/SIGHUP, or the death of the parent process; then unmounts it.
///
/// The file system lives in memory. Every change is applied and appended to an operation log; the log is what a
/// power cut is computed from. Commands arrive one per line on `control_in`; each is answered with one line on
/// `control_out` starting with `ok` or `error`:
///
///     settle                     everything so far becomes durable (the store existed long before the trial)
///     cut                        the power fails now: later operations are served but never logged
///     image synced DIR           write the post-crash image (only what was made durable) into the empty DIR
///     image prefix SEED DIR      the durable state plus a seeded random in-order prefix of the rest (ALICE)
///     stats                      operations and bytes logged
///     quit                       unmount and return
///
/// `ready` is written once the mount is up; `error mount: …` when mounting failed (then it returns 2).
/// Returns 0 after a clean unmount.
int storebench_page_cache_serve(const char *mountpoint, int control_in, int control_out);

#endif
