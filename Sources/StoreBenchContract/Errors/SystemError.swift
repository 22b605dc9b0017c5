#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call: the call's name, the path it worked on, and `errno` (swift-system's `Errno`, with the
/// call and the path beside it). Every system call storebench makes reports its failure through this one value,
/// so a message always says which call failed, on what, and why: "mkdir /data/out: Permission denied (errno 13)".
public struct SystemError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The call, as its manual page names it: "open", "mkdir", "posix_spawn".
  public let call: String
  /// The file or directory it worked on, when there is one.
  public let path: String?
  /// The `errno` value (or the code the call returned, for calls such as `posix_spawn`).
  public let code: Int32

  /// The error of the call that just failed: `code` defaults to the current `errno`.
  public init(_ call: String, path: String? = nil, code: Int32 = errno) {
    self.call = call
    self.path = path
    self.code = code
  }

  /// The C library's text for the code ("No such file or directory").
  public var message: String { String(cString: strerror(code)) }

  public var description: String { "\(call)\(path.map { " \($0)" } ?? ""): \(message) (errno \(code))" }

  /// Runs a system call that returns −1 on failure (retrying on `EINTR`) and returns its result; throws the
  /// call's ``SystemError`` on failure.
  @discardableResult
  public static func check<T: FixedWidthInteger & SignedInteger>(_ call: String, path: String? = nil, _ body: () -> T)
    throws -> T
  {
    while true {
      let result = body()
      if result != -1 { return result }
      if errno == EINTR { continue }
      throw SystemError(call, path: path)
    }
  }
}
