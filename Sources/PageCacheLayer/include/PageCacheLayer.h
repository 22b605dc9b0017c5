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
///     image state END KEEP TEAR DIR
///                                the crash state of a cut after the first END operations logged: what was durable
///                                there, the first KEEP operations that were not (in program order), and with TEAR > 0
///                                the first TEAR 4 KiB pages of the next one (a torn write; it must span more pages)
///     log FILE                   after the cut: `# settled N` (operations before N are durable), then the log as
///                                tab-separated lines with a header into the new FILE — index, kind
///                                (create, create-dir, remove, rename, write, truncate, sync-file, sync-dir), node,
///                                dir, dir2, name, name2 (`-` for none; bytes ≤ space and `%` as `%XX`), offset, length,
///                                pages (4 KiB pages a write touches), time_ns (CLOCK_MONOTONIC when logged) and
///                                durable_at (the index of the sync that made it durable, 0 when settled, `-` never)
///     drop-sync N                a test seam: the N-th file sync from now is answered but never logged, as if
///                                the writer had skipped it
///     stats                      operations and bytes logged
///     quit                       unmount and return
///
/// `ready` is written once the mount is up; `error mount: …` when mounting failed (then it returns 2).
/// Returns 0 after a clean unmount.
int storebench_page_cache_serve(const char *mountpoint, int control_in, int control_out);

#endif
