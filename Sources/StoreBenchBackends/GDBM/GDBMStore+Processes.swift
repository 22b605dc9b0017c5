import GDBMAPI
import StoreBenchContract

/// The `shared` workload's part of ``GDBMStore``: GDBM has one writer. An open store holds the file's writer lock
/// (`gdbm_open` takes it without waiting), so a process opens the store for each operation and closes it after; an
/// open while the other process holds the lock fails with `GDBM_CANT_BE_WRITER`, and the process retries.
extension GDBMStore: ProcessSharingStore {
  var processSharing: ProcessSharing {
    ProcessSharing(
      how: "one writer: the open store holds GDBM's file lock, so each process opens it per operation; an open "
        + "while the other holds it fails with GDBM_CANT_BE_WRITER",
      opensPerOperation: true)
  }

  func refusal(in error: any Error) -> String? {
    guard let error = error as? GDBMError, error.code == .cantBeWriter || error.code == .cantBeReader else {
      return nil
    }
    return error.code == .cantBeWriter ? "GDBM_CANT_BE_WRITER" : "GDBM_CANT_BE_READER"
  }
}
