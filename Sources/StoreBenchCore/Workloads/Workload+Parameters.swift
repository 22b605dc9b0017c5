extension Workload {
  /// Its default parameters with `values` set, as a scenario entry's `parameters` would set them: each must be one
  /// of its parameters and in that parameter's range, and the whole must pass ``validate(_:)``.
  public func parameters(setting values: [String: Int]) throws -> WorkloadParameters {
    var result = defaultParameters
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      guard let spec = parameters.first(where: { $0.name == name }) else {
        throw ParameterError("'\(name)' is not a parameter of \(self.name)")
      }
      guard spec.range.contains(value) else {
        throw ParameterError(
          "\(name) = \(value) is out of range for \(self.name): \(spec.range.lowerBound)...\(spec.range.upperBound)")
      }
      result.set(name, value)
    }
    try validate(result)
    return result
  }
}
