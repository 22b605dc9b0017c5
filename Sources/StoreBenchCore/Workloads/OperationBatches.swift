/// The `batch` parameter of the workloads that save records (insert, parent-save): every `batch` records are one
/// app operation, committed in one unit of work, and the row's `ops` counts those operations.
enum OperationBatches {
  /// The records of each app operation: consecutive ranges of `size` over `count` records.
  static func ranges(count: Int, size: Int) -> [Range<Int>] {
    stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
  }

  /// Refuses a `batch` (above 0) that does not divide `count`: every app operation saves the same number.
  static func validate(_ parameters: WorkloadParameters) throws {
    if let batch = parameters.value(.batch), batch > 0, parameters[.count] % batch != 0 {
      throw ParameterError(
        "batch (\(batch)) must divide count (\(parameters[.count])): every app operation saves the same number")
    }
  }
}
