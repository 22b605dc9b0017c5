import Foundation

/// What the disk under the work directory costs at the least, measured at the start and the end of a run so that
/// every report shows the state the disk was in: a 4 KiB write + `fdatasync`, and a file create + rename + unlink
/// (measured by the runner, `DiskFloors.probe(in:)`).
public struct DiskFloors: Codable, Sendable {
  /// Median seconds of one 4 KiB `pwrite` + `fdatasync` on one file.
  public var fdatasyncSeconds: Double
  /// Median seconds of creating a small file, renaming it and unlinking it (the file-per-record path).
  public var createRenameUnlinkSeconds: Double

  public init(fdatasyncSeconds: Double, createRenameUnlinkSeconds: Double) {
    (self.fdatasyncSeconds, self.createRenameUnlinkSeconds) = (fdatasyncSeconds, createRenameUnlinkSeconds)
  }

  enum CodingKeys: String, CodingKey {
    case fdatasyncSeconds = "fdatasync_4k_s"
    case createRenameUnlinkSeconds = "create_rename_unlink_s"
  }
}
