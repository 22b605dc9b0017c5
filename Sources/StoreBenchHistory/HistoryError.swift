import StoreBenchContract
import StoreBenchMeasure

/// What went wrong with a history, for people: the code names the kind, the message names the file or run.
public typealias HistoryError = CodedError<HistoryErrorKind>

/// The kinds of ``HistoryError``.
public enum HistoryErrorKind: String, ErrorKind {
  /// The directory is not a finished storebench run (files missing or unreadable).
  case notARun = "not-a-run"
  /// The run was interrupted or has failed rows, and `--allow-partial` was not given.
  case partialRun = "partial-run"
  /// The history database cannot be opened, migrated or written (SQLite's own code and message follow).
  case database
  /// A value given to a history command cannot be used (a blank machine name).
  case badArgument = "bad-argument"
  /// The history holds nothing the request can use.
  case empty

  /// A value the user gave that cannot be used is bad input (64); a run folder that cannot be added, or a history
  /// that cannot be read or written, is a failure (1), as for every reader of run folders.
  public var exit: StoreBenchExit { self == .badArgument ? .badInput : .failure }
}
