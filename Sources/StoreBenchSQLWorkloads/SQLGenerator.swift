import StoreBenchCore

/// How a `sql` workload file generates a column's values (in the fill) or a parameter's (per execution of an
/// operation). Every random draw takes the next number of its table's or operation's stream (``stream(_:)``), so the
/// same file, parameters and seed give the same values on every backend, run and machine.
public indirect enum SQLGenerator: Sendable {
  /// A number of rows: fixed, or per parent row a uniform draw.
  public enum Count: Sendable {
    case fixed(SQLExpression)
    case uniform(SQLExpression, SQLExpression)
  }

  /// The fewest bytes of a generated text.
  public enum Size: Sendable {
    case fixed(SQLExpression)
    case uniform(SQLExpression, SQLExpression)
    /// Long-tailed: half between a quarter of the median and the median, half from the median up to `most`.
    case spread(median: SQLExpression, most: SQLExpression)
  }

  /// `value: 0` (an integer expression).
  case integer(SQLExpression)
  /// `value: 'text'` (a quoted scalar).
  case text(String)
  /// `null: true`.
  case null
  /// `sequence: {start, step, cycle}`: `start + step × (n mod cycle)` for the n-th row or execution.
  case sequence(start: SQLExpression, step: SQLExpression, cycle: SQLExpression?)
  /// `uniform: [low, high]`: an integer drawn uniformly; `distinct`: different from the values drawn for the same
  /// parent row (a many-to-many table's keys).
  case uniform(SQLExpression, SQLExpression, distinct: Bool)
  /// `words: {bytes: …}`: seeded words of the harness's text (with its awkward Unicode) of at least that many bytes.
  case words(Size)
  /// `choice: {values: […], weights: […]}`.
  case choice([SQLValue], weights: [Int])
  /// `timestamp: {days: N}`: milliseconds since 1970, drawn from the N days before 2026-01-01.
  case timestamp(days: SQLExpression)
  /// `existing: {table, column}`: the column of a uniformly drawn row of a table the fill wrote (a foreign key,
  /// an existing key).
  case existing(table: String, column: String)
  /// `parent: column`: the column of the parent row (`for_each` tables).
  case parent(String)
  /// `record: field` or `record: {field, from}`: a field of the harness's own article number n (or `from` + n): the
  /// records every built-in workload stores (`uid`, `feed_id`, `title`, `summary`, `published`, `read`).
  case record(String, from: SQLExpression?)
  /// `share: {percent, stream}`: 1 for exactly ⌊rows × percent / 100⌋ rows chosen by a seeded shuffle, else 0.
  case share(percent: SQLExpression, stream: String)

  /// The fields `record` offers.
  public static let recordFields = ["uid", "feed_id", "title", "summary", "published", "read"]

  /// The seed salt of the stream named `name`: its ASCII bytes as a big-endian number when it has at most 8,
  /// else the FNV-1a hash of its UTF-8 (`tags` is 0x74616773, the salt the built-in tag workloads use).
  public static func stream(_ name: String) -> UInt64 {
    let bytes = Array(name.utf8)
    guard bytes.count <= 8 else {
      var hash = FNV1a()
      hash.combine(name)
      return hash.value
    }
    return bytes.reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// The expressions inside, for checking their names and values.
  var expressions: [SQLExpression] {
    switch self {
    case .integer(let e), .timestamp(let e): [e]
    case .sequence(let start, let step, let cycle): [start, step] + (cycle.map { [$0] } ?? [])
    case .uniform(let low, let high, _): [low, high]
    case .words(.fixed(let e)): [e]
    case .words(.uniform(let a, let b)), .words(.spread(let a, let b)): [a, b]
    case .record(_, let from): from.map { [$0] } ?? []
    case .share(let percent, _): [percent]
    case .text, .null, .choice, .existing, .parent: []
    }
  }
}
