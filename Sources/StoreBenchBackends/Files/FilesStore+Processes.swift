import StoreBenchContract

/// The `shared` workload's part of ``FilesStore``: each record is its own file, replaced by a rename; nothing
/// coordinates processes. A change reads the record, changes it and renames a new file over it, so two processes
/// changing the same record race: the later rename wins and the other change is lost. Records of their own never
/// collide (each process writes its temporary file under a name of its own).
extension FilesStore: ProcessSharingStore {
  var processSharing: ProcessSharing {
    ProcessSharing(
      how: "no coordination: each record is a file replaced by rename, so two processes changing one record "
        + "race and the later rename wins"
    ) { target in
      switch target {
      case .article(let uid): "articles/" + uid
      case .setting(let key): "settings/" + key
      }
    }
  }
}
