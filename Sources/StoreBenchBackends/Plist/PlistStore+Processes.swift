import StoreBenchContract

/// The `shared` workload's part of ``PlistStore``: nothing coordinates two processes. Each decodes a collection
/// when it first needs it and rewrites the whole file from its own copy, so whoever writes last wins: a change the
/// other process made after this one read the file is lost. The articles and the settings are separate files.
extension PlistStore: ProcessSharingStore {
  var processSharing: ProcessSharing {
    ProcessSharing(
      how: "no coordination: each process rewrites the whole collection file (articles.plist, settings.plist) "
        + "from the copy it decoded, so the last writer wins"
    ) { target in
      switch target {
      case .article: "articles.plist"
      case .setting: "settings.plist"
      }
    }
  }
}
