import Foundation

/// Validates the output and work directories before anything runs, so bad paths fail fast with exit 64.
public enum OutputLocations {
  public struct Failure: ExitCoded, CustomStringConvertible {
    public var exit: StoreBenchExit { .badInput }
    public var description: String { message }
    public let message: String
  }

  /// The parent of the private work directories: an existing, writable directory.
  public static func workdir(_ requested: String?) throws -> URL {
    let path = requested ?? ProcessInfo.processInfo.environment["TMPDIR"] ?? "/var/tmp"
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw Failure(message: "--workdir \(path) does not exist or is not a directory")
    }
    guard FileManager.default.isWritableFile(atPath: path) else {
      throw Failure(message: "--workdir \(path) is not writable")
    }
    return URL(fileURLWithPath: path, isDirectory: true)
  }

  /// `results/<UTC timestamp>-<host>`.
  public static func defaultOutput() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    let host = MachineFacts.hostName.split(separator: ".").first.map(String.init) ?? "host"
    return "results/\(formatter.string(from: Date()))-\(host)"
  }
}
