import Foundation

/// The running storebench executable, for starting child processes of itself.
public enum RunningExecutable {
  /// Linux: `/proc/self/exe` resolved (exact even when started through a relative path or a link).
  /// Elsewhere: Foundation's `Bundle.main.executableURL`. Nil when neither says.
  public static var url: URL? {
    #if os(Linux)
      let resolved = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      if FileManager.default.isExecutableFile(atPath: resolved.path) { return resolved }
    #endif
    return Bundle.main.executableURL
  }
}
