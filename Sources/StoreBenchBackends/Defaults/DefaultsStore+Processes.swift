import StoreBenchContract

/// The `shared` workload's part of ``DefaultsStore``: on Linux `synchronize()` writes the process's whole suite to
/// `defaults.plist` (truncated and rewritten in place); nothing coordinates processes, so the last writer wins. (On
/// Apple platforms `cfprefsd` merges processes' changes key by key: this does not carry over.)
extension DefaultsStore: ProcessSharingStore {
  var processSharing: ProcessSharing {
    ProcessSharing(
      how: "no coordination on Linux: synchronize() rewrites the whole suite file from the process's copy, so "
        + "the last writer wins (Apple's cfprefsd merges per key instead)"
    ) { _ in "defaults.plist" }
  }
}
