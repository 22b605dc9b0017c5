import Foundation

/// Every exit code of storebench, in one place (`storebench --help` and the README list them).
public enum StoreBenchExit: Int32, Sendable {
  /// Every row ok; no regression.
  case ok = 0
  /// Some row failed (the report is complete, failures are marked), a report or standard output could not be
  /// written, or a run folder given as input cannot be used (``RunFolder``'s rules, the same for every reader).
  case failure = 1
  /// `compare`/`ab`: a regression; `overhead`: above the limit.
  case regression = 2
  /// `verify-store`: the store is corrupt or holds other content.
  case damaged = 3
  /// `compare --fail-on-improvement`: improvements and no regression.
  case improvement = 4
  /// `compare`/`ab`: no regression found, but some row had too few repetitions to show one
  /// (without `--allow-underpowered`).
  case underpowered = 5
  /// `advise`: no strategy meets every budget and the durability need of the profile (the answer says why each
  /// failed).
  case noStrategy = 6
  /// No answer yet: `advise` — some strategy is not measured enough to be judged (a budget or "no lost update" from
  /// fewer repetitions than the first look), and it might be the cheapest; `check` — no budget broken, but some not
  /// measured enough. The page says what each still needs.
  case noAnswerYet = 7
  /// Bad input (a malformed scenario, an unknown backend, data that would not fit the machine or the budget, an
  /// output storebench refuses: a symlink, device, FIFO, an input of the command, a folder of the user's): nothing
  /// is written.
  case badInput = 64
  /// A long command (`run`, `crash`, `advise`, `ab`, `overhead`) stopped by SIGINT: completed rows are written,
  /// marked
  /// interrupted.
  case interrupted = 130
  /// Stopped by SIGTERM: as for SIGINT.
  case terminated = 143

  /// The status a process exits with at once on signal `number`: ``interrupted`` and ``terminated`` for the two
  /// storebench handles, 128 + the number (the shell's convention) for any other.
  public static func code(forSignal number: Int32) -> Int32 {
    switch number {
    case SIGINT: interrupted.rawValue
    case SIGTERM: terminated.rawValue
    default: 128 + number
    }
  }
}

/// An error that knows which exit code it means. The command line's one mapping (`Exit.swift`'s
/// `StoreBenchExit.for(_:)`) asks it first, so a typed error exits the same way from every command.
public protocol ExitCoded: Error {
  var exit: StoreBenchExit { get }
}

/// The kinds of a ``CodedError``: each names itself for code (its raw value) and says which exit it means.
public protocol ErrorKind: RawRepresentable<String>, Sendable, Equatable {
  var exit: StoreBenchExit { get }
}

/// An error for people and for code: its kind (`code`, one of a closed set) and a message that names the file,
/// run or value. `RunFolderError` and `HistoryError` are this with their own kinds.
public struct CodedError<Code: ErrorKind>: ExitCoded, CustomStringConvertible, Sendable {
  public let code: Code
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
  public var exit: StoreBenchExit { code.exit }
}
