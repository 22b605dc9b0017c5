/// Errors a store raises that are not a library's own.
public enum StoreError: Error, CustomStringConvertible, Equatable {
  /// The strategy cannot do this operation meaningfully; the row is reported as `unsupported`.
  case unsupported(String)
  /// The settings in force differ from those requested (e.g. WAL refused).
  case settingMismatch(setting: String, requested: String, effective: String)
  /// The store's content is not what the workload wrote.
  case inconsistent(String)

  public var description: String {
    switch self {
    case .unsupported(let operation): "unsupported: \(operation)"
    case .settingMismatch(let setting, let requested, let effective):
      "setting \(setting): requested \(requested) but the library reports \(effective)"
    case .inconsistent(let detail): "inconsistent store: \(detail)"
    }
  }
}
