/// The columns of one invocation's files: the standard table (``ReportColumns``) and the columns its workloads
/// declare (``ReportColumn/declared(_:_:_:aggregation:_:)``), appended in registration order to samples.csv, and, for
/// those summarized by their median, as `median_<name>` to summary.csv.
///
/// Writers and readers are built from one set: `samples.csv` is written with ``samples``, read back (its numbers
/// checked by unit) with ``samples``, and summarized with ``summary``. A run written with columns the reading binary
/// does not declare is still read: those cells are kept as text, never judged.
public struct ColumnSet: Sendable {
  /// The workloads' own columns, in registration order.
  public let declared: [ReportColumn]
  /// samples.csv: the standard columns, then ``declared``.
  public let samples: [ReportColumn]
  /// summary.csv: the standard columns, then the medians of the declared columns summarized by their median.
  public let summary: [ReportColumn]
  /// The columns a ``Repetition`` may note: the standard workload columns and every declared one.
  public let notes: Set<SampleColumn>
  /// The sample columns summarized by their median (``ReportColumn/Aggregation/median``), in file order.
  public let medianColumns: [SampleColumn]
  private let byID: [SampleColumn: ReportColumn]

  /// The standard columns alone.
  public static let standard = ColumnSet(checked: [])

  /// The standard columns and `declared`; throws a ``ColumnError`` when a declared column is not a workload's
  /// column (``ReportColumn/declared(_:_:_:aggregation:_:)``), takes a standard column's name, or is declared twice
  /// differently (two workloads may share a column they declare identically).
  public init(declaring declared: [ReportColumn]) throws(ColumnError) {
    var kept: [ReportColumn] = []
    for column in declared {
      guard case .sample(let id) = column.id, column.group == .workload, column.name == id.rawValue,
        column.aggregation == .none || column.aggregation == .median
      else {
        throw ColumnError(
          "the column '\(column.name)' is not a workload's own column (declare it with ReportColumn.declared)"
        )
      }
      guard ReportColumns.samples.allSatisfy({ $0.name != column.name }),
        ReportColumns.summary.allSatisfy({ $0.name != ColumnID.median(id).name })
      else {
        throw ColumnError("the column '\(column.name)' is a standard column; give yours a name of its own")
      }
      if let earlier = kept.first(where: { $0.name == column.name }) {
        guard earlier.describes(like: column) else {
          throw ColumnError(
            "the column '\(column.name)' is declared twice, differently (\(earlier.unit.rawValue), "
              + "\(earlier.polarity.rawValue) and \(column.unit.rawValue), \(column.polarity.rawValue))")
        }
        continue
      }
      kept.append(column)
    }
    self.init(checked: kept)
  }

  private init(checked declared: [ReportColumn]) {
    self.declared = declared
    samples = ReportColumns.samples + declared
    summary =
      ReportColumns.summary
      + declared.filter { $0.aggregation == .median }.map { column in
        guard case .sample(let id) = column.id else { preconditionFailure("checked") }
        return ReportColumns.median(of: column, id)
      }
    var notes = ReportColumns.notes
    for column in declared { if case .sample(let id) = column.id { notes.insert(id) } }
    self.notes = notes
    medianColumns = samples.compactMap { column in
      guard column.aggregation == .median, case .sample(let id) = column.id else { return nil }
      return id
    }
    var byID: [SampleColumn: ReportColumn] = [:]
    for column in samples { if case .sample(let id) = column.id { byID[id] = column } }
    self.byID = byID
  }

  /// The sample column `id`, nil when this set has none.
  public func sample(_ id: SampleColumn) -> ReportColumn? { byID[id] }

  /// The sample column called `name` in a file, nil when there is none.
  public func sample(named name: String) -> ReportColumn? {
    SampleColumn(rawValue: name).flatMap { byID[$0] }
  }

  /// The samples.csv header.
  public var sampleHeader: [String] { samples.map(\.name) }
  /// The summary.csv header.
  public var summaryHeader: [String] { summary.map(\.name) }
}

/// A column a workload declares that cannot be one.
public struct ColumnError: Error, CustomStringConvertible, Sendable {
  public let description: String
  init(_ description: String) { self.description = description }
}

extension ReportColumn {
  /// A workload's own column of samples.csv (group `workload`): per repetition only (`aggregation: .none`, the
  /// default), or also summarized by its median in summary.csv (`.median`, as `median_<name>`). The workload
  /// notes its cells with ``SampleColumn``s it declares (`Repetition.note`), and `compare`, `report`, `columns` and
  /// the charts read it as they read a standard column.
  public static func declared(
    _ id: SampleColumn, _ unit: Unit, _ polarity: Polarity, aggregation: Aggregation = .none,
    _ description: String
  ) -> ReportColumn {
    ReportColumn(
      id: .sample(id), name: id.rawValue, unit: unit, polarity: polarity, aggregation: aggregation,
      group: .workload, deterministic: false, description: description)
  }

  /// Whether `other` says what this column says (unit, polarity, aggregation and description).
  func describes(like other: ReportColumn) -> Bool {
    (unit, polarity, aggregation, description) == (other.unit, other.polarity, other.aggregation, other.description)
  }
}
