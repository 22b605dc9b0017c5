import Foundation
import StoreBenchAnalysis
import StoreBenchMeasure

#if canImport(Glibc)
  import Glibc
#endif

extension DiskFloors {
  /// Probes `directory` (a private work directory; what it creates there is removed).
  public static func probe(in directory: URL, samples: Int = 31) throws -> DiskFloors {
    let probeDirectory = directory.appendingPathComponent("floors-\(getpid())")
    try WorkDirectory.makeDirectory(probeDirectory)
    defer { try? FileManager.default.removeItem(at: probeDirectory) }
    let page = [UInt8](repeating: 0x5A, count: 4096)
    let syncPath = probeDirectory.appendingPathComponent("sync").path
    let fd = open(syncPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw WorkDirectoryError(message: "disk floors: \(SystemError("open", path: syncPath))") }
    defer { close(fd) }
    var syncs: [Double] = []
    var creates: [Double] = []
    for index in 0..<samples {
      let start = monotonicNanoseconds()
      guard pwrite(fd, page, page.count, 0) == page.count, fdatasync(fd) == 0 else {
        throw WorkDirectoryError(message: "disk floors: \(SystemError("pwrite/fdatasync", path: syncPath))")
      }
      syncs.append(Double(monotonicNanoseconds() - start) / 1e9)
      let temporary = probeDirectory.appendingPathComponent("t\(index)").path
      let final = probeDirectory.appendingPathComponent("f\(index)").path
      let begin = monotonicNanoseconds()
      let file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard file >= 0, write(file, page, 64) == 64, close(file) == 0, rename(temporary, final) == 0,
        unlink(final) == 0
      else {
        throw WorkDirectoryError(
          message: "disk floors: \(SystemError("open/rename/unlink", path: probeDirectory.path))")
      }
      creates.append(Double(monotonicNanoseconds() - begin) / 1e9)
    }
    return DiskFloors(
      fdatasyncSeconds: Statistics.median(syncs) ?? 0,
      createRenameUnlinkSeconds: Statistics.median(creates) ?? 0)
  }
}
