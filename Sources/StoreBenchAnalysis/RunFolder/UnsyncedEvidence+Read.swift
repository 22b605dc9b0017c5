import Foundation

extension UnsyncedEvidence {
  /// `folder/unsynced.csv`, or nil when the folder has none; read by the run-folder reader's rules (a regular file
  /// only, ``RunFolder``).
  public static func read(in folder: URL) throws -> UnsyncedEvidence? {
    try RunFolder.read(folder, fileName, required: false).map {
      try UnsyncedEvidence(csv: $0, source: folder.appendingPathComponent(fileName).path)
    }
  }
}
