/// A CSV row read as cells by name (``StrictCSV``, ``RunFolder``, the history's rows), looked up by the typed column:
/// code never spells a column's name (``SampleColumn``, ``SummaryStatistic``, ``ColumnID``).
extension Dictionary where Key == String, Value == String {
  /// The cell of the sample column `column`.
  public subscript(_ column: SampleColumn) -> String? { self[column.rawValue] }
  /// The cell of the summary statistic `statistic`.
  public subscript(_ statistic: SummaryStatistic) -> String? { self[statistic.rawValue] }
  /// The cell of the report column `id`.
  public subscript(_ id: ColumnID) -> String? { self[id.name] }
}
