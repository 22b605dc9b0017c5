import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Facts about this machine and build.
public enum MachineFacts {
  public static var buildConfiguration: String {
    #if DEBUG
      "debug"
    #else
      "release"
    #endif
  }

  public static var hostName: String { ProcessInfo.processInfo.hostName }

  public static var kernel: String {
    var info = utsname()
    uname(&info)
    func field<T>(_ value: T) -> String {
      withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    return "\(field(info.sysname)) \(field(info.release)) \(field(info.machine))"
  }

  /// The compiler that built this binary, to the minor version (the language has no finer compile-time test),
  /// plus `swift-frontend --version` of the toolchain on PATH when there is one.
  public static var swiftVersion: String {
    #if compiler(>=6.4)
      let compiled = "6.4 or later"
    #elseif compiler(>=6.3)
      let compiled = "6.3"
    #elseif compiler(>=6.2)
      let compiled = "6.2"
    #else
      let compiled = "6.0–6.1"
    #endif
    // The frontend, not the `swift` driver: the driver leaves a `TemporaryDirectory.XXXXXX` in TMPDIR each
    // time it runs (hundreds piled up in /tmp), and the frontend prints the same version line.
    let toolchain = run(["swift-frontend", "--version"])?.split(separator: "\n").first.map(String.init)
    return "compiler \(compiled)" + (toolchain.map { "; toolchain on PATH: \($0)" } ?? "")
  }

  /// The git commit of the source tree this binary was built from ("+dirty" when it has local changes).
  public static func gitCommit(sourceFile: String = #filePath) -> String {
    let directory = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().path
    guard
      let commit = run(["git", "-C", directory, "rev-parse", "HEAD"])?
        .trimmingCharacters(in: .whitespacesAndNewlines), !commit.isEmpty
    else { return "unknown" }
    let dirty = run(["git", "-C", directory, "status", "--porcelain", "--untracked-files=no"]) ?? ""
    return dirty.isEmpty ? commit : commit + "+dirty"
  }

  /// Runs a tool found on PATH and returns its standard output, or nil when it is missing, fails, or does not end
  /// within `seconds` (it is then killed: a tool that hangs, or that a user stopped, costs its deadline, never the
  /// command; a SIGSTOPped one is killed after ``StoppedWatch/graceSeconds``).
  public static func run(_ arguments: [String], seconds: Double = 10) -> String? {
    guard let child = try? ChildProcess(executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: arguments)
    else { return nil }
    child.limit(seconds: seconds) { false }
    do { try child.spawn() } catch { return nil }
    let outcome = child.wait()
    guard outcome.gaveUp == nil, !outcome.killedBySignal, outcome.exitCode == 0 else { return nil }
    return outcome.remainingLines.map { $0 + "\n" }.joined()
  }

  /// An ISO 8601 UTC timestamp.
  public static func timestamp(_ date: Date = Date()) -> String {
    ISO8601DateFormatter().string(from: date)
  }
}

// Facts about the machine that only the platform can tell. Linux reads /proc; elsewhere each says "unknown"
// (never a made-up value), and the report shows that.

extension WorkDirectory {
  /// The file-system type of `path` ("ext4", "tmpfs", …): the type of the longest mount point in
  /// `/proc/self/mounts` that contains the path's real location; "unknown" where that file is missing.
  public static func fileSystemType(of path: String) -> String { mountEntry(of: path)?.type ?? "unknown" }

  /// The `/proc/self/mounts` entry with the longest mount point that contains the path's real location.
  static func mountEntry(of path: String) -> (mountPoint: String, type: String, options: String)? {
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
    var best: (mountPoint: String, type: String, options: String)?
    for line in mounts.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count >= 4 else { continue }
      let mountPoint = fields[1].replacingOccurrences(of: "\\040", with: " ")
      let contains = mountPoint == "/" || resolved == mountPoint || resolved.hasPrefix(mountPoint + "/")
      if contains, mountPoint.count >= (best?.mountPoint.count ?? -1) {
        best = (mountPoint, String(fields[2]), String(fields[3]))
      }
    }
    return best
  }
}

extension MachineFacts {
  /// The CPU's model name from `/proc/cpuinfo`; "unknown" where that file is missing (every platform but Linux).
  public static var cpuModel: String {
    let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
    return line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown"
  }

  /// Memory a new allocation can take without swapping (`MemAvailable` in `/proc/meminfo`), in bytes; nil where
  /// unknown.
  public static var memoryAvailableBytes: Double? {
    let text = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
      let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kib * 1024
  }

  /// Free bytes on the file system of `path` for an unprivileged writer; nil where unknown.
  public static func freeBytes(at path: String) -> Double? {
    let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path)
    return (attributes?[.systemFreeSize] as? NSNumber)?.doubleValue
  }
}
