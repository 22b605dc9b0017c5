import StoreBenchContract
import StoreBenchMeasure

/// Why a run folder (or one of its files) cannot be used: the file and line are in the message. A run folder that
/// cannot be used is an unreadable input: exit 1 from every command.
public typealias RunFolderError = CodedError<RunFolderErrorKind>

/// The kinds of ``RunFolderError``.
public enum RunFolderErrorKind: String, ErrorKind {
  /// No such folder, or a required file is missing or not a regular file.
  case notARun = "not-a-run"
  /// A file is cut short, has an unterminated quote or a row with too few or too many cells.
  case torn
  /// A number that cannot be a measurement: NaN, infinite, negative, or absurdly large.
  case badValue = "bad-value"
  /// The files disagree: more or fewer repetitions in samples.csv than summary.csv says.
  case inconsistent
  /// The run was interrupted or has failed rows (a reader that needs a complete run refuses it).
  case partial

  public var exit: StoreBenchExit { .failure }
}
